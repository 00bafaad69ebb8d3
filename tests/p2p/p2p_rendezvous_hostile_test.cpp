// The two-node rendezvous against strangers (issue 15): rank 0 takes a connection only from the
// --ip address and only once it proved the token, and tells no one else anything (no plan, no
// control address); rank 1 proves nothing to a listener that cannot prove the token. Real nodes:
// two processes of the binary on loopback addresses, a hostile peer on raw sockets.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/unique_fd.hpp"
#include "transport/auth.hpp"
#include "two_nodes.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> node(const std::string& self, const std::string& peer) {
  return {"p2p", "--ip", peer, "--hip", self, "-s", "64K", "--times", "2", "--format", "json", "-q", "--window", "15"};
}

sockaddr_in ipv4(const std::string& host, std::uint16_t port) {
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(port);
  inet_pton(AF_INET, host.c_str(), &sa.sin_addr);
  return sa;
}

// A connection from `from` to `to`:20005, retried until the node listens (at most 10 s).
UniqueFd connect_from(const std::string& from, const std::string& to) {
  const auto until = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < until) {
    UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    const sockaddr_in own = ipv4(from, 0), peer = ipv4(to, 20005);
    if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&own), sizeof own) != 0) return UniqueFd();
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&peer), sizeof peer) == 0) return fd;
    std::this_thread::sleep_for(50ms);
  }
  return UniqueFd();
}

// Everything received until the peer closes or `ms` of silence; `closed` says which.
std::string heard(int fd, int ms, bool& closed) {
  std::string got;
  closed = false;
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, ms) <= 0) return got;
    char buffer[4096];
    const ssize_t r = ::recv(fd, buffer, sizeof buffer, 0);
    if (r <= 0) {
      closed = true;
      return got;
    }
    got.append(buffer, static_cast<std::size_t>(r));
  }
}

// The group's framing: a 4-byte little-endian length, then the bytes.
void send_framed(int fd, const AuthBytes& bytes) {
  std::string out(4, '\0');
  for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((bytes.size() >> (8 * i)) & 0xff);
  out.append(bytes.begin(), bytes.end());
  ASSERT_EQ(::send(fd, out.data(), out.size(), MSG_NOSIGNAL), static_cast<ssize_t>(out.size()));
}

TEST(P2pRendezvousHostile, StrangersLearnNothingAndTheRealPeerStillMeets) {
  // Rank 0 (.51, the lower address) waits for .52 (addresses no other test uses: ctest -j runs them side by side).
  auto rank0 = xbtest::start_binary(XB_BINARY, node("127.0.0.51", "127.0.0.52"));
  bool closed = false;
  {
    // From an address that is not --ip, opening the handshake: closed unanswered (taken for the
    // peer, it would hear rank 0's nonce and proof).
    UniqueFd stranger = connect_from("127.0.0.53", "127.0.0.51");
    ASSERT_TRUE(stranger.valid()) << "rank 0 never listened";
    send_framed(stranger.get(), random_bytes(32));
    EXPECT_EQ(heard(stranger.get(), 4000, closed), "");
    EXPECT_TRUE(closed) << "a connection from another address was kept open";
  }
  {
    // From the right address without the token: rank 0's nonce and proof (two 32-byte messages),
    // then, after a wrong proof, the end: no plan, no control address.
    UniqueFd impostor = connect_from("127.0.0.52", "127.0.0.51");
    ASSERT_TRUE(impostor.valid());
    send_framed(impostor.get(), random_bytes(32));
    std::string got;
    while (got.size() < 72) {
      const std::string more = heard(impostor.get(), 5000, closed);
      if (more.empty()) break;
      got += more;
    }
    EXPECT_EQ(got.size(), 72u);
    send_framed(impostor.get(), random_bytes(32));
    EXPECT_EQ(heard(impostor.get(), 5000, closed), "");
    EXPECT_TRUE(closed);
    EXPECT_EQ(got.find("warm-up"), std::string::npos);
  }
  // The real rank 1 still meets rank 0 within its window, and the run goes through.
  auto rank1 = xbtest::start_binary(XB_BINARY, node("127.0.0.52", "127.0.0.51"));
  const auto r0 = rank0.wait_for(60s), r1 = rank1.wait_for(60s);
  ASSERT_TRUE(r0 && r1) << "a node hung";
  EXPECT_EQ(r0->exit_code, 0) << r0->describe();
  EXPECT_EQ(r1->exit_code, 0) << r1->describe();
}

TEST(P2pRendezvousHostile, RankOneProvesNothingToAListenerWithoutTheToken) {
  // A rogue listens where rank 1 (.36) looks for rank 0 (.35): it answers the nonce with a nonce
  // and a proof it could not make. Rank 1 stops, naming the failure, and sends nothing more.
  UniqueFd listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  const int one = 1;
  ::setsockopt(listener.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  const sockaddr_in at = ipv4("127.0.0.35", 20005);
  ASSERT_EQ(::bind(listener.get(), reinterpret_cast<const sockaddr*>(&at), sizeof at), 0) << errno;
  ASSERT_EQ(::listen(listener.get(), 4), 0);
  auto rank1 = xbtest::start_binary(XB_BINARY, node("127.0.0.36", "127.0.0.35"));
  pollfd p{listener.get(), POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 15000), 1) << "rank 1 never connected";
  UniqueFd conn(::accept(listener.get(), nullptr, nullptr));
  bool closed = false;
  std::string nonce;
  while (nonce.size() < 36) {
    const std::string more = heard(conn.get(), 5000, closed);
    if (more.empty()) break;
    nonce += more;
  }
  EXPECT_EQ(nonce.size(), 36u);  // its nonce, framed
  send_framed(conn.get(), random_bytes(32));
  send_framed(conn.get(), random_bytes(32));
  EXPECT_EQ(heard(conn.get(), 10000, closed), "") << "rank 1 sent something after a wrong proof";
  EXPECT_TRUE(closed);
  const auto r1 = rank1.wait_for(60s);
  ASSERT_TRUE(r1.has_value()) << "rank 1 hung";
  EXPECT_EQ(r1->exit_code, 1) << r1->describe();
  EXPECT_NE(r1->err.find("could not prove it holds the token"), std::string::npos) << r1->err;
}

}  // namespace
}  // namespace xb
