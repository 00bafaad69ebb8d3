// The hostile peer against the session server and a rogue server against the client (issue 15):
// the token never crosses the wire, a client proves nothing to a server that cannot prove the
// token, silent connections cannot lock the real client out, the server takes no connection past
// its wait, the data port admits only the session's ticket, and an authenticated client is held
// to the caps on exposed bytes and regions and learns no server address it does not need.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "hostile_client.hpp"
#include "transport/auth.hpp"
#include "transport/byte_order.hpp"
#include "transport/socket_ops.hpp"
#include "transport/tcp/tcp_transport.hpp"
#include "transport_test_support.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;
using std::chrono::milliseconds;
using test::ServerThread;

SessionOptions hostile_options(std::string token = "s3cret", milliseconds wait = milliseconds(4000)) {
  return test::session_options(std::move(token), wait);
}

bool contains(const std::vector<std::byte>& bytes, const std::string& text) {
  const auto* p = reinterpret_cast<const char*>(bytes.data());
  return std::string_view(p, bytes.size()).find(text) != std::string_view::npos;
}

// A rogue server on a raw socket: accepts one client, reads its hello, answers with a challenge
// made with `token` (right or wrong), and records every byte the client sends until it closes.
class RogueServer {
 public:
  explicit RogueServer(std::string token) : listener_(listen_tcp(SocketAddress{"127.0.0.1", 0}, 4)) {
    address_ = local_address(listener_.get());
    thread_ = std::thread([this, token = std::move(token)] { run(token); });
  }
  ~RogueServer() {
    if (thread_.joinable()) thread_.join();
  }
  const SocketAddress& address() const { return address_; }
  std::vector<std::byte> received() {
    thread_.join();
    return received_;
  }

 private:
  void run(const std::string& token) {
    if (!wait_ready(listener_.get(), POLLIN, deadline_after(10s))) return;
    UniqueFd fd = accept_tcp(listener_.get());
    const int raw = fd.get();
    ControlChannel channel(std::move(fd), "client");
    try {
      const ControlMessage hello = channel.receive(deadline_after(5s));
      PayloadReader reader(hello);
      const AuthBytes client_nonce = reader.bytes();
      AuthServer auth(token, kControlAuthPurpose, client_nonce);
      channel.send(ControlType::challenge, PayloadWriter().bytes(auth.nonce()).bytes(auth.proof()).take(),
                   deadline_after(5s));
      received_ = test::raw_read_all(raw, 5000);  // whatever the client sends after the challenge
    } catch (const std::exception&) {
    }
  }

  UniqueFd listener_;
  SocketAddress address_;
  std::vector<std::byte> received_;
  std::thread thread_;
};

TEST(SessionHostile, AClientProvesNothingToAServerThatCannotProveTheToken) {
  RogueServer rogue("not-the-token");
  auto transport = make_tcp_transport();
  try {
    ClientSession session(*transport, rogue.address(), hostile_options("s3cret"));
    ADD_FAILURE() << "the client accepted a server without the token";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("could not prove it holds the token"), std::string::npos) << e.what();
  }
  // After the hello the client sent nothing at all: no proof, no token.
  EXPECT_TRUE(rogue.received().empty());
}

TEST(SessionHostile, TheTokenNeverCrossesTheWire) {
  // A server that does hold the token receives the client's proof: still not the token itself.
  const std::string token = "the-secret-token-of-this-cluster";
  RogueServer rogue(token);
  auto transport = make_tcp_transport();
  EXPECT_THROW(ClientSession(*transport, rogue.address(), hostile_options(token, milliseconds(1000))), TransportError);  // no welcome comes
  const auto sent = rogue.received();
  ASSERT_FALSE(sent.empty()) << "the client should have sent its proof to a server that proved the token";
  EXPECT_EQ(load_le<std::uint16_t>(sent.data() + 6), static_cast<std::uint16_t>(ControlType::proof));
  EXPECT_FALSE(contains(sent, token));
  EXPECT_FALSE(contains(sent, "the-secret"));
}

TEST(SessionHostile, SilentConnectionsDoNotLockTheRealClientOut) {
  // More silent connections than the server reads at once, each held open: served one after
  // another (a second each), they would outlast the server's wait of 4 s many times over.
  ServerThread server(hostile_options());
  std::vector<int> silent;
  for (int i = 0; i < 40; ++i) silent.push_back(test::raw_connect(server.control()));
  {
    auto transport = make_tcp_transport();
    ClientSession session(*transport, server.control(), hostile_options());
    PeerRegion region = session.expose(4096, RegionPlace::host);
    session.fill(region, 0, 4096, 3);
    EXPECT_FALSE(session.verify(region, 0, 4096, 3).has_value());
    session.finish();
  }
  const auto outcome = server.join();
  for (const int fd : silent) ::close(fd);
  EXPECT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.reports.size(), 1u);
}

TEST(SessionHostile, TheServerTakesNoConnectionPastItsWait) {
  // A stranger that connects again and again with garbage must not keep the server waiting: it
  // gives up when its own wait (1 s) is over, long before the stranger stops (at most 20 s).
  ServerThread server(hostile_options("s3cret", milliseconds(1000)));
  std::atomic<bool> stop{false};
  std::atomic<bool> outlasted{false};
  std::thread stranger([&] {
    const auto until = std::chrono::steady_clock::now() + 20s;
    while (!stop && std::chrono::steady_clock::now() < until) {
      const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_storage sa{};
      const socklen_t len = server.control().to_sockaddr(sa);
      if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), len) == 0) (void)::send(fd, "junk", 4, MSG_NOSIGNAL);
      ::close(fd);
      std::this_thread::sleep_for(20ms);
    }
    outlasted = !stop;
  });
  const auto outcome = server.join();
  stop = true;
  stranger.join();
  EXPECT_FALSE(outlasted) << "the server was still waiting when the stranger gave up";
  EXPECT_NE(outcome.error.find("no xferbench client came"), std::string::npos) << outcome.error;
}

TEST(SessionHostile, TheDataPortAdmitsOnlyTheSessionsTicket) {
  ServerThread server(hostile_options());
  test::HostileClient client(server.control());
  const auto welcome = client.authenticate("s3cret");
  // Strangers reach the data port first: one silent, one with garbage, one with a ticket of
  // another session. None is taken for the session's data connection, none hears a byte.
  const int silent = test::raw_connect(welcome.data);
  const int garbage = test::raw_connect(welcome.data);
  test::raw_send(garbage, "0123456789abcdef0123456789abcdef", 32);
  const int other = test::raw_connect(welcome.data);
  const AuthBytes other_ticket = AuthSession{random_bytes(32)}.data_ticket();
  test::raw_send(other, other_ticket.data(), other_ticket.size());
  EXPECT_TRUE(test::raw_read_all(garbage, 2000).empty());
  EXPECT_TRUE(test::raw_read_all(other, 2000).empty());
  // The real data connection, with the ticket, is admitted: the server says ready.
  auto transport = make_tcp_transport();
  auto endpoint = transport->connect(welcome.data, 5000ms, welcome.session.data_ticket());
  const ControlMessage ready = client.channel().receive(deadline_after(5000ms));
  EXPECT_EQ(ready.type, ControlType::ready);
  EXPECT_EQ(client.request(ControlType::finish, {}).type, ControlType::finished);
  const auto outcome = server.join();
  EXPECT_EQ(outcome.error, "");
  for (const int fd : {silent, garbage, other}) ::close(fd);
}

TEST(SessionHostile, ADataConnectionWithoutTheTicketEndsTheSessionUnserved) {
  // Only a data connection with another session's ticket comes: the session ends at its wait
  // with nothing exposed.
  ServerThread server(hostile_options("s3cret", milliseconds(1500)));
  test::HostileClient client(server.control());
  const auto welcome = client.authenticate("s3cret");
  auto transport = make_tcp_transport();
  const AuthBytes other_ticket = AuthSession{random_bytes(32)}.data_ticket();
  auto endpoint = transport->connect(welcome.data, 5000ms, other_ticket);
  const auto outcome = server.join();
  EXPECT_NE(outcome.error.find("did not open its data connection"), std::string::npos) << outcome.error;
  EXPECT_NE(outcome.error.find("without the session's ticket turned away"), std::string::npos) << outcome.error;
  EXPECT_TRUE(outcome.reports.empty());
}

TEST(SessionHostile, AnAuthenticatedClientIsHeldToTheCaps) {
  SessionOptions o = hostile_options();
  o.caps.max_exposed_bytes = 1 << 20;
  o.caps.max_regions = 3;
  ServerThread server(o);
  {
    auto transport = make_tcp_transport();
    ClientSession session(*transport, server.control(), hostile_options());
    PeerRegion a = session.expose(512 << 10, RegionPlace::host);
    try {
      session.expose(600 << 10, RegionPlace::host);
      ADD_FAILURE() << "a session exposed more than --max-exposed";
    } catch (const TransportError& e) {
      EXPECT_NE(std::string(e.what()).find("at most 1048576 bytes a session (--max-exposed)"), std::string::npos)
          << e.what();
    }
    PeerRegion b = session.expose(4096, RegionPlace::host);
    PeerRegion c = session.expose(4096, RegionPlace::host);
    try {
      session.expose(4096, RegionPlace::host);
      ADD_FAILURE() << "a session held more than --max-regions";
    } catch (const TransportError& e) {
      EXPECT_NE(std::string(e.what()).find("at most 3 regions (--max-regions)"), std::string::npos) << e.what();
    }
    // The session goes on after a refused request; the TCP transport's regions carry no address.
    session.fill(c, 0, 4096, 9);
    EXPECT_FALSE(session.verify(c, 0, 4096, 9).has_value());
    for (const PeerRegion* r : {&a, &b, &c}) EXPECT_EQ(r->remote->address(), 0u);
    session.finish();
  }
  const auto outcome = server.join();
  EXPECT_EQ(outcome.error, "");
  ASSERT_EQ(outcome.reports.size(), 1u);
  EXPECT_EQ(outcome.reports[0].regions, 3u);
  EXPECT_EQ(outcome.reports[0].exposed_bytes, (512u << 10) + 8192u);
}

TEST(SessionHostile, ForgedRegionIdsAfterTheHandshakeLearnNothingAboutOthers) {
  // An authenticated client naming regions it was not given is told the same for each: no region.
  ServerThread server(hostile_options());
  test::HostileClient client(server.control());
  const auto welcome = client.authenticate("s3cret");
  auto transport = make_tcp_transport();
  auto endpoint = transport->connect(welcome.data, 5000ms, welcome.session.data_ticket());
  ASSERT_EQ(client.channel().receive(deadline_after(5000ms)).type, ControlType::ready);
  for (const std::uint32_t id : {0u, 1u, 2u, 0xffffffffu}) {
    const ControlMessage reply =
        client.request(ControlType::verify, PayloadWriter().u32(id).u64(0).u64(16).u64(1).take());
    ASSERT_EQ(reply.type, ControlType::failed);
    PayloadReader reader(reply);
    reader.u8();
    EXPECT_EQ(reader.text(), "no region " + std::to_string(id));
  }
  EXPECT_EQ(client.request(ControlType::finish, {}).type, ControlType::finished);
  EXPECT_EQ(server.join().error, "");
}

}  // namespace
}  // namespace xb
