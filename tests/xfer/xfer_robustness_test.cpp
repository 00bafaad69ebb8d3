// What the xfer command does when the other side misbehaves, through the real binary: a peer
// killed mid-transfer, a wrong token, garbage on the control port, no peer at all. The other side
// must exit non-zero with a clear message within its --wait, never hang (the generous bounds below
// catch a hang; they are not timings).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.hpp"
#include "transport/transport.hpp"
#include "xfer_processes.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

constexpr auto kHangBound = std::chrono::seconds(60);  // far beyond any --wait used here

using test::has_transport;

// A client that keeps moving data for minutes unless something stops it.
std::vector<std::string> long_client(const std::string& transport, const std::string& peer, const std::string& wait) {
  return {XB_BINARY, "xfer",    "client", "--peer",   peer, "--transport", transport, "--block", "1M",
          "--total", "32M",     "--iters", "1000000", "--warmup", "0", "--no-latency", "--wait", wait,
          "--quiet"};
}

class XferRobustness : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!has_transport(GetParam())) GTEST_SKIP() << GetParam() << " is not built here";
  }
  const std::string& transport() const { return GetParam(); }
};

void expect_clear_failure(const std::optional<xbtest::RunResult>& r, const std::string& who) {
  ASSERT_TRUE(r.has_value()) << who << " did not end: it hangs";
  EXPECT_TRUE(r->exited && r->exit_code == 1) << who << ": " << r->describe();
  EXPECT_NE(r->err.find("error"), std::string::npos) << who << ": " << r->err;
  EXPECT_GT(r->err.size(), 20u) << who << ": " << r->err;
}

TEST_P(XferRobustness, ServerKilledMidTransferClientFailsWithinItsWait) {
  test::TempDir dir;
  auto server = test::start_xfer_server({}, "127.0.0.1", dir.path(), {"--transport", transport(), "--quiet"});
  auto client = test::start_in({}, long_client(transport(), server.control, "5"));
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // connected and moving data by now
  ASSERT_FALSE(client.wait_for(std::chrono::milliseconds(0)).has_value()) << "the client ended before the kill";
  server.process.signal_group(SIGKILL);
  expect_clear_failure(client.wait_for(kHangBound), "client");
}

TEST_P(XferRobustness, ClientKilledMidTransferServerFailsWithinItsWait) {
  test::TempDir dir;
  auto server =
      test::start_xfer_server({}, "127.0.0.1", dir.path(), {"--transport", transport(), "--wait", "5", "--quiet"});
  auto client = test::start_in({}, long_client(transport(), server.control, "20"));
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ASSERT_FALSE(client.wait_for(std::chrono::milliseconds(0)).has_value()) << "the client ended before the kill";
  client.signal_group(SIGKILL);
  expect_clear_failure(server.process.wait_for(kHangBound), "server");
}

TEST_P(XferRobustness, WrongTokenRefusedThenTheRightOneServed) {
  test::TempDir dir;
  auto server = test::start_xfer_server({}, "127.0.0.1", dir.path(),
                                        {"--transport", transport(), "--token", "right", "--wait", "20", "--quiet"});
  const std::vector<std::string> base{XB_BINARY, "xfer",    "client", "--peer", server.control, "--transport",
                                      transport(), "--block", "1M",     "--total", "2M",        "--wait",
                                      "3",        "--format", "json"};
  auto wrong = base;
  wrong.insert(wrong.end(), {"--token", "wrong"});
  const auto refused = test::run_in({}, wrong);
  EXPECT_TRUE(refused.exited && refused.exit_code == 1) << refused.describe();
  EXPECT_NE(refused.err.find("token"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.out, "");

  auto right = base;
  right.insert(right.end(), {"--token", "right", "--verify"});
  const auto served = test::run_in({}, right);
  EXPECT_TRUE(served.exited && served.exit_code == 0) << served.describe();
  const auto end = server.process.wait_for(kHangBound);
  ASSERT_TRUE(end.has_value());
  EXPECT_TRUE(end->exited && end->exit_code == 0) << end->describe();
}

TEST_P(XferRobustness, AClientAskingPastTheServersCapIsToldWhichFlag) {
  // --max-exposed reaches the session: a client asking for 8 MiB from a server capped at 1 MiB
  // fails naming the cap; the server's session ends with that client.
  test::TempDir dir;
  auto server = test::start_xfer_server({}, "127.0.0.1", dir.path(),
                                        {"--transport", transport(), "--max-exposed", "1M", "--wait", "20", "--quiet"});
  const auto client = test::run_in({}, {XB_BINARY, "xfer", "client", "--peer", server.control, "--transport",
                                        transport(), "--block", "4M", "--total", "8M", "--wait", "5", "--quiet"});
  EXPECT_TRUE(client.exited && client.exit_code == 1) << client.describe();
  EXPECT_NE(client.err.find("at most 1048576 bytes a session (--max-exposed)"), std::string::npos) << client.err;
  const auto end = server.process.wait_for(kHangBound);
  ASSERT_TRUE(end.has_value()) << "the server hangs";
}

TEST_P(XferRobustness, BothSidesTakeTheTokenFromAFile) {
  // --token-file on both sides: the token appears on no command line; a client with another
  // token is refused, the one with the file is served.
  test::TempDir dir;
  const auto file = dir.path() / "xb.token";
  std::ofstream(file) << "token-kept-in-a-file\n";
  std::filesystem::permissions(file, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  auto server = test::start_xfer_server({}, "127.0.0.1", dir.path(),
                                        {"--transport", transport(), "--token-file", file.string(), "--wait", "20",
                                         "--quiet"});
  const std::vector<std::string> base{XB_BINARY, "xfer",     "client", "--peer", server.control, "--transport",
                                      transport(), "--block", "1M",     "--total", "2M",        "--wait",
                                      "3",        "--quiet"};
  auto wrong = base;
  wrong.insert(wrong.end(), {"--token", "token-kept-in-a-fil"});
  const auto refused = test::run_in({}, wrong);
  EXPECT_TRUE(refused.exited && refused.exit_code == 1) << refused.describe();
  auto right = base;
  right.insert(right.end(), {"--token-file", file.string()});
  const auto served = test::run_in({}, right);
  EXPECT_TRUE(served.exited && served.exit_code == 0) << served.describe();
  const auto end = server.process.wait_for(kHangBound);
  ASSERT_TRUE(end.has_value());
  EXPECT_TRUE(end->exited && end->exit_code == 0) << end->describe();
}

// Connects to HOST:PORT, sends `bytes`, closes.
void send_garbage(const std::string& control, const std::string& bytes) {
  const auto colon = control.rfind(':');
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(std::stoi(control.substr(colon + 1))));
  inet_pton(AF_INET, control.substr(0, colon).c_str(), &a.sin_addr);
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0) << control;
  EXPECT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  close(fd);
}

TEST_P(XferRobustness, GarbageOnTheControlPortThenAGoodClientStillWorks) {
  test::TempDir dir;
  auto server = test::start_xfer_server({}, "127.0.0.1", dir.path(), {"--transport", transport(), "--wait", "20"});
  send_garbage(server.control, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  send_garbage(server.control, std::string(70000, '\xff'));
  send_garbage(server.control, "");  // connect and hang up
  const auto good = test::run_in({}, {XB_BINARY, "xfer", "client", "--peer", server.control, "--transport", transport(),
                                      "--block", "1M", "--total", "2M", "--verify", "--format", "json"});
  EXPECT_TRUE(good.exited && good.exit_code == 0) << good.describe();
  const auto end = server.process.wait_for(kHangBound);
  ASSERT_TRUE(end.has_value());
  EXPECT_TRUE(end->exited && end->exit_code == 0) << end->describe();
  EXPECT_FALSE(end->err.empty()) << "the refused connections are reported on stderr";
}

TEST_P(XferRobustness, ServerWithNoClientTimesOut) {
  test::TempDir dir;
  auto server = test::start_xfer_server({}, "127.0.0.1", dir.path(), {"--transport", transport(), "--wait", "1"});
  expect_clear_failure(server.process.wait_for(kHangBound), "server");
  EXPECT_TRUE(dir.entries().empty()) << "the ready file is removed when the server ends";
}

TEST_P(XferRobustness, ClientWithNoServerTimesOut) {
  const std::string peer = "127.0.0.1:" + std::to_string(test::free_tcp_port());
  auto client = test::start_in({}, {XB_BINARY, "xfer", "client", "--peer", peer, "--transport", transport(), "--wait",
                                    "1", "--block", "1M", "--total", "1M"});
  const auto r = client.wait_for(kHangBound);
  expect_clear_failure(r, "client");
  if (r) {
    EXPECT_NE(r->err.find(peer), std::string::npos) << "names the server it waited for: " << r->err;
  }
}

std::string transport_name(const ::testing::TestParamInfo<std::string>& param) { return param.param; }

INSTANTIATE_TEST_SUITE_P(BothTransports, XferRobustness, ::testing::Values("tcp", "ucx"), transport_name);

}  // namespace
}  // namespace xb
