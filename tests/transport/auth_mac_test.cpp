// The handshake's MAC (transport/auth) against figures worked out apart from this code (Python's
// hmac module over the documented input: the four lengths, the role's label, the purpose, the
// client's nonce, the server's): every input takes part, so no proof made for one role or purpose
// stands for another.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "transport/auth.hpp"

namespace xb {
namespace {

std::string hex(const AuthBytes& b) {
  std::string out;
  for (const auto byte : b) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", byte);
    out += two;
  }
  return out;
}

TEST(AuthMac, IsHmacSha256OfLengthsLabelPurposeAndBothNonces) {
  const AuthBytes client_nonce(kAuthNonceBytes, 0x01), server_nonce(kAuthNonceBytes, 0x02);
  // python3: hmac.new(b"t0ken", bytes([16, 7, 32, 32]) + b"xferbench client" + b"control" + cn + sn, sha256)
  EXPECT_EQ(hex(auth_mac("t0ken", AuthRole::client, "control", client_nonce, server_nonce)),
            "a9b84673b3ce5342a7e315b779fddcf69cdedc529f9650b59985ccc4a0224a3e");
  EXPECT_EQ(hex(auth_mac("t0ken", AuthRole::session, "control", client_nonce, server_nonce)),
            "83b111c47f3ce1045eb93b366aac41b32878ea72dd7a394b9d879a13b3444b31");
  const AuthBytes proof = auth_mac("t0ken", AuthRole::client, "control", client_nonce, server_nonce);
  EXPECT_NE(proof, auth_mac("t0ken", AuthRole::client, "data", client_nonce, server_nonce));
  EXPECT_NE(proof, auth_mac("t0ken", AuthRole::server, "control", client_nonce, server_nonce));
  EXPECT_NE(proof, auth_mac("t0ken", AuthRole::client, "control", server_nonce, client_nonce));
  EXPECT_NE(proof, auth_mac("t0keN", AuthRole::client, "control", client_nonce, server_nonce));
}

}  // namespace
}  // namespace xb
