// Bad input to `xferbench xfer` and `xferbench hixl` through the real binary: exit 2, one line on
// stderr naming the flag or argument, nothing on stdout, nothing created, and no connection made
// (a listening socket the test holds at the --peer address sees none).
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "support/temp_dir.hpp"
#include "xfer_processes.hpp"

namespace xb {
namespace {

// A listening socket on 127.0.0.1: a client that connected to it shows as a pending connection.
class Listening {
 public:
  Listening() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd_, 8) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      ADD_FAILURE() << "cannot listen on 127.0.0.1";
    }
    port_ = ntohs(a.sin_port);
  }
  ~Listening() {
    if (fd_ >= 0) close(fd_);
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::uint16_t port() const { return port_; }
  bool connected() const {
    const int c = accept(fd_, nullptr, nullptr);
    if (c < 0) return false;
    close(c);
    return true;
  }

 private:
  int fd_ = -1;
  std::uint16_t port_ = 0;
};

struct BadCase {
  std::vector<std::string> args;  // after the program name
  std::string names;              // what the one line must name
};

void expect_refused(const std::string& program, const BadCase& c, const test::TempDir& dir, const Listening& peer) {
  const auto r = xbtest::run_binary(program, c.args);
  std::string shown;
  for (const auto& a : c.args) shown += a + " ";
  EXPECT_TRUE(r.exited && r.exit_code == 2) << shown << r.describe();
  EXPECT_TRUE(test::is_one_line(r.err)) << shown << "stderr: " << r.err;
  EXPECT_NE(r.err.find(c.names), std::string::npos) << shown << "stderr: " << r.err;
  EXPECT_EQ(r.out, "") << shown;
  EXPECT_TRUE(dir.entries().empty()) << shown;
  EXPECT_FALSE(peer.connected()) << shown << "connected before refusing its input";
}

TEST(XferBadInput, ExitTwoOneLineNamingTheFlagNothingConnected) {
  test::TempDir dir;
  Listening peer;
  const std::string p = peer.address();
  const std::string out = (dir.path() / "result.json").string();
  const std::string ready = (dir.path() / "ready").string();
  const std::vector<BadCase> cases = {
      {{"xfer"}, "server or client"},
      {{"xfer", "peer"}, "xfer peer"},
      {{"xfer", "client"}, "--peer"},
      {{"xfer", "client", "--peer", "127.0.0.1:99999", "-o", out}, "--peer"},
      {{"xfer", "client", "--peer", "127.0.0.1:port", "-o", out}, "--peer"},
      {{"xfer", "client", "--peer", "127.0.0.1:", "-o", out}, "--peer"},
      {{"xfer", "client", "--peer", p, "--mode", "d2x", "-o", out}, "--mode d2x"},
      {{"xfer", "client", "--peer", p, "--op", "copy", "-o", out}, "--op copy"},
      {{"xfer", "client", "--peer", p, "--block", "16M", "--total", "8M", "-o", out}, "--block 16M: larger than --total 8M"},
      {{"xfer", "client", "--peer", p, "--block", "8M:1M", "-o", out}, "--block"},
      {{"xfer", "client", "--peer", p, "--block", "1M,,2M", "-o", out}, "--block"},
      {{"xfer", "client", "--peer", p, "--total", "0", "-o", out}, "--total"},
      {{"xfer", "client", "--peer", p, "--transport", "rdma", "-o", out}, "--transport rdma"},
      {{"xfer", "client", "--peer", p, "--wait", "0", "-o", out}, "--wait"},
      {{"xfer", "client", "--peer", p, "--iters", "0", "-o", out}, "--iters"},
      {{"xfer", "client", "--peer", p, "--pool", "--pool-chunk", "0", "-o", out}, "--pool-chunk"},
      {{"xfer", "client", "--peer", p, "--device", "-1", "-o", out}, "--device"},
      {{"xfer", "client", "--peer", p, "--listen", "127.0.0.1:0", "-o", out}, "--listen"},
      {{"xfer", "client", "--peer", p, "--format", "xml"}, "--format"},
      {{"xfer", "client", "--peer", p, "--output", (dir.path() / "no" / "r.json").string()}, "--output"},
      {{"xfer", "server", "--listen", "127.0.0.1:70000", "--ready-file", ready}, "--listen"},
      {{"xfer", "server", "--listen", "127.0.0.1:0", "--data-port", "x", "--ready-file", ready}, "--data-port"},
      {{"xfer", "server", "--listen", "127.0.0.1:0", "--mode", "d2d", "--ready-file", ready}, "--mode"},
      {{"xfer", "server", "--listen", "127.0.0.1:0", "--verify", "--ready-file", ready}, "--verify"},
      {{"xfer", "server", "--listen", "127.0.0.1:0", "--ready-file", (dir.path() / "no" / "ready").string()},
       "--ready-file"},
      {{"xfer", "server", "--listen", "127.0.0.1:0", "--transport", "rdma", "--ready-file", ready}, "--transport"},
  };
  for (const auto& c : cases) expect_refused(XB_BINARY, c, dir, peer);
}

TEST(XferBadInput, HixlArgumentsByTheirHixlNamesThroughBothSpellings) {
  test::TempDir dir;
  Listening peer;
  const std::string port = std::to_string(peer.port());
  const std::vector<std::vector<std::string>> shapes = {{"hixl"}, {}};  // `xferbench hixl …` and the `hixl` link
  const std::vector<BadCase> cases = {
      {{"0", "127.0.0.1", "127.0.0.1:16000", port, "d2d", "write"}, "expected 7 arguments"},
      {{"x", "127.0.0.1", "127.0.0.1:16000", port, "d2d", "write", "false"}, "device_id"},
      {{"0", "127.0.0.1", "127.0.0.1", port, "d2d", "write", "false"}, "local_engine"},
      {{"0", "127.0.0.1", "127.0.0.1:16000", "0", "d2d", "write", "false"}, "tcp_port"},
      {{"0", "127.0.0.1", "127.0.0.1:16000", port, "dd", "write", "false"}, "transfer_mode dd"},
      {{"0", "127.0.0.1", "127.0.0.1:16000", port, "d2d", "put", "false"}, "transfer_op put"},
      {{"0", "127.0.0.1", "127.0.0.1:16000", port, "d2d", "write", "1"}, "use_buffer_pool"},
  };
  for (const auto& shape : shapes) {
    for (const auto& c : cases) {
      BadCase full{shape, c.names};
      full.args.insert(full.args.end(), c.args.begin(), c.args.end());
      expect_refused(shape.empty() ? XB_HIXL_LINK : XB_BINARY, full, dir, peer);
    }
  }
}

}  // namespace
}  // namespace xb
