// put and get between two UCX transports on loopback, each on its own thread, pattern-checked at
// many offsets and sizes, for every UCX_TLS and protocol that matters here: UCX's own choice,
// shared memory only, and tcp only with one-sided operations (UCX's emulation) and with active
// messages (ours). The transports read UCX_TLS when they are made, inside the test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <string>

#include "transport/ucx/ucx_transport.hpp"
#include "ucx/ucx_test_support.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;
using test::PatternBuffer;
using test::ScopedEnv;
using test::ServingThread;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::size_t kMiB = 1024 * 1024;
constexpr std::size_t kRegion = 16 * kMiB + 8192;

struct TlsSetup {
  const char* name;
  std::optional<std::string> tls;
  std::optional<std::string> protocol;
  const char* expected_protocol;
};

class UcxTransfer : public ::testing::TestWithParam<TlsSetup> {};

// The first offset where a and b differ, or -1.
long long first_difference(const std::byte* a, const std::byte* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<long long>(i);
  }
  return -1;
}

struct Case {
  std::size_t bytes, local_offset, remote_offset;
};
// 1 B, odd sizes, both sides of the active-message rendezvous threshold, 8 MiB; unaligned offsets.
const Case kCases[] = {
    {1, 0, 0},          {1, 5, 4097},          {7, 3, 11},           {4095, 1, 8191},
    {65535, 9, 70001},  {65537, 17, 100003},   {kMiB + 3, 4101, 2 * kMiB + 1},
    {8 * kMiB, 0, 8 * kMiB + 7},                {8 * kMiB - 1, 4099, 3},
};

TEST_P(UcxTransfer, PutAndGetLandExactlyAtEveryOffsetAndSize) {
  const TlsSetup& setup = GetParam();
  ScopedEnv tls("UCX_TLS", setup.tls);
  ScopedEnv protocol("XFERBENCH_UCX_PROTOCOL", setup.protocol);
  ServingThread server(make_ucx_transport(), kRegion, 101);
  auto client = make_ucx_transport();
  PatternBuffer local(kRegion, 202);
  auto region = client->register_memory(local.data(), local.size());
  auto endpoint = client->connect(server.address(), 20s);
  auto remote = endpoint->attach(server.region());
  std::byte* far = server.memory().data();

  for (const Case& c : kCases) {
    SCOPED_TRACE(testing::Message() << "put " << c.bytes << " B from " << c.local_offset << " to " << c.remote_offset);
    const std::size_t after = c.remote_offset + c.bytes;
    const std::byte before_byte = c.remote_offset > 0 ? far[c.remote_offset - 1] : std::byte{0};
    const std::byte after_byte = far[after];
    endpoint->put(*region, c.local_offset, *remote, c.remote_offset, c.bytes);
    endpoint->flush(20s);
    EXPECT_EQ(first_difference(far + c.remote_offset, local.data() + c.local_offset, c.bytes), -1);
    if (c.remote_offset > 0) {
      EXPECT_EQ(far[c.remote_offset - 1], before_byte) << "wrote before the target";
    }
    EXPECT_EQ(far[after], after_byte) << "wrote past the target";
  }
  for (const Case& c : kCases) {
    SCOPED_TRACE(testing::Message() << "get " << c.bytes << " B from " << c.remote_offset << " to " << c.local_offset);
    const std::byte after_byte = local.data()[c.local_offset + c.bytes];
    endpoint->get(*region, c.local_offset, *remote, c.remote_offset, c.bytes);
    endpoint->flush(20s);
    EXPECT_EQ(first_difference(local.data() + c.local_offset, far + c.remote_offset, c.bytes), -1);
    EXPECT_EQ(local.data()[c.local_offset + c.bytes], after_byte) << "wrote past the target";
  }

  // Many operations in flight before one flush: 96 puts of 64 KiB + 3, then as many gets back.
  constexpr std::size_t kBlock = 64 * 1024 + 3;
  PatternBuffer fresh(kRegion, 303);
  auto fresh_region = client->register_memory(fresh.data(), fresh.size());
  for (std::size_t i = 0; i < 96; ++i) endpoint->put(*fresh_region, i * kBlock, *remote, 5 + i * kBlock, kBlock);
  endpoint->flush(20s);
  EXPECT_EQ(first_difference(far + 5, fresh.data(), 96 * kBlock), -1);
  for (std::size_t i = 0; i < 96; ++i) endpoint->get(*region, 1 + i * kBlock, *remote, 5 + i * kBlock, kBlock);
  endpoint->flush(20s);
  EXPECT_EQ(first_difference(local.data() + 1, fresh.data(), 96 * kBlock), -1);

  const TransportInfo info = client->info();
  EXPECT_EQ(info.name, "ucx");
  EXPECT_FALSE(info.version.empty());
  EXPECT_FALSE(info.lanes.empty());
  EXPECT_THAT(info.settings, HasSubstr(std::string("protocol=") + setup.expected_protocol)) << info.lanes;
  if (setup.tls) {
    EXPECT_THAT(info.settings, HasSubstr("UCX_TLS=" + *setup.tls));
  }

  remote.reset();
  endpoint.reset();
  server.stop();
}

INSTANTIATE_TEST_SUITE_P(
    Tls, UcxTransfer,
    ::testing::Values(TlsSetup{"ucx_default", std::nullopt, std::nullopt, "rma"},
                      TlsSetup{"shared_memory", "posix,sysv,cma,self", std::nullopt, "rma"},
                      TlsSetup{"tcp_rma", "tcp", "rma", "rma"},
                      TlsSetup{"tcp_am", "tcp", "am", "am"},
                      TlsSetup{"tcp_auto", "tcp", std::nullopt, "am"},
                      TlsSetup{"shared_memory_am", "posix,sysv,cma,self", "am", "am"}),
    [](const auto& p) { return std::string(p.param.name); });

// Regions the endpoint did not make are refused before UCX sees them: a local region of another
// transport, and a remote region attached to another peer's endpoint (a put through it would use
// that peer's rkey); a region of its own goes through.
class ForeignRegion final : public LocalRegion {
 public:
  explicit ForeignRegion(PatternBuffer& memory) : memory_(memory) {}
  void* data() const override { return memory_.data(); }
  std::size_t size() const override { return memory_.size(); }
  RegionDescriptor describe() const override { return {}; }

 private:
  PatternBuffer& memory_;
};

TEST(UcxRegions, ARegionTheEndpointDidNotMakeIsRefused) {
  ScopedEnv tls("UCX_TLS", "posix,sysv,cma,self");
  ServingThread first(make_ucx_transport(), 4096, 11);
  ServingThread second(make_ucx_transport(), 4096, 12);
  auto client = make_ucx_transport();
  PatternBuffer local(4096, 13);
  auto region = client->register_memory(local.data(), local.size());
  auto to_first = client->connect(first.address(), 20s);
  auto to_second = client->connect(second.address(), 20s);
  auto first_remote = to_first->attach(first.region());
  auto second_remote = to_second->attach(second.region());

  ForeignRegion foreign(local);
  try {
    to_first->put(foreign, 0, *first_remote, 0, 8);
    ADD_FAILURE() << "a local region of another transport was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("a local region registered with another transport"));
  }
  try {
    to_first->put(*region, 0, *second_remote, 0, 8);
    ADD_FAILURE() << "a remote region of another peer was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("a remote region not attached to the endpoint of peer"));
  }
  to_first->put(*region, 0, *first_remote, 0, 8);
  to_first->flush(20s);
  EXPECT_EQ(first_difference(first.memory().data(), local.data(), 8), -1);

  first_remote.reset();
  second_remote.reset();
  to_first.reset();
  to_second.reset();
  first.stop();
  second.stop();
}

// UCX honours UCX_TLS from the environment, and info() reports the lanes it really used.
TEST(UcxInfo, LanesFollowUcxTls) {
  for (const char* tls : {"tcp", "posix,sysv,cma,self"}) {
    SCOPED_TRACE(tls);
    ScopedEnv env("UCX_TLS", tls);
    ScopedEnv protocol("XFERBENCH_UCX_PROTOCOL", std::nullopt);
    ServingThread server(make_ucx_transport(), 4096, 1);
    auto client = make_ucx_transport();
    auto endpoint = client->connect(server.address(), 20s);
    const TransportInfo info = client->info();
    if (std::string(tls) == "tcp") {
      EXPECT_THAT(info.lanes, HasSubstr("tcp/"));
      EXPECT_THAT(info.lanes, Not(HasSubstr("posix")));
      EXPECT_THAT(info.lanes, Not(HasSubstr("cma")));
      EXPECT_THAT(info.settings, HasSubstr("protocol=am (auto)"));
    } else {
      EXPECT_THAT(info.lanes, Not(HasSubstr("tcp")));
      EXPECT_TRUE(info.lanes.find("posix") != std::string::npos || info.lanes.find("sysv") != std::string::npos ||
                  info.lanes.find("cma") != std::string::npos)
          << info.lanes;
      EXPECT_THAT(info.settings, HasSubstr("protocol=rma (auto)"));
    }
    endpoint.reset();
    server.stop();
    EXPECT_FALSE(server.info().lanes.empty());
  }
}

}  // namespace
}  // namespace xb
