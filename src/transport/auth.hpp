#pragma once
// Mutual challenge–response over a shared token, so the token itself never crosses the wire
// (OpenSSH's rule: no secret to an unauthenticated peer). Each side draws a fresh 32-byte nonce;
// each proves it holds the token with HMAC-SHA-256(token, label ‖ purpose ‖ client nonce ‖ server
// nonce), the label telling the two roles apart so one side's proof is never the other's. Both
// then derive a session key from the same nonces, from which the data connection's ticket comes
// (session.hpp): a peer that saw every byte of the handshake can compute neither. HMAC, the
// random bytes and the constant-time comparison are OpenSSL's (libcrypto).
//
// Order on a control connection: the client sends its nonce; the server answers with its nonce
// and its proof; the client checks that proof before it sends its own. A client therefore proves
// nothing to a server that does not hold the token, and a server tells an unauthenticated client
// nothing but its nonce and a proof bound to that client's nonce.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xb {

inline constexpr std::size_t kAuthNonceBytes = 32;
inline constexpr std::size_t kAuthMacBytes = 32;  // SHA-256
using AuthBytes = std::vector<std::uint8_t>;

// `bytes` fresh random bytes from OpenSSL's generator (RAND_bytes); throws std::runtime_error when
// it cannot give them (never a predictable fallback).
AuthBytes random_bytes(std::size_t bytes);
// HMAC-SHA-256 of the concatenated parts under `key`.
AuthBytes hmac_sha256(std::string_view key, std::initializer_list<std::span<const std::uint8_t>> parts);
// Equal length and equal bytes, in time that does not depend on where they differ (CRYPTO_memcmp).
bool same_bytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);
// A token for peers that share a trusted channel already (MPI ranks): 32 random bytes, hex.
std::string random_token();

// The three things made from a token and a handshake's nonces: each side's proof and the
// session key, each HMAC-SHA-256(token, role's label ‖ purpose ‖ client nonce ‖ server nonce).
enum class AuthRole : std::uint8_t { client, server, session };
AuthBytes auth_mac(std::string_view token, AuthRole role, std::string_view purpose,
                   std::span<const std::uint8_t> client_nonce, std::span<const std::uint8_t> server_nonce);

// What both sides derive once the handshake succeeded.
struct AuthSession {
  AuthBytes key;  // HMAC-SHA-256(token, "session" ‖ purpose ‖ nonces)
  // The data connection's ticket: what the client presents on the data connection before the
  // server reads anything else from it (HMAC(key, "data connection")).
  AuthBytes data_ticket() const;
};

// The client's side (the one that connects). `purpose` names the protocol ("control session",
// "p2p rendezvous"), so a proof made for one is no proof for the other.
class AuthClient {
 public:
  AuthClient(std::string token, std::string purpose);
  const AuthBytes& nonce() const { return nonce_; }
  // Checks the server's nonce and proof; false when the proof was not made with the token for
  // this client's nonce (the server then learns nothing from this client).
  bool server_proved(std::span<const std::uint8_t> server_nonce, std::span<const std::uint8_t> server_proof);
  // Only after server_proved() returned true.
  AuthBytes proof() const;
  AuthSession session() const;

 private:
  std::string token_, purpose_;
  AuthBytes nonce_, server_nonce_;
};

// The server's side: made from the client's nonce (ProtocolError-free: a nonce of the wrong size
// is reported by `valid_nonce`, which the caller checks first).
class AuthServer {
 public:
  AuthServer(std::string token, std::string purpose, std::span<const std::uint8_t> client_nonce);
  static bool valid_nonce(std::span<const std::uint8_t> nonce) { return nonce.size() == kAuthNonceBytes; }
  const AuthBytes& nonce() const { return nonce_; }
  AuthBytes proof() const;
  bool client_proved(std::span<const std::uint8_t> client_proof) const;
  AuthSession session() const;

 private:
  std::string token_, purpose_;
  AuthBytes client_nonce_, nonce_;
};

}  // namespace xb
