// A session between two network namespaces joined by a veth pair (two "hosts"): the server binds
// its control port to its veth address and its data listener to 0.0.0.0, so the data address it
// announces must be the one the client reached (not 0.0.0.0, not loopback). Needs root; skips with
// the reason where namespaces cannot be made.
#include <gtest/gtest.h>

#include <cstring>
#include <span>

#include "core/pattern.hpp"
#include "support/netns.hpp"
#include "transport/tcp/tcp_transport.hpp"
#include "transport_test_support.hpp"

namespace xb {
namespace {

using std::chrono::milliseconds;

TEST(Session, AcrossTwoNetworkNamespaces) {
  std::string why;
  auto pair = test::NetnsPair::create(&why);
  if (!pair) GTEST_SKIP() << why;
  SessionOptions options;
  options.token = "netns-token";
  options.wait = milliseconds(10000);
  test::ServerThread server(options, 1, "0.0.0.0", pair->address(0), pair->name(0));
  EXPECT_EQ(server.control().host, pair->address(0));

  // The client runs on a thread of its own inside the other namespace.
  std::string failure;
  std::string data_peer;
  std::string description;
  std::thread client([&] {
    try {
      test::enter_netns(pair->name(1));
      auto transport = make_tcp_transport();
      ClientSession session(*transport, server.control(), options);
      data_peer = session.endpoint().peer();
      description = session.server_description();
      constexpr std::size_t kBytes = 3 * 1024 * 1024 + 5;
      PeerRegion region = session.expose(kBytes, RegionPlace::host);
      std::vector<std::byte> local(kBytes);
      fill_pattern(std::span(local), 21, 0);
      auto mine = transport->register_memory(local.data(), local.size());
      session.endpoint().put(*mine, 0, *region.remote, 0, kBytes);
      session.endpoint().flush(milliseconds(20000));
      if (session.verify(region, 0, kBytes, 21)) failure = "the put did not land intact";
      session.fill(region, 7, 1000, 22);
      std::memset(local.data(), 0, 1000);
      session.endpoint().get(*mine, 0, *region.remote, 7, 1000);
      session.endpoint().flush(milliseconds(20000));
      if (find_pattern_mismatch(std::span<const std::byte>(local.data(), 1000), 22, 7)) failure = "get mismatch";
      session.finish();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  client.join();
  EXPECT_EQ(failure, "");
  EXPECT_EQ(data_peer.rfind(pair->address(0) + ":", 0), 0u) << data_peer;
  EXPECT_NE(description.find("test server"), std::string::npos) << description;
  const auto outcome = server.join();
  EXPECT_EQ(outcome.error, "");
  ASSERT_EQ(outcome.reports.size(), 1u);
  EXPECT_EQ(outcome.reports[0].client.rfind(pair->address(1) + ":", 0), 0u) << outcome.reports[0].client;
}

}  // namespace
}  // namespace xb
