// The Ascend backend module, loaded by the real binary: without CANN it says in one line which
// library it looked for and where; against the stand-in runtime (acl_standin.cpp) it finds the
// NPUs and moves and checks data through every path, and the stand-in's ledger shows the contract
// kept (no breach, nothing left at aclFinalize, an aclFinalize for every aclInit) and which calls
// ran (batch copies really batched).
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "run_binary.hpp"
#include "support/temp_dir.hpp"
#include "system_state.hpp"

namespace {

using xbtest::RunOptions;
using xbtest::RunResult;
using xbtest::run_binary;
using namespace std::chrono_literals;

// The binary with the stand-in as the machine's CANN, its ledger in `dir`.
class AclStandIn : public ::testing::Test {
 protected:
  RunResult run(const std::vector<std::string>& args, std::vector<std::string> env = {},
                const char* standin = XB_ACL_STANDIN) {
    RunOptions o = xbtest::default_options();
    o.env = {std::string("ASCEND_HOME_PATH=") + standin, "XB_ACL_STANDIN_LEDGER=" + ledger_path()};
    for (auto& e : env) o.env.push_back(std::move(e));
    o.unset_env = {"LD_LIBRARY_PATH", "ASCEND_TOOLKIT_HOME"};
    return run_binary(XB_BINARY, args, o);
  }
  RunResult batch_copy_json(std::vector<std::string> env, const char* standin = XB_ACL_STANDIN);
  void expect_interrupts_release_everything(const std::vector<std::string>& args, int inits,
                                            const std::vector<std::string>& env = {});
  std::string ledger_path() const { return (dir_.path() / "ledger").string(); }
  std::string ledger() const {
    std::ifstream f(ledger_path());
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  static std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }
  // The contract kept: every process that ran aclInit finalised, nothing breached or leaked.
  void expect_contract_kept() const {
    const std::string l = ledger();
    EXPECT_GT(count(l, " init\n"), 0u) << l;
    EXPECT_EQ(count(l, " init\n"), count(l, " finalize calls")) << l;
    EXPECT_EQ(l.find("breach:"), std::string::npos) << l;
    EXPECT_EQ(l.find("leak:"), std::string::npos) << l;
  }
  // The calls of `name` over every process: a process's finalize line counts its calls so far, so
  // each process's last one counts.
  std::uint64_t calls(const std::string& name) const {
    std::map<std::string, std::uint64_t> last;  // pid -> count
    std::istringstream in(ledger());
    const std::regex line_re("^pid ([0-9]+) finalize calls.*");
    const std::regex call_re(" " + name + "=([0-9]+)");
    for (std::string line; std::getline(in, line);) {
      std::smatch pid, n;
      if (!std::regex_match(line, pid, line_re)) continue;
      last[pid[1]] = std::regex_search(line, n, call_re) ? std::stoull(n[1]) : 0;
    }
    std::uint64_t total = 0;
    for (const auto& [pid, n] : last) total += n;
    return total;
  }

  xb::test::TempDir dir_;
};

TEST(AclWithoutCann, DevicesNamesTheLibraryAndWhereItLooked) {
  RunOptions o = xbtest::default_options();
  o.unset_env = {"LD_LIBRARY_PATH", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"};
  const auto r = run_binary(XB_BINARY, {"devices"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("backend acl ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("libxferbench-backend-acl.so): not available: CANN's runtime is not installed: neither "
                       "libascendcl.so nor libacl_rt.so is in "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("/usr/local/Ascend/ascend-toolkit/latest/lib64"), std::string::npos) << r.out;
}

TEST(AclWithoutCann, AskingForAclIsOneLineAndExitThree) {
  RunOptions o = xbtest::default_options();
  o.unset_env = {"LD_LIBRARY_PATH", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"};
  const auto r = run_binary(XB_BINARY, {"copy", "--backend", "acl", "-s", "1M", "-n", "1", "-i", "1"}, o);
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("the acl backend: CANN's runtime is not installed: neither libascendcl.so nor libacl_rt.so"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(AclStandIn, DevicesListsTheNpus) {
  const auto r = run({"devices", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto doc = nlohmann::json::parse(r.out);
  const nlohmann::json* acl = nullptr;
  for (const auto& b : doc.at("backends")) {
    if (b.at("name") == "acl") acl = &b;
  }
  ASSERT_NE(acl, nullptr) << r.out;
  ASSERT_EQ(acl->at("devices").size(), 2u) << r.out;
  const auto& d1 = acl->at("devices")[1];
  EXPECT_EQ(d1.at("name"), "acl::device::1");
  EXPECT_EQ(d1.at("description"), "Ascend910B3");
  EXPECT_EQ(d1.at("memory_bytes"), 32ull << 30);
  EXPECT_EQ(d1.at("card"), 1);  // one die a card: each device its own card
  EXPECT_EQ(d1.at("die"), 0);
  expect_contract_kept();
}

TEST_F(AclStandIn, TwoDieCardsShowTheirCardAndDie) {
  const auto r = run({"devices"}, {"XB_ACL_STANDIN_DEVICES=4", "XB_ACL_STANDIN_DIES_PER_CARD=2"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("acl::device::1  Ascend910B3, memory 32.0 GiB, NUMA node unknown, card 0 die 1"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("acl::device::2  Ascend910B3, memory 32.0 GiB, NUMA node unknown, card 1 die 0"),
            std::string::npos)
      << r.out;
  expect_contract_kept();
}

// Every direction of copy, on both engines, data checked; the batch engine really batched.
TEST_F(AclStandIn, CopyEveryDirectionAndEngineWithVerify) {
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"host", "device"}, {"device", "host"}, {"pageable", "device"}, {"device", "device"}}) {
    for (const std::string engine : {"ce", "batch"}) {
      SCOPED_TRACE(from + " -> " + to + " on " + engine);
      std::vector<std::string> args{"copy", "--backend", "acl", "--from", from, "--to", to, "--engine", engine,
                                    "-s", "256K", "-n", "4", "-i", "3", "--warmup", "1", "--verify", "-q"};
      if (engine == "batch") args.push_back("--batch");
      const auto r = run(args);
      ASSERT_EQ(r.exit_code, 0) << r.describe();
    }
  }
  EXPECT_GT(calls("aclrtMemcpyBatchAsync"), 0u);
  EXPECT_GT(calls("aclrtEventElapsedTime"), 0u);
  expect_contract_kept();
}

// A batch copy where the runtime cannot batch: one by one, data checked, and the result says why.
RunResult AclStandIn::batch_copy_json(std::vector<std::string> env, const char* standin) {
  return run({"copy", "--backend", "acl", "--from", "host", "--to", "device", "--engine", "batch", "--batch", "-s",
              "64K", "-n", "4", "-i", "2", "--warmup", "1", "--verify", "--format", "json", "-q"},
             std::move(env), standin);
}

TEST_F(AclStandIn, ARuntimeWithoutBatchCopiesGoesOneByOneAndSaysSo) {
  const auto r = batch_copy_json({}, XB_ACL_STANDIN_OLD);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("loop: this CANN runtime has no aclrtMemcpyBatchAsync"), std::string::npos) << r.out;
  EXPECT_EQ(calls("aclrtMemcpyBatchAsync"), 0u);
  EXPECT_GT(calls("aclrtMemcpyAsync"), 0u);
  expect_contract_kept();
}

TEST_F(AclStandIn, ARefusedBatchGoesOneByOneAndSaysSo) {
  const auto r = batch_copy_json({"XB_ACL_STANDIN_NO_BATCH=1"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("loop: aclrtMemcpyBatchAsync returned 207000"), std::string::npos) << r.out;
  expect_contract_kept();
}

TEST_F(AclStandIn, P2pOneWayBothWaysAndTheMatrix) {
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, std::vector<std::string>{"--bidirectional"}, std::vector<std::string>{"--all-pairs"}}) {
    std::vector<std::string> args{"p2p", "--backend", "acl", "-s", "1M", "--times", "4", "--verify", "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run(args);
    ASSERT_EQ(r.exit_code, 0) << r.describe();
  }
  EXPECT_GT(calls("aclrtDeviceEnablePeerAccess"), 0u);
  expect_contract_kept();
}

TEST_F(AclStandIn, DevicesThatCannotReachEachOtherAreWaived) {
  const auto r = run({"p2p", "--backend", "acl", "-s", "1M", "--times", "2", "--format", "json", "-q"},
                     {"XB_ACL_STANDIN_NO_PEER=1"});
  EXPECT_NE(r.out.find("cannot access device 1 directly"), std::string::npos) << r.describe() << r.out;
  expect_contract_kept();
}

// dev-sandbox's eight cases (GQA and MLA, O_DIRECT or not, SDMA batches or copy-engine streams) on
// the NPUs, every byte checked.
TEST_F(AclStandIn, DevSandboxEightCasesWithVerify) {
  for (const std::string model : {"gqa", "mla"}) {
    for (const std::string iodirect : {"true", "false"}) {
      for (const std::string sdma : {"true", "false"}) {
        SCOPED_TRACE(model + " iodirect " + iodirect + " sdma " + sdma);
        const auto r = run({"dev-sandbox", "--model-type", model, "--iodirect", iodirect, "--sdma", sdma, "-s", "256K",
                            "-n", "4", "-i", "3", "-d", "2", "-f", "4", "--verify"});
        ASSERT_EQ(r.exit_code, 0) << r.describe();
        EXPECT_NE(r.out.find("acl::device::all"), std::string::npos) << r.out;
      }
    }
  }
  EXPECT_GT(calls("aclrtMemcpyBatchAsync"), 0u);
  expect_contract_kept();
}

// Storage into device memory: io's CPU_GPU through a pinned bounce buffer (O_DIRECT wants it
// page-aligned, which aclrtMallocHost does not promise) and kv load into device memory.
TEST_F(AclStandIn, IoCpuGpuAndKvLoadIntoDeviceMemoryWithVerify) {
  const std::string data = (dir_.path() / "io").string(), store = (dir_.path() / "kv").string();
  std::filesystem::create_directories(data);
  std::filesystem::create_directories(store);
  auto r = run({"io", "-D", data, "--xfer", "cpu-gpu", "--backend", "acl", "--rw", "write", "-s", "4M", "-i", "1M",
                "--keep", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  r = run({"io", "-D", data, "--xfer", "cpu-gpu", "--backend", "acl", "--rw", "read", "-s", "4M", "-i", "1M", "--verify",
           "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  r = run({"kv", "dump", "--store", store, "-n", "8", "--block", "1M", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  r = run({"kv", "load", "--store", store, "-n", "8", "--block", "1M", "--to", "device", "--backend", "acl", "--verify",
           "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("acl::device::0"), std::string::npos) << r.out;
  expect_contract_kept();
}

// ascend-dmi -m card on two-die cards: card 0's two devices move to card 1's at once, as the card.
TEST_F(AclStandIn, AscendDmiCardModeMovesBothDiesAtOnce) {
  const auto r = run({"ascend-dmi", "--bw", "-t", "p2p", "--ds", "0", "--dd", "1", "-s", "4194304", "--et", "4", "-m",
                      "card"},
                     {"XB_ACL_STANDIN_DEVICES=4", "XB_ACL_STANDIN_DIES_PER_CARD=2"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("Unidirectional Peer to Peer Test"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Bidirectional Peer to Peer Test"), std::string::npos) << r.out;
  // The Pod lines name cards, as the seed's Table 2 has it in card mode.
  EXPECT_NE(r.out.find(" card id: 0 to Pod: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" card id: 0 and Pod: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("device id"), std::string::npos) << r.out;
  // Device 0 to 2 and 1 to 3, then back for both ways: four peer links enabled (a device pair: two).
  EXPECT_EQ(calls("aclrtDeviceEnablePeerAccess"), 4u) << ledger();
  expect_contract_kept();
}

// The card's figure counts both dies' bytes: twice the size per execution over the card's time,
// and both dies copy every execution (twice the copies of one device pair on the same plan).
TEST_F(AclStandIn, AscendDmiCardModeCountsEveryDiesBytes) {
  const std::vector<std::string> env{"XB_ACL_STANDIN_DEVICES=4", "XB_ACL_STANDIN_DIES_PER_CARD=2"};
  const std::vector<std::string> args{"ascend-dmi", "--bw", "-t", "p2p", "--ds", "0", "--dd", "1",
                                      "-s", "1048576", "--et", "3", "--fmt", "json"};
  auto device = args, card = args;
  device.insert(device.end(), {"-m", "device"});
  card.insert(card.end(), {"-m", "card"});
  const auto d = run(device, env);
  ASSERT_EQ(d.exit_code, 0) << d.describe();
  const std::size_t device_copies = calls("aclrtMemcpyAsync");
  ASSERT_GT(device_copies, 0u) << ledger();
  const auto c = run(card, env);
  ASSERT_EQ(c.exit_code, 0) << c.describe();
  EXPECT_EQ(calls("aclrtMemcpyAsync") - device_copies, 2 * device_copies) << ledger();
  const auto doc = nlohmann::json::parse(c.out);
  ASSERT_EQ(doc.at("bandwidths").size(), 2u) << c.out;
  for (const auto& test : doc.at("bandwidths")) {
    const bool both_ways = test.at("type").get<std::string>().starts_with("Bidirectional");
    const auto& row = test.at("results").at(0);
    const double gbps = std::stod(row.at("bandwidth").get<std::string>());
    const double us = std::stod(row.at("elapsed_time").get<std::string>());
    ASSERT_GT(us, 0) << c.out;
    // GB/s = bytes / µs / 1000, bytes = 1 MiB × 2 dies (× 2 both ways); 6 and 2 decimals printed.
    const double expected = 1048576.0 * 2 * (both_ways ? 2 : 1) / us / 1000;
    EXPECT_NEAR(gbps, expected, expected * 0.01 + 1e-6) << c.out;
  }
  expect_contract_kept();
}

TEST_F(AclStandIn, AscendDmiCardModeRefusesCardsOfOneDeviceAndCardsPastTheCount) {
  auto r = run({"ascend-dmi", "--bw", "-t", "p2p", "--ds", "0", "--dd", "1", "-s", "4194304", "--et", "2", "-m", "card"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(r.err, "xferbench ascend-dmi: not available on this machine: -m card: every card of the acl backend here is "
                   "one device (card 0 holds only device 0); use -m device\n");
  r = run({"ascend-dmi", "--bw", "-t", "p2p", "--ds", "0", "--dd", "2", "-s", "4194304", "--et", "2", "-m", "card"},
          {"XB_ACL_STANDIN_DEVICES=4", "XB_ACL_STANDIN_DIES_PER_CARD=2"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(r.err, "xferbench ascend-dmi: --dd 2: expected a card index from 0 to 1 (the acl backend has 2 cards of 2 "
                   "devices)\n");
}

// Across nodes each node moves one device: on cards of two dies that is not the card's figure.
TEST_F(AclStandIn, AscendDmiCardModeAcrossNodesIsRefusedOnCardsOfTwoDies) {
  const auto r = run({"ascend-dmi", "--bw", "-t", "p2p", "--sp", "0", "--ip", "127.0.0.1", "--hip", "127.0.0.1", "-d",
                      "0", "-m", "card"},
                     {"XB_ACL_STANDIN_DEVICES=4", "XB_ACL_STANDIN_DIES_PER_CARD=2"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(r.err, "xferbench ascend-dmi: not available on this machine: -m card across nodes: a card of the acl "
                   "backend here is 2 devices, and a run across nodes moves one device a node (not built for whole "
                   "cards); use -m device\n");
  expect_contract_kept();
}

// Interrupted mid-run, the NPU's users unwind: every stream, event and buffer released and
// aclFinalize called in each process (the stand-in's ledger), whether Ctrl-C reached the whole
// group or a SIGTERM only the parent: forked device processes (copy) stop on their way out before
// the parent dies; a job using the NPU in the main process stops at its next check and unwinds
// before the interrupt delivers and the process dies.
void AclStandIn::expect_interrupts_release_everything(const std::vector<std::string>& args, int inits,
                                                      const std::vector<std::string>& env) {
  for (const bool whole_group : {true, false}) {
    SCOPED_TRACE(args.front() + (whole_group ? ": SIGINT to the group" : ": SIGTERM to the parent"));
    std::filesystem::remove(ledger_path());
    RunOptions o = xbtest::default_options();
    o.env = {std::string("ASCEND_HOME_PATH=") + XB_ACL_STANDIN, "XB_ACL_STANDIN_LEDGER=" + ledger_path()};
    o.env.insert(o.env.end(), env.begin(), env.end());
    o.unset_env = {"LD_LIBRARY_PATH", "ASCEND_TOOLKIT_HOME"};
    xbtest::Process p = xbtest::start_binary(XB_BINARY, args, o);
    // The probe's process and every process that uses an NPU have initialised ACL.
    const bool started =
        xbtest::wait_until([&] { return count(ledger(), " init\n") >= static_cast<std::size_t>(inits); }, 30s);
    ASSERT_TRUE(started) << ledger();
    ASSERT_FALSE(p.wait_for(0ms).has_value()) << "the run ended before the signal";
    if (whole_group) {
      p.signal_group(SIGINT);
    } else {
      p.signal_process(SIGTERM);
    }
    const auto r = p.wait_for(30s);
    ASSERT_TRUE(r.has_value()) << "still running 30 s after the signal";
    EXPECT_FALSE(r->exited) << r->describe();
    EXPECT_EQ(r->term_signal, whole_group ? SIGINT : SIGTERM) << r->describe();
    // Nothing of the run outlives its parent: the device processes were reaped before it died.
    EXPECT_TRUE(xbtest::live_processes_in_group(p.pid()).empty());
    expect_contract_kept();
  }
}

TEST_F(AclStandIn, AnInterruptedCopyReleasesEveryNpuResource) {
  expect_interrupts_release_everything({"copy", "--backend", "acl", "--from", "host", "--to", "device", "-s", "4M", "-n",
                                        "4", "-i", "100000000", "-d", "2", "-q"},
                                       3);
}

// xfer with NPU memory on both sides over TCP, which reaches host memory only: the client's moves
// through its staging pool, the server's through its registered window (a staged region): a write
// lands in the server's device memory and a read starts from it, --verify checking the device
// memory itself (a pass without the server's copy would leave it as it was: the check fails).
TEST_F(AclStandIn, XferWithNpuMemoryOnTheServerIsStagedAndVerified) {
  for (const std::string op : {"write", "read"}) {
    SCOPED_TRACE(op);
    std::filesystem::remove(ledger_path());
    const std::string ready = (dir_.path() / ("ready-" + op)).string();
    RunOptions o = xbtest::default_options();
    o.env = {std::string("ASCEND_HOME_PATH=") + XB_ACL_STANDIN, "XB_ACL_STANDIN_LEDGER=" + ledger_path()};
    o.unset_env = {"LD_LIBRARY_PATH", "ASCEND_TOOLKIT_HOME"};
    xbtest::Process server = xbtest::start_binary(
        XB_BINARY, {"xfer", "server", "--backend", "acl", "--listen", "127.0.0.1:0", "--ready-file", ready, "-q"}, o);
    std::string control;
    ASSERT_TRUE(xbtest::wait_until(
        [&] {
          std::ifstream f(ready);
          std::string key, data;
          return static_cast<bool>(f >> key >> control >> key >> data);
        },
        30s))
        << "no ready file";
    const auto c = run({"xfer", "client", "--backend", "acl", "--peer", control, "--mode", "d2d", "--op", op, "--block",
                        "1M,4M", "--total", "8M", "--iters", "3", "--verify", "--format", "json", "-q"});
    ASSERT_EQ(c.exit_code, 0) << c.describe();
    const auto doc = nlohmann::json::parse(c.out);
    ASSERT_EQ(doc.at("cases").size(), 2u) << c.out;
    for (const auto& one : doc.at("cases")) {
      const auto& config = one.at("config");
      EXPECT_EQ(config.at("remote_memory").get<std::string>().rfind("acl::device::0, staged through a host", 0), 0u)
          << config.dump();
      EXPECT_TRUE(config.at("mover").contains("server_staging")) << config.dump();
      EXPECT_EQ(config.at("device_path").get<std::string>().rfind("staged through the pinned pool", 0), 0u)
          << config.dump();
    }
    const auto served = server.wait_for(30s);
    ASSERT_TRUE(served.has_value()) << "the server did not end after its client";
    EXPECT_TRUE(served->exited && served->exit_code == 0) << served->describe();
    expect_contract_kept();
  }
}

// An xfer server interrupted releases its NPU memory and device as it unwinds (the session's stop
// token, cli/stopping_run), whether it was waiting for a client or serving one: its staged device
// memory freed and aclFinalize called before it dies of the signal; its client then fails and
// unwinds too.
TEST_F(AclStandIn, AnInterruptedXferServerReleasesItsNpuMemory) {
  expect_interrupts_release_everything({"xfer", "server", "--backend", "acl", "--listen", "127.0.0.1:0", "--wait",
                                        "120", "-q"},
                                       2);
  std::filesystem::remove(ledger_path());
  const std::string ready = (dir_.path() / "ready-serving").string();
  RunOptions o = xbtest::default_options();
  o.env = {std::string("ASCEND_HOME_PATH=") + XB_ACL_STANDIN, "XB_ACL_STANDIN_LEDGER=" + ledger_path(),
           "XB_ACL_STANDIN_TRACE=aclrtMalloc"};
  o.unset_env = {"LD_LIBRARY_PATH", "ASCEND_TOOLKIT_HOME"};
  xbtest::Process server = xbtest::start_binary(
      XB_BINARY, {"xfer", "server", "--backend", "acl", "--listen", "127.0.0.1:0", "--ready-file", ready, "-q"}, o);
  std::string control;
  ASSERT_TRUE(xbtest::wait_until(
      [&] {
        std::ifstream f(ready);
        std::string key, data;
        return static_cast<bool>(f >> key >> control >> key >> data);
      },
      30s))
      << "no ready file";
  // The client's memory is host memory: the only device allocation is the server's exposed region.
  xbtest::Process client = xbtest::start_binary(XB_BINARY,
                                                {"xfer", "client", "--backend", "acl", "--peer", control, "--mode", "h2d",
                                                 "--op", "write", "--block", "1M", "--total", "8M", "--iters",
                                                 "1000000", "--no-latency", "-q"},
                                                o);
  ASSERT_TRUE(xbtest::wait_until([&] { return ledger().find(" call aclrtMalloc\n") != std::string::npos; }, 30s))
      << ledger();
  ASSERT_FALSE(server.wait_for(0ms).has_value()) << "the server ended before the signal";
  server.signal_group(SIGINT);
  const auto s = server.wait_for(30s);
  ASSERT_TRUE(s.has_value()) << "the server still runs 30 s after the signal";
  EXPECT_FALSE(s->exited) << s->describe();
  EXPECT_EQ(s->term_signal, SIGINT) << s->describe();
  const auto c = client.wait_for(60s);
  ASSERT_TRUE(c.has_value()) << "the client still runs 60 s after its server died";
  EXPECT_TRUE(c->exited && c->exit_code != 0) << c->describe();
  expect_contract_kept();
  EXPECT_EQ(calls("aclrtFree"), calls("aclrtMalloc")) << ledger();
}

// A client started before its server waits for it with its NPU already open (everything local is
// made first): an interrupt ends the wait and releases the NPU.
TEST_F(AclStandIn, AnInterruptedXferClientWaitingForItsServerReleasesItsNpu) {
  expect_interrupts_release_everything({"xfer", "client", "--backend", "acl", "--peer", "127.0.0.1:1", "--mode", "d2d",
                                        "--op", "write", "--block", "1M", "--total", "4M", "--wait", "120", "-q"},
                                       2);
}

// The dialects print nothing more when interrupted, as their tools, but a job on the NPU in the
// process still stops and unwinds (cli/stopping_run): ascend-dmi's p2p within a node, in card mode
// too (a thread per die).
TEST_F(AclStandIn, AnInterruptedAscendDmiP2pReleasesEveryNpuResource) {
  expect_interrupts_release_everything(
      {"ascend-dmi", "--bw", "-t", "p2p", "--ds", "0", "--dd", "1", "-s", "4194304", "--et", "100000000", "-q"}, 2);
  expect_interrupts_release_everything({"ascend-dmi", "--bw", "-t", "p2p", "--ds", "0", "--dd", "1", "-s", "4194304",
                                        "--et", "100000", "-m", "card", "-q"},
                                       2, {"XB_ACL_STANDIN_DEVICES=4", "XB_ACL_STANDIN_DIES_PER_CARD=2"});
}

TEST_F(AclStandIn, AnInterruptedP2pIoAndKvLoadReleaseEveryNpuResource) {
  expect_interrupts_release_everything(
      {"p2p", "--backend", "acl", "-s", "4M", "--times", "100000000", "--bidirectional", "-q"}, 2);
  const std::string store = (dir_.path() / "io").string();
  std::filesystem::create_directories(store);
  expect_interrupts_release_everything({"io", "-D", store, "--xfer", "cpu-gpu", "--backend", "acl", "--rw", "write", "-s",
                                        "16M", "-i", "1M", "-T", "600", "-q"},
                                       2);
  const std::string kv = (dir_.path() / "kv").string();
  std::filesystem::create_directories(kv);
  const auto dump = run({"kv", "dump", "--store", kv, "-n", "8", "--block", "1M", "-q"});
  ASSERT_EQ(dump.exit_code, 0) << dump.describe();
  expect_interrupts_release_everything({"kv", "load", "--store", kv, "-n", "8", "--block", "1M", "--passes", "1000000",
                                        "--to", "device", "--backend", "acl", "-q"},
                                       2);
}

// The survey measures the NPUs beside the host: copies all at once and every pair.
TEST_F(AclStandIn, TheSurveyHasItsAclRows) {
  const auto r = run({"survey", "--quick", "-o", (dir_.path() / "s.json").string(), "-q"});
  ASSERT_EQ(r.exit_code == 0 || r.exit_code == 1, true) << r.describe();  // 1: a FAIL verdict (host memory as HBM)
  EXPECT_TRUE(std::regex_search(r.out, std::regex("H2D acl \\(2 devices, all at once\\) +4M +[0-9.]+ +GiB/s"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("D2D acl \\(2 devices, all at once\\) +4M +[0-9.]+ +GiB/s"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("P2P acl::device::0 -> acl::device::1 +16M +[0-9.]+ +GB/s"))) << r.out;
  // The shipped SKU rule for host to device copies reaches the devices by their SoC name (seed 000's
  // 910B3): the row shows its expected figure and a verdict.
  EXPECT_TRUE(std::regex_search(r.out, std::regex("H2D acl \\(2 devices, all at once\\) +4M +[0-9.]+ +GiB/s +16\\.700 +"
                                                  "(PASS|WARN|FAIL)")))
      << r.out;
  expect_contract_kept();
}

// A SoC no shipped rule names: its rows are measured and unjudged (no verdict borrowed from another
// card's figures).
TEST_F(AclStandIn, TheSurveysAclRowsOfAnUnknownSocAreUnjudged) {
  const auto r = run({"survey", "--quick", "-o", (dir_.path() / "s.json").string(), "-q"},
                     {"XB_ACL_STANDIN_SOC=AscendStandIn"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(std::regex_search(r.out, std::regex("H2D acl \\(2 devices, all at once\\) +4M +[0-9.]+ +GiB/s +- +unjudged")))
      << r.out;
  const auto devices = run({"devices"}, {"XB_ACL_STANDIN_SOC=AscendStandIn"});
  EXPECT_NE(devices.out.find("acl::device::0  AscendStandIn, memory"), std::string::npos) << devices.describe();
  expect_contract_kept();
}

// An injected failure: one line naming the call, and the exit code of its kind.
TEST_F(AclStandIn, AFailedAllocationIsOneLineNamingTheCall) {
  const auto r = run({"copy", "--backend", "acl", "-s", "64K", "-n", "2", "-i", "1", "-d", "1", "-q"},
                     {"XB_ACL_STANDIN_FAIL=aclrtMalloc"});
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_NE(r.err.find("aclrtMalloc ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("error 507000 (the runtime says: injected failure of aclrtMalloc)"), std::string::npos) << r.err;
  EXPECT_EQ(ledger().find("leak:"), std::string::npos) << ledger();
}

TEST_F(AclStandIn, ADeviceThatCannotBeOpenedIsExitThree) {
  // Only a job's device process asks for the device's context (the probe does not).
  const auto r = run({"copy", "--backend", "acl", "-s", "64K", "-n", "2", "-i", "1", "-d", "1", "-q"},
                     {"XB_ACL_STANDIN_FAIL=aclrtGetCurrentContext"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_NE(r.err.find("aclrtGetCurrentContext (acl device 0) failed: error 507000 (the runtime says: injected "
                       "failure of aclrtGetCurrentContext)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  expect_contract_kept();
}

TEST_F(AclStandIn, AProbeThatFailsMakesAclUnavailableWithTheCall) {
  const auto r = run({"copy", "--backend", "acl", "-s", "64K", "-n", "2", "-i", "1", "-q"},
                     {"XB_ACL_STANDIN_FAIL=aclrtGetMemInfo"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_NE(r.err.find("aclrtGetMemInfo (HBM of acl device 0) failed: error 507000"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(AclStandIn, ADevicePastTheCountIsBadInput) {
  const auto r = run({"copy", "--backend", "acl", "-s", "64K", "-n", "2", "-i", "1", "-d", "3", "-q"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
