#include "hostile_client.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <stdexcept>

#include "transport/socket_ops.hpp"

namespace xb::test {
namespace {
constexpr std::chrono::milliseconds kStep{5000};
}

HostileClient::HostileClient(const SocketAddress& control) {
  std::string why;
  auto fd = connect_tcp(control, deadline_after(kStep), why);
  if (!fd) throw std::runtime_error("HostileClient: no server at " + control.to_string() + ": " + why);
  channel_ = std::make_unique<ControlChannel>(std::move(*fd), control.to_string());
}

std::string HostileClient::local() const { return local_address(channel_->fd()).to_string(); }

Challenge HostileClient::hello() {
  nonce_ = random_bytes(kAuthNonceBytes);
  try {
    channel_->send(ControlType::hello, PayloadWriter().bytes(nonce_).take(), deadline_after(kStep));
    const ControlMessage reply = channel_->receive(deadline_after(kStep));
    if (reply.type != ControlType::challenge) {
      challenge_.error = std::string("a ") + to_string(reply.type) + " message instead of the challenge";
      return challenge_;
    }
    PayloadReader reader(reply);
    challenge_.server_nonce = reader.bytes();
    challenge_.server_proof = reader.bytes();
    reader.end();
    challenge_.arrived = true;
  } catch (const std::exception& e) {
    challenge_.error = e.what();
  }
  return challenge_;
}

ControlMessage HostileClient::prove(ProofKind kind, const std::string& token, const std::string& transport) {
  AuthBytes proof;
  switch (kind) {
    case ProofKind::made_with_token:
      proof = auth_mac(token, AuthRole::client, kControlAuthPurpose, nonce_, challenge_.server_nonce);
      break;
    case ProofKind::empty: break;
    case ProofKind::random: proof = random_bytes(kAuthMacBytes); break;
    case ProofKind::reflected: proof = challenge_.server_proof; break;
  }
  channel_->send(ControlType::proof, PayloadWriter().bytes(proof).text(transport).text("").take(),
                 deadline_after(kStep));
  return channel_->receive(deadline_after(kStep));
}

HostileClient::Welcome HostileClient::authenticate(const std::string& token, const std::string& transport) {
  const Challenge c = hello();
  if (!c.arrived) throw std::runtime_error("HostileClient: no challenge: " + c.error);
  const ControlMessage reply = prove(ProofKind::made_with_token, token, transport);
  if (reply.type != ControlType::welcome) throw std::runtime_error(std::string("HostileClient: ") + to_string(reply.type));
  PayloadReader reader(reply);
  Welcome w;
  w.data.host = reader.text();
  w.data.port = static_cast<std::uint16_t>(reader.u32());
  reader.end();
  w.session = AuthSession{auth_mac(token, AuthRole::session, kControlAuthPurpose, nonce_, challenge_.server_nonce)};
  return w;
}

ControlMessage HostileClient::request(ControlType type, const std::vector<std::byte>& payload) {
  channel_->send(type, payload, deadline_after(kStep));
  return channel_->receive(deadline_after(kStep));
}

bool HostileClient::closed_by_server() {
  const Deadline deadline = deadline_after(kStep);
  for (;;) {
    char byte;
    const ssize_t r = ::recv(channel_->fd(), &byte, 1, MSG_DONTWAIT);
    if (r == 0) return true;
    if (r < 0 && errno == ECONNRESET) return true;
    if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return false;
    if (r < 0 && !wait_ready(channel_->fd(), POLLIN, deadline)) return false;
  }
}

}  // namespace xb::test
