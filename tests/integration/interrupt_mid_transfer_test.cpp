// Interrupting a run that has a peer, in the middle of its transfers (issue 15, item 5): an xfer or
// HIXL client, or the server it is moving data with, or a whole mpirun of fleet or p2p --mpi, gets
// SIGINT (to its process group, as Ctrl-C) or SIGTERM (to the process alone). The signalled side
// ends within 20 s; its peer ends too, or goes on serving, but never hangs; and no process of
// either side leaves a shared-memory segment, an O_DIRECT backing file or anything in the run's
// directory (the ready file included).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "run_binary.hpp"
#include "support/mpi_run.hpp"
#include "support/temp_dir.hpp"
#include "system_state.hpp"
#include "xfer_processes.hpp"

namespace {

using namespace std::chrono_literals;

using xbtest::kBinary;

std::string signal_name(int sig) { return sig == SIGINT ? "sigint" : "sigterm"; }

// SIGINT goes to the process group (Ctrl-C), SIGTERM to the process alone (a job manager's kill).
void interrupt(const xbtest::Process& p, int sig) {
  if (sig == SIGINT) p.signal_group(sig);
  else p.signal_process(sig);
}

class InterruptMidTransfer : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override { prctl(PR_SET_CHILD_SUBREAPER, 1); }  // ranks orphaned by mpirun: ours to reap
  void TearDown() override {
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
  }

  // Adds the processes of `p` (itself and every descendant, e.g. mpirun's ranks) to pids_, for
  // `how_long`: what any of them leaves is the run's.
  void sample(const std::vector<xbtest::Process*>& runs, std::chrono::milliseconds how_long) {
    const auto until = std::chrono::steady_clock::now() + how_long;
    do {
      for (const auto* p : runs) {
        pids_.insert(p->pid());
        for (const pid_t q : xbtest::live_descendants(p->pid())) pids_.insert(q);
      }
      std::this_thread::sleep_for(5ms);
    } while (std::chrono::steady_clock::now() < until);
  }

  // The run ended within `limit`, by a signal or with a failure code (it was far from done).
  static void expect_ended_by_the_interrupt(xbtest::Process& p, std::chrono::milliseconds limit, const char* who) {
    const auto r = p.wait_for(limit);
    ASSERT_TRUE(r.has_value()) << who << " still running " << limit.count() << " ms after the interrupt";
    EXPECT_TRUE(!r->exited || r->exit_code != 0) << who << " finished its long run instead: " << r->describe();
  }

  // Nothing of any sampled process is left, no process of theirs is alive, the directory is empty.
  void expect_nothing_left(const xb::test::TempDir& dir) {
    const bool gone = xbtest::wait_until(
        [&] {
          while (waitpid(-1, nullptr, WNOHANG) > 0) {
          }
          for (const pid_t q : pids_) {
            if (xbtest::process_alive(q)) return false;
          }
          return true;
        },
        10s);
    EXPECT_TRUE(gone) << "processes of the run outlived it";
    const auto left = xbtest::leftovers_of(pids_);
    EXPECT_TRUE(left.empty()) << "left behind: " << xbtest::join(left);
    EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "left in the run's directory: " << xbtest::join(dir.tree());
  }

  // Waits until `p` has its handlers in (the signal is then the program's to handle), then lets
  // the transfers run 300 ms, sampling every side's processes.
  void let_it_transfer(const xbtest::Process& p, const std::vector<xbtest::Process*>& all) {
    ASSERT_TRUE(xbtest::wait_until([&] { return xbtest::catches_interrupts(p.pid()); }, 10s))
        << "the program never installed its signal handlers";
    sample(all, 300ms);
    for (auto* q : all) ASSERT_FALSE(q->wait_for(0ms).has_value()) << "a side ended before the signal";
  }

  // `mpirun -n 2 xferbench JOB…`: interrupted once both ranks have their handlers in and ran half
  // a second.
  void run_mpirun_and_interrupt(const std::vector<std::string>& job) {
    const int sig = GetParam();
    xb::test::TempDir dir;
    std::vector<std::string> args{"-n", "2", kBinary};
    args.insert(args.end(), job.begin(), job.end());
    xbtest::Process mpirun = xb::test::start_mpirun(args);
    const auto ranks_catching = [&] {
      int n = 0;
      for (const pid_t q : xbtest::live_descendants(mpirun.pid())) {
        std::ifstream comm("/proc/" + std::to_string(q) + "/comm");
        std::string name;
        if (comm >> name && name == "xferbench" && xbtest::catches_interrupts(q)) ++n;
      }
      return n >= 2;
    };
    ASSERT_TRUE(xbtest::wait_until(ranks_catching, 30s)) << "two ranks with their handlers never came up";
    sample({&mpirun}, 500ms);
    ASSERT_FALSE(mpirun.wait_for(0ms).has_value()) << "the job ended before the signal";
    interrupt(mpirun, sig);
    expect_ended_by_the_interrupt(mpirun, 20s, "mpirun");
    expect_nothing_left(dir);
  }

  // A HIXL pair mid-transfer; the signal to its server (or its client): that side ends within
  // 20 s, the other within 10 s of it.
  void interrupt_one_hixl_side(bool server_side);

  std::set<pid_t> pids_;
};

// An xfer server on port 0 (tests/xfer's start_xfer_server: its ready file in `dir`) that a client
// may take 600 s to reach, and a client far from done: 64 MiB per pass, a hundred thousand passes.
struct XferPair {
  xb::test::StartedServer server;
  xbtest::Process client;
};

XferPair start_xfer_pair(const xb::test::TempDir& dir) {
  xb::test::StartedServer server =
      xb::test::start_xfer_server({}, "127.0.0.1", dir.path(), {"--transport", "tcp", "--wait", "600", "-q"});
  xbtest::Process client =
      xbtest::start_binary(kBinary, {"xfer", "client", "--peer", server.control, "--transport", "tcp", "--block", "1M",
                                     "--total", "64M", "--iters", "100000", "--no-latency", "--wait", "5", "-q"});
  return XferPair{std::move(server), std::move(client)};
}

TEST_P(InterruptMidTransfer, XferClient) {
  xb::test::TempDir dir;
  XferPair pair = start_xfer_pair(dir);
  xbtest::Process& server = pair.server.process;
  ASSERT_NO_FATAL_FAILURE(let_it_transfer(pair.client, {&server, &pair.client}));
  interrupt(pair.client, GetParam());
  expect_ended_by_the_interrupt(pair.client, 20s, "the client");
  // The server lost its client mid-run: it ends (with a failure) or goes on, but does not hang on
  // the dead connection; a SIGTERM then ends it as any server.
  if (!server.wait_for(5s)) {
    server.signal_process(SIGTERM);
    ASSERT_TRUE(server.wait_for(20s).has_value()) << "the server did not end after its client died";
  }
  expect_nothing_left(dir);
}

TEST_P(InterruptMidTransfer, XferServer) {
  xb::test::TempDir dir;
  XferPair pair = start_xfer_pair(dir);
  xbtest::Process& server = pair.server.process;
  ASSERT_NO_FATAL_FAILURE(let_it_transfer(server, {&server, &pair.client}));
  interrupt(server, GetParam());
  expect_ended_by_the_interrupt(server, 20s, "the server");
  // The client's peer is gone: it fails (its --wait is 5 s), never waits for ever.
  expect_ended_by_the_interrupt(pair.client, 30s, "the client");
  expect_nothing_left(dir);
}

// HIXL's benchmark pair over TCP with 1 GiB per block size: the server (engine 1) and the client
// (engine 0) of tests/xfer/hixl_cli_test. Interrupted once the client printed its first block
// size's line (three more to go, about a second each here): mid-transfer, not while it connects
// (a HIXL side then rightly waits out its 20 s for the peer).
struct HixlPair {
  xbtest::Process server, client;
};

HixlPair start_hixl_pair(int port) {
  xbtest::RunOptions options = xbtest::default_options();
  options.env = {"XFERBENCH_HIXL_TOTAL=1G", "XFERBENCH_HIXL_WAIT=20", "XFERBENCH_HIXL_TRANSPORT=tcp"};
  const std::string p = std::to_string(port);
  xbtest::Process server =
      xbtest::start_binary(kBinary, {"hixl", "1", "127.0.0.1:0", "127.0.0.1", p, "h2h", "write", "false"}, options);
  // The client retries its connection until the server listens (HIXL's own wait): start it now.
  xbtest::Process client =
      xbtest::start_binary(kBinary, {"hixl", "0", "127.0.0.1", "127.0.0.1:16000", p, "h2h", "write", "false"}, options);
  return HixlPair{std::move(server), std::move(client)};
}

void InterruptMidTransfer::interrupt_one_hixl_side(bool server_side) {
  xb::test::TempDir dir;
  HixlPair pair = start_hixl_pair(xbtest::free_tcp_port());
  ASSERT_TRUE(pair.client.wait_for_output("Transfer success", 60s)) << "the HIXL client never got going";
  xbtest::Process& target = server_side ? pair.server : pair.client;
  xbtest::Process& other = server_side ? pair.client : pair.server;
  ASSERT_NO_FATAL_FAILURE(let_it_transfer(target, {&pair.server, &pair.client}));
  interrupt(target, GetParam());
  expect_ended_by_the_interrupt(target, 20s, server_side ? "the HIXL server" : "the HIXL client");
  expect_ended_by_the_interrupt(other, 10s, server_side ? "the HIXL client" : "the HIXL server");
  expect_nothing_left(dir);
}

TEST_P(InterruptMidTransfer, HixlClient) {
  // The server sees its control connection close mid-session and ends at once, failing.
  interrupt_one_hixl_side(false);
}

TEST_P(InterruptMidTransfer, HixlServer) {
  // Its peer gone mid-transfer, the client fails at once, not after its 20 s wait.
  interrupt_one_hixl_side(true);
}

// mpirun with two ranks of a long fleet or p2p --mpi run: the signal goes to mpirun (its group for
// SIGINT), which passes it on; every rank must end and leave nothing.
TEST_P(InterruptMidTransfer, FleetUnderMpirun) {
  if (!xb::test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  run_mpirun_and_interrupt({"fleet", "-s", "1M", "--times", "100000000", "--transport", "tcp", "-q"});
}

TEST_P(InterruptMidTransfer, P2pMpiUnderMpirun) {
  if (!xb::test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  run_mpirun_and_interrupt({"p2p", "--mpi", "-s", "1M", "--times", "100000000", "-q"});
}

INSTANTIATE_TEST_SUITE_P(Signals, InterruptMidTransfer, ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& p) { return signal_name(p.param); });

}  // namespace
