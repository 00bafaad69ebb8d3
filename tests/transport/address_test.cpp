// Addresses as users type them, and the transport registry's names.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>

#include "core/error.hpp"
#include "transport/address.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

TEST(Address, Ipv4WithPort) {
  const auto a = parse_address("10.98.0.2:40123", "--peer", true);
  EXPECT_EQ(a.host, "10.98.0.2");
  EXPECT_EQ(a.port, 40123);
  EXPECT_EQ(a.to_string(), "10.98.0.2:40123");
}

TEST(Address, Ipv6InBrackets) {
  const auto a = parse_address("[::1]:20000", "--peer", true);
  EXPECT_EQ(a.host, "::1");
  EXPECT_EQ(a.port, 20000);
  EXPECT_EQ(a.to_string(), "[::1]:20000");
}

TEST(Address, LocalhostIsLoopbackV4) {
  const auto a = parse_address("localhost:7", "--peer", true);
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 7);
}

TEST(Address, HostAloneWhenThePortIsOptional) {
  const auto a = parse_address("127.0.0.1", "--listen", false);
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 0);
  const auto v6 = parse_address("::1", "--listen", false);
  EXPECT_EQ(v6.host, "::1");
  const auto bracketed = parse_address("[fe80::1]", "--listen", false);
  EXPECT_EQ(bracketed.host, "fe80::1");
}

TEST(Address, PortZeroOnlyWhereAllowed) {
  EXPECT_EQ(parse_address("0.0.0.0:0", "--listen", true, true).port, 0);
  EXPECT_THROW(parse_address("0.0.0.0:0", "--peer", true), UsageError);
}

TEST(Address, BadInputNamesTheFlagAndTheRule) {
  const struct {
    const char* text;
    const char* rule;
  } cases[] = {
      {"", "empty"},
      {":80", "no host"},
      {"1.2.3.4", "no port"},
      {"1.2.3.4:", "port must be 1..65535"},
      {"1.2.3.4:65536", "port must be 1..65535"},
      {"1.2.3.4:-1", "port must be 1..65535"},
      {"1.2.3.4:12a", "port must be 1..65535"},
      {"1.2.3.4: 80", "port must be 1..65535"},
      {"[::1", "without ']'"},
      {"[::1]80", "expected ':PORT'"},
      {"[1.2.3.4]:80", "IPv6"},
      {"fe80::zz:1", "IPv6"},
      {"no-such-host.invalid:80", "cannot resolve"},
  };
  for (const auto& c : cases) {
    try {
      parse_address(c.text, "--peer", true);
      ADD_FAILURE() << "accepted '" << c.text << "'";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("--peer: '", 0), 0u) << what;
      EXPECT_NE(what.find(c.rule), std::string::npos) << c.text << " → " << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

TEST(Address, PortAlone) {
  EXPECT_EQ(parse_port("20000", "--port"), 20000);
  EXPECT_EQ(parse_port("0", "--port", true), 0);
  for (const char* bad : {"0", "", "65536", "x", "-5", "1e3", "99999999999"}) {
    try {
      parse_port(bad, "--port");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--port: '", 0), 0u) << e.what();
    }
  }
}

TEST(Address, ToSockaddr) {
  sockaddr_storage storage;
  ASSERT_EQ(SocketAddress({"10.1.2.3", 4567}).to_sockaddr(storage), sizeof(sockaddr_in));
  const auto* v4 = reinterpret_cast<const sockaddr_in*>(&storage);
  EXPECT_EQ(v4->sin_family, AF_INET);
  EXPECT_EQ(ntohs(v4->sin_port), 4567);
  EXPECT_EQ(ntohl(v4->sin_addr.s_addr), 0x0a010203u);

  ASSERT_EQ(SocketAddress({"::1", 99}).to_sockaddr(storage), sizeof(sockaddr_in6));
  const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&storage);
  EXPECT_EQ(v6->sin6_family, AF_INET6);
  EXPECT_EQ(ntohs(v6->sin6_port), 99);
  EXPECT_TRUE(IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr));

  EXPECT_THROW(SocketAddress({"not-numeric", 1}).to_sockaddr(storage), std::invalid_argument);
}

TEST(TransportRegistry, HasTcpAndRefusesUnknownNames) {
  const auto names = transport_names();
  ASSERT_NE(std::find(names.begin(), names.end(), "tcp"), names.end());
  EXPECT_EQ(make_transport("tcp")->name(), "tcp");
  try {
    make_transport("carrier-pigeon");
    ADD_FAILURE() << "accepted an unknown transport";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--transport"), std::string::npos) << what;
    EXPECT_NE(what.find("carrier-pigeon"), std::string::npos) << what;
    EXPECT_NE(what.find("tcp"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace xb
