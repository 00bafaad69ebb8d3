#pragma once
// A hostile peer for the suite (issue 15, item 8): a small client that speaks the control protocol
// step by step, so a test can do what no xferbench client would: prove with a wrong token, an
// empty, random or reflected proof, stop halfway, ask for more memory or regions than allowed,
// name regions it was never given, race the real client to the data port. Each test asserts the
// server's refusal and that no secret or memory left it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "transport/address.hpp"
#include "transport/auth.hpp"
#include "transport/control_channel.hpp"
#include "transport/control_messages.hpp"

namespace xb::test {

enum class ProofKind {
  made_with_token,  // HMAC with the token given to prove() (right or wrong)
  empty,            // no bytes
  random,           // 32 random bytes
  reflected,        // the server's own proof sent back as the client's
};

struct Challenge {
  bool arrived = false;
  std::string error;  // why not, when it did not
  AuthBytes server_nonce, server_proof;
};

class HostileClient {
 public:
  explicit HostileClient(const SocketAddress& control);
  // This end's address (what the server's log names).
  std::string local() const;
  // Sends a fresh nonce in a hello and reads the server's challenge.
  Challenge hello();
  // Sends a proof of `kind` (after hello()) and returns the server's reply.
  ControlMessage prove(ProofKind kind, const std::string& token, const std::string& transport);
  // The whole handshake with `token`: where the server said the data connection goes, and the
  // session both sides derived (whose data ticket admits that connection). Throws on a refusal.
  struct Welcome {
    SocketAddress data;
    AuthSession session;
  };
  Welcome authenticate(const std::string& token, const std::string& transport = "tcp");
  // One request and its reply.
  ControlMessage request(ControlType type, const std::vector<std::byte>& payload);
  ControlChannel& channel() { return *channel_; }
  // Whether the server closed the connection (end of stream within a few seconds, after any
  // bytes still in flight).
  bool closed_by_server();

 private:
  std::unique_ptr<ControlChannel> channel_;
  AuthBytes nonce_;
  Challenge challenge_;
};

}  // namespace xb::test
