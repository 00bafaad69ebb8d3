// Challenge–response (auth.hpp) on OpenSSL's HMAC, RAND_bytes and CRYPTO_memcmp: a well-kept
// implementation of each, rather than our own.
#include "transport/auth.hpp"

#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace xb {
namespace {

std::span<const std::uint8_t> text_bytes(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

}  // namespace

// The role's label, the purpose, then both nonces in a fixed order (client's first), with the
// lengths up front so no two different inputs concatenate alike.
AuthBytes auth_mac(std::string_view token, AuthRole role, std::string_view purpose,
                   std::span<const std::uint8_t> client_nonce, std::span<const std::uint8_t> server_nonce) {
  const std::string_view label = role == AuthRole::client   ? "xferbench client"
                                 : role == AuthRole::server ? "xferbench server"
                                                            : "xferbench session";
  const std::uint8_t lengths[4] = {static_cast<std::uint8_t>(label.size()), static_cast<std::uint8_t>(purpose.size()),
                                   static_cast<std::uint8_t>(client_nonce.size()),
                                   static_cast<std::uint8_t>(server_nonce.size())};
  return hmac_sha256(token, {std::span(lengths), text_bytes(label), text_bytes(purpose), client_nonce, server_nonce});
}

AuthBytes random_bytes(std::size_t bytes) {
  AuthBytes out(bytes);
  if (RAND_bytes(out.data(), static_cast<int>(out.size())) != 1) {
    throw std::runtime_error("RAND_bytes: OpenSSL's random generator could not give a nonce");
  }
  return out;
}

AuthBytes hmac_sha256(std::string_view key, std::initializer_list<std::span<const std::uint8_t>> parts) {
  // HMAC_CTX is deprecated in OpenSSL 3; EVP_MAC is the interface it keeps.
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  if (mac == nullptr) throw std::runtime_error("EVP_MAC_fetch(HMAC) failed");
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
  EVP_MAC_free(mac);
  if (ctx == nullptr) throw std::runtime_error("EVP_MAC_CTX_new failed");
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0), OSSL_PARAM_construct_end()};
  AuthBytes out(kAuthMacBytes);
  std::size_t length = 0;
  bool ok = EVP_MAC_init(ctx, reinterpret_cast<const unsigned char*>(key.data()), key.size(), params) == 1;
  for (const auto& part : parts) ok = ok && EVP_MAC_update(ctx, part.data(), part.size()) == 1;
  ok = ok && EVP_MAC_final(ctx, out.data(), &length, out.size()) == 1;
  EVP_MAC_CTX_free(ctx);
  if (!ok || length != kAuthMacBytes) throw std::runtime_error("HMAC-SHA-256 failed in OpenSSL");
  return out;
}

bool same_bytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string random_token() {
  std::string text;
  for (const std::uint8_t b : random_bytes(32)) text += fmt::format("{:02x}", b);
  return text;
}

AuthBytes AuthSession::data_ticket() const {
  return hmac_sha256(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()),
                     {text_bytes("xferbench data connection")});
}

AuthClient::AuthClient(std::string token, std::string purpose)
    : token_(std::move(token)), purpose_(std::move(purpose)), nonce_(random_bytes(kAuthNonceBytes)) {}

bool AuthClient::server_proved(std::span<const std::uint8_t> server_nonce, std::span<const std::uint8_t> server_proof) {
  if (server_nonce.size() != kAuthNonceBytes) return false;
  const AuthBytes expected = auth_mac(token_, AuthRole::server, purpose_, nonce_, server_nonce);
  if (!same_bytes(expected, server_proof)) return false;
  server_nonce_.assign(server_nonce.begin(), server_nonce.end());
  return true;
}

AuthBytes AuthClient::proof() const {
  if (server_nonce_.empty()) throw std::logic_error("AuthClient::proof before the server proved itself");
  return auth_mac(token_, AuthRole::client, purpose_, nonce_, server_nonce_);
}

AuthSession AuthClient::session() const {
  if (server_nonce_.empty()) throw std::logic_error("AuthClient::session before the server proved itself");
  return AuthSession{auth_mac(token_, AuthRole::session, purpose_, nonce_, server_nonce_)};
}

AuthServer::AuthServer(std::string token, std::string purpose, std::span<const std::uint8_t> client_nonce)
    : token_(std::move(token)),
      purpose_(std::move(purpose)),
      client_nonce_(client_nonce.begin(), client_nonce.end()),
      nonce_(random_bytes(kAuthNonceBytes)) {
  if (!valid_nonce(client_nonce)) throw std::invalid_argument("AuthServer: the client's nonce is not 32 bytes");
}

AuthBytes AuthServer::proof() const { return auth_mac(token_, AuthRole::server, purpose_, client_nonce_, nonce_); }

bool AuthServer::client_proved(std::span<const std::uint8_t> client_proof) const {
  return same_bytes(auth_mac(token_, AuthRole::client, purpose_, client_nonce_, nonce_), client_proof);
}

AuthSession AuthServer::session() const {
  return AuthSession{auth_mac(token_, AuthRole::session, purpose_, client_nonce_, nonce_)};
}

}  // namespace xb
