// Nothing left behind when a run is interrupted (issue 15, item 5), for every command that makes
// something: each command below, started on a long run, gets SIGINT (to its whole process group,
// as Ctrl-C does), SIGTERM or SIGHUP (to the process alone, as a job manager or a closed terminal
// does) at two points (at once, while it sets up; later, while it measures). Whatever the point,
// the run must end within 20 s, its processes gone, with no shared-memory segment or O_DIRECT
// backing file of any of its processes and nothing in the directory it was given. A command that
// needs a peer is interrupted while it waits for one.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "run_binary.hpp"
#include "support/temp_dir.hpp"
#include "system_state.hpp"

namespace {

using namespace std::chrono_literals;

struct Command {
  const char* name;
  std::vector<std::string> args;  // "DIR" is replaced by the run's own empty directory
  // kv dump's blocks are its product, published whole by rename: what it published stays, but no
  // temporary (`<name>.tmp-<pid>.<thread>`, a half-written block) may. Every other command: nothing.
  bool keeps_whole_blocks = false;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> list{
      {"copy", {"copy", "-s", "16M", "-n", "4", "-i", "1000000", "-d", "2", "-q"}},
      {"copy_shm", {"copy", "--from", "shm", "-s", "16M", "-n", "4", "-i", "1000000", "-d", "2", "-q"}},
      {"io_write", {"io", "-D", "DIR", "--rw", "write", "-w", "2", "-s", "64M", "-T", "600", "-q"}},
      {"gdsio_write", {"gdsio", "-D", "DIR", "-d", "0", "-w", "2", "-s", "64m", "-i", "1m", "-x", "1", "-I", "1",
                       "-T", "600"}},
      {"survey", {"survey", "--quick", "--dir", "DIR", "-q"}},
      {"dev_sandbox_shm", {"dev-sandbox", "--model-type", "mla", "--iodirect", "false", "--sdma", "false", "-s", "64M",
                           "-n", "4", "-i", "100000", "-d", "2"}},
      {"dev_sandbox_odirect", {"dev-sandbox", "--model-type", "gqa", "--iodirect", "true", "--sdma", "false", "-s",
                               "64M", "-n", "4", "-i", "100000", "-d", "2"}},
      {"dev_sandbox_trans", {"dev-sandbox", "trans", "-t", "H2D", "-H", "registered", "-s", "16M", "-n", "4", "-i",
                             "1000000", "-d", "2"}},
      {"dev_sandbox_aio", {"dev-sandbox", "aio", "--dir", "DIR", "-s", "1M", "-n", "64", "-w", "4", "-i", "100000"}},
      {"kv_dump", {"kv", "dump", "--store", "DIR", "-n", "4096", "--block", "256K", "--passes", "1000", "-q"}, true},
      {"p2p", {"p2p", "-s", "64M", "--times", "100000000", "-q"}},
      {"link_loopback", {"link", "--transport", "tcp", "-s", "1M", "-i", "100000000", "-q"}},
      {"xfer_server_waiting", {"xfer", "server", "--listen", "127.0.0.1:0", "--transport", "tcp", "--wait", "600", "-q"}},
      {"ascend_dmi", {"ascend-dmi", "--bw", "-t", "p2p", "--ds", "0", "--dd", "1", "-s", "67108864", "--et",
                      "100000000", "-q"}},
      {"sharp_coll_test", {"sharp_coll_test", "-M", "host", "-d", "lo", "-s", "1M:1M", "-i", "100000000"}},
      {"hixl_server_waiting", {"hixl", "0", "127.0.0.1:0", "127.0.0.2", "PORT", "h2h", "write", "false"}},
      {"ascend_dmi_h2d", {"ascend-dmi", "--bw", "-t", "h2d", "-s", "67108864", "--et", "100000000", "-q"}},
      {"xfer_server_clients_waiting",
       {"xfer", "server", "--listen", "127.0.0.1:0", "--clients", "3", "--transport", "tcp", "--wait", "600", "-q"}},
      {"hixl_comm_bench_target_waiting",
       {"hixl_comm_bench", "--role=target", "--local_engine=127.0.0.1:PORT", "--peer_count=2", "--peer_wait_s=600"}},
      {"sharp_collectives", {"sharp_coll_test", "-c", "allreduce", "-s", "4:64K", "-i", "100000000", "-x", "1"}},
      {"p2p_rank0_waiting", {"p2p", "--ip", "127.0.0.42", "--hip", "127.0.0.41", "--spp", "DIR", "--window", "600", "-q"}},
  };
  return list;
}

struct InterruptCase {
  std::size_t command;
  int signal;
  std::chrono::milliseconds after;
};

std::string case_name(const InterruptCase& c) {
  const char* sig = c.signal == SIGINT ? "sigint" : c.signal == SIGTERM ? "sigterm" : "sighup";
  return std::string(commands()[c.command].name) + "_" + sig + (c.after.count() < 100 ? "_at_once" : "_later");
}

std::vector<InterruptCase> every_case() {
  std::vector<InterruptCase> out;
  for (std::size_t i = 0; i < commands().size(); ++i) {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
      for (const auto after : {20ms, 400ms}) out.push_back(InterruptCase{i, sig, after});
    }
  }
  return out;
}

class InterruptEveryCommand : public ::testing::TestWithParam<InterruptCase> {
 protected:
  void SetUp() override { prctl(PR_SET_CHILD_SUBREAPER, 1); }  // orphaned device processes: ours to reap
  void TearDown() override {
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
  }
};

TEST_P(InterruptEveryCommand, EndsAndLeavesNothing) {
  const InterruptCase& c = GetParam();
  xb::test::TempDir dir;
  std::vector<std::string> args = commands()[c.command].args;
  for (auto& a : args) {
    if (a == "DIR") a = dir.path().string();
    // PORT, also inside key=value arguments (hixl_comm_bench's --local_engine=127.0.0.1:PORT).
    if (const auto at = a.find("PORT"); at != std::string::npos) a.replace(at, 4, std::to_string(xbtest::free_tcp_port()));
  }
  xbtest::Process p = xbtest::start_binary(XB_BINARY, args);
  // The points count from the moment the program catches SIGINT, SIGTERM and SIGHUP (core/cleanup's
  // handlers, installed first thing in main): before that the process is the test's fork, the
  // dynamic loader or a library's constructor, none of which is ours to judge (a SIGHUP there meets
  // the test process's disposition, ignored under nohup, or a library's own handler).
  const bool catching = xbtest::wait_until([&] { return xbtest::catches_interrupts(p.pid()); }, 10s);
  ASSERT_TRUE(catching) << "the program never installed its signal handlers";
  // Every process the run had, sampled until the signal, names the leftovers that would be its.
  std::set<pid_t> pids{p.pid()};
  const auto until = std::chrono::steady_clock::now() + c.after;
  do {
    for (const pid_t q : xbtest::live_processes_in_group(p.pid())) pids.insert(q);
    std::this_thread::sleep_for(5ms);
  } while (std::chrono::steady_clock::now() < until);
  // Still running at the signal: a run that ended first (a bad flag, a quick end) proves nothing.
  ASSERT_FALSE(p.wait_for(0ms).has_value()) << "the run ended before the signal";
  ::kill(c.signal == SIGINT ? -p.pid() : p.pid(), c.signal);
  const auto r = p.wait_for(20s);
  ASSERT_TRUE(r.has_value()) << "still running 20 s after the signal";
  EXPECT_TRUE(!r->exited || r->exit_code != 0) << "the long run finished instead: " << r->describe();
  const bool gone = xbtest::wait_until(
      [&] {
        while (waitpid(-1, nullptr, WNOHANG) > 0) {
        }
        return xbtest::live_processes_in_group(p.pid()).empty();
      },
      10s);
  EXPECT_TRUE(gone) << "processes of the run outlived it";
  const auto left = xbtest::leftovers_of(pids);
  EXPECT_TRUE(left.empty()) << "left behind: " << (left.empty() ? "" : left.front()) << " (" << left.size() << ")";
  std::vector<std::string> in_dir;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir.path())) {
    const bool published = commands()[c.command].keeps_whole_blocks &&
                           e.path().filename().string().find(".tmp-") == std::string::npos;
    if (!published) in_dir.push_back(e.path().string());
  }
  EXPECT_TRUE(in_dir.empty()) << "left in the run's directory: " << (in_dir.empty() ? "" : in_dir.front()) << " ("
                              << in_dir.size() << ")";
}

INSTANTIATE_TEST_SUITE_P(Commands, InterruptEveryCommand, ::testing::ValuesIn(every_case()),
                         [](const auto& param_info) { return case_name(param_info.param); });

}  // namespace
