// What reaches the control port before (and instead of) a proper client: wrong proofs, garbage,
// bad frames, silence. Each costs that connection only: the server logs one line naming the peer
// and the reason, and then serves a good client. A client that breaks the protocol after the
// handshake ends serve_one() with an error naming it. The hostile client of hostile_client.hpp
// speaks the protocol step by step.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>

#include "transport/byte_order.hpp"
#include "transport/control_channel.hpp"
#include "transport/control_messages.hpp"
#include "transport/socket_ops.hpp"
#include "transport/tcp/tcp_transport.hpp"
#include "hostile_client.hpp"
#include "transport/auth.hpp"
#include "transport_test_support.hpp"

namespace xb {
namespace {

using std::chrono::milliseconds;
using test::ServerThread;

SessionOptions handshake_options(std::string token = "s3cret", milliseconds wait = milliseconds(4000)) {
  return test::session_options(std::move(token), wait);
}

std::vector<std::byte> frame(std::uint32_t magic, std::uint16_t version, std::uint16_t type, std::uint32_t length,
                             const std::vector<std::byte>& payload) {
  std::vector<std::byte> f(kControlHeaderBytes);
  store_le<std::uint32_t>(f.data(), magic);
  store_le<std::uint16_t>(f.data() + 4, version);
  store_le<std::uint16_t>(f.data() + 6, type);
  store_le<std::uint32_t>(f.data() + 8, length);
  for (const std::byte b : payload) f.push_back(b);  // (insert of an empty range trips GCC 12's -Warray-bounds)
  return f;
}

std::vector<std::byte> hello(const std::vector<std::uint8_t>& nonce) {
  const auto payload = PayloadWriter().bytes(nonce).take();
  return frame(kControlMagic, kControlVersion, 1, static_cast<std::uint32_t>(payload.size()), payload);
}

// A good client's whole session; returns what went wrong, empty when nothing.
std::string good_client(const SocketAddress& control) {
  try {
    auto transport = make_tcp_transport();
    ClientSession session(*transport, control, handshake_options());
    PeerRegion region = session.expose(8192, RegionPlace::host);
    session.fill(region, 0, 8192, 5);
    if (session.verify(region, 0, 8192, 5)) return "verify failed";
    session.finish();
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

struct BadOpening {
  const char* name;
  std::vector<std::byte> bytes;  // sent on connecting
  bool close_after;              // end the stream after them (else stay silent, connection open)
  const char* logged;            // the reason the server's log line must give
};

std::vector<std::byte> text_bytes(const std::string& s) {
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  return std::vector<std::byte>(p, p + s.size());
}

class BadOpeningTest : public ::testing::TestWithParam<BadOpening> {};

TEST_P(BadOpeningTest, IsClosedAndLoggedThenAGoodClientIsServed) {
  const BadOpening& c = GetParam();
  ServerThread server(handshake_options());
  const int fd = test::raw_connect(server.control());
  const std::string bad_peer = local_address(fd).to_string();
  if (!c.bytes.empty()) test::raw_send(fd, c.bytes.data(), c.bytes.size());
  if (c.close_after) ::shutdown(fd, SHUT_WR);
  // The most a bad connection gets is the challenge (a nonce and a proof bound to its own nonce).
  const auto reply = test::raw_read_all(fd, 10000);
  ::close(fd);
  EXPECT_LE(reply.size(), kControlHeaderBytes + 4 + 32 + 4 + 32);

  EXPECT_EQ(good_client(server.control()), "");
  const auto outcome = server.join();
  EXPECT_EQ(outcome.error, "");
  ASSERT_EQ(outcome.reports.size(), 1u);
  EXPECT_NE(outcome.reports[0].client, bad_peer);
  EXPECT_NE(outcome.log.find("closed control connection from " + bad_peer + ": "), std::string::npos) << outcome.log;
  EXPECT_NE(outcome.log.find(c.logged), std::string::npos) << outcome.log;
  EXPECT_EQ(std::count(outcome.log.begin(), outcome.log.end(), '\n'), 1) << outcome.log;
}

INSTANTIATE_TEST_SUITE_P(
    Session, BadOpeningTest,
    ::testing::Values(
        BadOpening{"garbage", text_bytes("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), true, "wrong magic"},
        BadOpening{"wrong_version", frame(kControlMagic, 7, 1, 0, {}), true, "version 7"},
        BadOpening{"oversize_length", frame(kControlMagic, kControlVersion, 1, 1u << 30, {}), false, "at most 65536"},
        BadOpening{"truncated_frame", frame(kControlMagic, kControlVersion, 1, 200, text_bytes("half")), true,
                   "truncated"},
        BadOpening{"half_a_header", text_bytes("XBT"), true, "truncated"},
        BadOpening{"silent", {}, false, "sent nothing in time"},
        BadOpening{"stalls_mid_frame", frame(kControlMagic, kControlVersion, 1, 200, text_bytes("half")), false,
                   "middle of a message"},
        BadOpening{"request_before_hello", frame(kControlMagic, kControlVersion, 4, 0, {}), true,
                   "'expose' before the handshake"},
        BadOpening{"lying_hello", frame(kControlMagic, kControlVersion, 1, 4, PayloadWriter().u32(9999).take()), true,
                   "truncated"},
        BadOpening{"short_nonce", hello(std::vector<std::uint8_t>(5, 1)), true, "a hello with a 5-byte nonce"},
        BadOpening{"no_proof_after_the_hello", hello(std::vector<std::uint8_t>(32, 7)), false,
                   "sent no proof in time"},
        BadOpening{"proof_instead_of_hello",
                   frame(kControlMagic, kControlVersion, 15, 0, {}), true, "'proof' before the handshake"},
        BadOpening{"trailing_bytes_in_hello",
                   frame(kControlMagic, kControlVersion, 1, 37,
                         PayloadWriter().bytes(std::vector<std::uint8_t>(32, 7)).u8(0).take()),
                   true, "trailing"},
        BadOpening{"closes_at_once", {}, true, "closed the connection"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// What a hand-made client's proof can be, and what the server must log for it.
struct BadProof {
  const char* name;
  test::ProofKind kind;
  const char* token;      // for made_with_token
  const char* transport;  // the proof message's transport name
  const char* logged;
};

class BadProofTest : public ::testing::TestWithParam<BadProof> {};

TEST_P(BadProofTest, IsRefusedWithoutStateAndAGoodClientIsServed) {
  const BadProof& c = GetParam();
  ServerThread server(handshake_options());
  {
    test::HostileClient client(server.control());
    const test::Challenge challenge = client.hello();
    ASSERT_TRUE(challenge.arrived) << challenge.error;
    const ControlMessage reply = client.prove(c.kind, c.token, c.transport);
    ASSERT_EQ(reply.type, ControlType::refused);
    PayloadReader reader(reply);
    const auto kind = reader.u8();
    const std::string told = reader.text();
    reader.end();
    if (std::string(c.transport) == "tcp") {
      // A wrong proof is told "refused" and nothing else: no transport, no address, no state.
      EXPECT_EQ(kind, 1);
      EXPECT_EQ(told, "");
    } else {
      EXPECT_EQ(kind, 2);  // a client that proved the token may learn the transport
      EXPECT_NE(told.find("tcp"), std::string::npos);
    }
    EXPECT_TRUE(client.closed_by_server()) << "the connection stays open after a refusal";
  }
  EXPECT_EQ(good_client(server.control()), "");
  const auto outcome = server.join();
  EXPECT_EQ(outcome.error, "");
  EXPECT_NE(outcome.log.find(c.logged), std::string::npos) << outcome.log;
  EXPECT_EQ(std::count(outcome.log.begin(), outcome.log.end(), '\n'), 1) << outcome.log;
}

INSTANTIATE_TEST_SUITE_P(
    Session, BadProofTest,
    ::testing::Values(BadProof{"wrong_token", test::ProofKind::made_with_token, "guess", "tcp", "wrong token"},
                      BadProof{"longer_token", test::ProofKind::made_with_token, "s3cret-and-more", "tcp", "wrong token"},
                      BadProof{"empty_proof", test::ProofKind::empty, "", "tcp", "wrong token"},
                      BadProof{"random_proof", test::ProofKind::random, "", "tcp", "wrong token"},
                      // The server's own proof sent back: the roles' labels differ, so it proves nothing.
                      BadProof{"reflected_server_proof", test::ProofKind::reflected, "", "tcp", "wrong token"},
                      BadProof{"other_transport", test::ProofKind::made_with_token, "s3cret", "ucx",
                               "the client uses transport ucx, this server tcp"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(Session, WrongTokenIsRefusedClearlyAndTheServerServesTheNextClient) {
  ServerThread server(handshake_options());
  auto transport = make_tcp_transport();
  try {
    ClientSession session(*transport, server.control(), handshake_options("not-the-token"));
    ADD_FAILURE() << "a wrong token was accepted";
  } catch (const TransportError& e) {
    // The client finds the server's proof wrong first and proves nothing to it.
    const std::string what = e.what();
    EXPECT_NE(what.find("the xferbench server at " + server.control().to_string() +
                        " could not prove it holds the token"),
              std::string::npos)
        << what;
  }
  EXPECT_EQ(good_client(server.control()), "");
  const auto outcome = server.join();
  EXPECT_EQ(outcome.error, "");
  EXPECT_NE(outcome.log.find("closed control connection from"), std::string::npos) << outcome.log;
}

TEST(Session, NothingAboutRegionsOrAddressesBeforeTheToken) {
  ServerThread server(handshake_options());
  const int fd = test::raw_connect(server.control());
  const auto request = hello(random_bytes(32));
  test::raw_send(fd, request.data(), request.size());
  // The first reply: the challenge, a nonce and a proof of 32 bytes each, nothing else.
  std::vector<std::byte> reply(kControlHeaderBytes + 4 + 32 + 4 + 32);
  std::size_t got = 0;
  while (got < reply.size()) {
    const ssize_t r = ::recv(fd, reply.data() + got, reply.size() - got, 0);
    ASSERT_GT(r, 0) << "the challenge did not come whole";
    got += static_cast<std::size_t>(r);
  }
  EXPECT_EQ(load_le<std::uint16_t>(reply.data() + 6), static_cast<std::uint16_t>(ControlType::challenge));
  EXPECT_EQ(load_le<std::uint32_t>(reply.data() + 8), 72u);
  // A wrong proof: the one reply is "refused", kind token, no text; no port, no key, no address.
  const auto proof = PayloadWriter().bytes(random_bytes(32)).text("tcp").text("").take();
  const auto framed = frame(kControlMagic, kControlVersion, 15, static_cast<std::uint32_t>(proof.size()), proof);
  test::raw_send(fd, framed.data(), framed.size());
  const auto refusal = test::raw_read_all(fd, 10000);
  ::close(fd);
  ASSERT_EQ(refusal.size(), kControlHeaderBytes + 1 + 4);
  EXPECT_EQ(load_le<std::uint16_t>(refusal.data() + 6), static_cast<std::uint16_t>(ControlType::refused));
  EXPECT_EQ(std::to_integer<int>(refusal[kControlHeaderBytes]), 1);
  EXPECT_EQ(good_client(server.control()), "");
  EXPECT_EQ(server.join().error, "");
}

TEST(Session, AClientBreakingTheProtocolAfterTheHandshakeIsNamed) {
  ServerThread server(handshake_options());
  // A hand-made client: a proper handshake and data connection, then an unknown request.
  test::HostileClient client(server.control());
  const std::string me = client.local();
  const auto welcome = client.authenticate("s3cret");
  ControlChannel& channel = client.channel();
  auto transport = make_tcp_transport();
  auto endpoint = transport->connect(welcome.data, milliseconds(5000), welcome.session.data_ticket());
  ASSERT_EQ(channel.receive(deadline_after(milliseconds(5000))).type, ControlType::ready);
  channel.send(ControlType::welcome, {}, deadline_after(milliseconds(5000)));  // not a client's message
  const auto outcome = server.join();
  EXPECT_NE(outcome.error.find("client " + me + " broke the control protocol"), std::string::npos) << outcome.error;
}

TEST(Session, AnAuthenticatedClientThatGoesSilentMidMessageIsNamed) {
  // The default wait: the server gives a hello a quarter of it, and with 600 ms a test thread
  // stalled 150 ms by a loaded machine was refused as silent before the message this is about.
  ServerThread server(handshake_options("s3cret", milliseconds(4000)));
  test::HostileClient client(server.control());
  const std::string me = client.local();
  const auto welcome = client.authenticate("s3cret");
  ControlChannel& channel = client.channel();
  const int raw = channel.fd();
  auto transport = make_tcp_transport();
  auto endpoint = transport->connect(welcome.data, milliseconds(5000), welcome.session.data_ticket());
  ASSERT_EQ(channel.receive(deadline_after(milliseconds(5000))).type, ControlType::ready);
  const auto partial = frame(kControlMagic, kControlVersion, 4, 9, {});  // an expose whose payload never comes
  test::raw_send(raw, partial.data(), partial.size());
  const auto outcome = server.join();
  EXPECT_NE(outcome.error.find("client " + me), std::string::npos) << outcome.error;
  EXPECT_NE(outcome.error.find("middle of a message"), std::string::npos) << outcome.error;
}

}  // namespace
}  // namespace xb
