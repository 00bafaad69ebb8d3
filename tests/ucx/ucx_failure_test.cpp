// What goes wrong: offsets outside a region (refused locally, and by the peer on the
// active-message path), a peer process killed in the middle of a transfer, nobody listening,
// nobody connecting, a bad protocol override.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "core/error.hpp"
#include "transport/ucx/ucx_transport.hpp"
#include "ucx/ucx_test_support.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;
using test::PatternBuffer;
using test::ScopedEnv;
using test::ServingThread;
using ::testing::HasSubstr;

std::string out_of_range_text(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::out_of_range& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

TEST(UcxBounds, OffsetsOutsideEitherRegionAreRefusedBeforeAnythingIsSent) {
  ScopedEnv tls("UCX_TLS", "tcp");
  ServingThread server(make_ucx_transport(), 4096, 1);
  auto client = make_ucx_transport();
  PatternBuffer local(8192, 2);
  auto region = client->register_memory(local.data(), local.size());
  auto endpoint = client->connect(server.address(), 20s);
  auto remote = endpoint->attach(server.region());
  const std::size_t huge = std::numeric_limits<std::size_t>::max();

  EXPECT_EQ(out_of_range_text([&] { endpoint->put(*region, 0, *remote, 4000, 97); }),
            "ucx put: destination region (4096 bytes): offset 4000 + length 97 is out of range");
  EXPECT_EQ(out_of_range_text([&] { endpoint->put(*region, 8190, *remote, 0, 3); }),
            "ucx put: source region (8192 bytes): offset 8190 + length 3 is out of range");
  EXPECT_THAT(out_of_range_text([&] { endpoint->put(*region, 1, *remote, 0, huge); }), HasSubstr("out of range"));
  EXPECT_THAT(out_of_range_text([&] { endpoint->get(*region, 0, *remote, 4097, 0); }),
              HasSubstr("source region (4096 bytes): offset 4097"));
  EXPECT_THAT(out_of_range_text([&] { endpoint->get(*region, huge, *remote, 0, 1); }),
              HasSubstr("destination region (8192 bytes)"));
  // Nothing reached the peer: its memory still holds its own pattern and a flush is clean.
  endpoint->flush(20s);
  for (std::size_t i = 0; i < 4096; ++i) {
    ASSERT_EQ(std::to_integer<std::uint8_t>(server.memory().data()[i]), server.memory().expected(i)) << i;
  }
  endpoint.reset();
  server.stop();
}

// A peer that lies about its region's size: the passive side of the active-message path checks
// every target against what it registered and reports the refusal at the next flush.
TEST(UcxBounds, ThePeerRefusesTargetsOutsideItsRegions) {
  ScopedEnv tls("UCX_TLS", "tcp");
  ScopedEnv protocol("XFERBENCH_UCX_PROTOCOL", "am");
  ServingThread server(make_ucx_transport(), 4096, 1);
  auto client = make_ucx_transport();
  PatternBuffer local(1 << 20, 2);
  auto region = client->register_memory(local.data(), local.size());
  auto endpoint = client->connect(server.address(), 20s);
  RegionDescriptor forged = server.region();
  forged.bytes = 1 << 20;
  auto remote = endpoint->attach(forged);

  endpoint->put(*region, 0, *remote, 8192, 100);
  try {
    endpoint->flush(20s);
    FAIL() << "the out-of-region put was not reported";
  } catch (const TransportError& e) {
    EXPECT_THAT(e.what(), HasSubstr("refused"));
    EXPECT_THAT(e.what(), HasSubstr("offset 8192 + length 100 is outside region"));
  }
  endpoint->get(*region, 0, *remote, 4000, 200000);  // large: the reply would be a rendezvous
  try {
    endpoint->flush(20s);
    FAIL() << "the out-of-region get was not reported";
  } catch (const TransportError& e) {
    EXPECT_THAT(e.what(), HasSubstr("get refused"));
  }
  // The endpoint still works for targets inside the region.
  endpoint->put(*region, 0, *remote, 0, 4096);
  endpoint->flush(20s);
  EXPECT_EQ(std::memcmp(server.memory().data(), local.data(), 4096), 0);
  remote.reset();
  endpoint.reset();
  server.stop();
}

// The peer lives in a child process: a region, a listener, progress until killed. It tells the
// parent its port and region through a pipe.
struct ChildServer {
  pid_t pid = -1;
  SocketAddress address;
  RegionDescriptor region;
};

void write_all(int fd, const void* data, std::size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) _exit(3);
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

bool read_all(int fd, void* data, std::size_t n) {
  auto* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = ::read(fd, p, n);
    if (r <= 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

// `allocated`: the child's region is memory the transport allocated (allocate_memory), which a
// shared-memory peer writes with no work by the child, so only the bootstrap connection tells the
// parent the child is gone.
ChildServer fork_server(std::size_t bytes, bool allocated) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::close(fds[0]);
    try {
      auto transport = make_ucx_transport();
      PatternBuffer memory(allocated ? 1 : bytes, 7);
      auto region = allocated ? transport->allocate_memory(bytes) : transport->register_memory(memory.data(), bytes);
      auto listener = transport->listen(SocketAddress{"127.0.0.1", 0});
      const RegionDescriptor d = region->describe();
      const std::uint16_t port = listener->address().port;
      const std::uint64_t key_bytes = d.key.size();
      write_all(fds[1], &port, sizeof port);
      write_all(fds[1], &d.address, sizeof d.address);
      write_all(fds[1], &d.bytes, sizeof d.bytes);
      write_all(fds[1], &key_bytes, sizeof key_bytes);
      write_all(fds[1], d.key.data(), d.key.size());
      auto endpoint = listener->accept(60s);
      for (;;) {
        if (!transport->progress()) transport->wait(100ms);
      }
    } catch (...) {
      _exit(2);
    }
  }
  ::close(fds[1]);
  ChildServer child;
  child.pid = pid;
  std::uint16_t port = 0;
  std::uint64_t key_bytes = 0;
  bool ok = read_all(fds[0], &port, sizeof port) && read_all(fds[0], &child.region.address, sizeof child.region.address) &&
            read_all(fds[0], &child.region.bytes, sizeof child.region.bytes) &&
            read_all(fds[0], &key_bytes, sizeof key_bytes) && key_bytes < 65536;
  if (ok) {
    child.region.key.resize(key_bytes);
    ok = read_all(fds[0], child.region.key.data(), key_bytes);
  }
  ::close(fds[0]);
  if (!ok) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    throw std::runtime_error("the child server did not start");
  }
  child.address = SocketAddress{"127.0.0.1", port};
  return child;
}

struct KillSetup {
  const char* name;
  const char* tls;
  const char* protocol;
  bool allocated = false;  // both sides' regions from allocate_memory
};
class UcxKilledPeer : public ::testing::TestWithParam<KillSetup> {};

TEST_P(UcxKilledPeer, FlushThrowsNamingThePeerWithinItsTimeout) {
  ScopedEnv tls("UCX_TLS", GetParam().tls);
  ScopedEnv protocol("XFERBENCH_UCX_PROTOCOL", GetParam().protocol);
  constexpr std::size_t kBytes = 64 << 20;
  ChildServer child = fork_server(kBytes, GetParam().allocated);  // before this process starts UCX or any thread
  auto client = make_ucx_transport();
  PatternBuffer local(GetParam().allocated ? 1 : kBytes, 3);
  auto region = GetParam().allocated ? client->allocate_memory(kBytes) : client->register_memory(local.data(), kBytes);
  std::string error;
  {
    auto endpoint = client->connect(child.address, 20s);
    auto remote = endpoint->attach(child.region);
    try {
      endpoint->put(*region, 0, *remote, 0, kBytes);
      endpoint->flush(20s);  // the peer works
      for (int i = 0; i < 4; ++i) endpoint->put(*region, 0, *remote, 0, kBytes);
      ::kill(child.pid, SIGKILL);
      ::waitpid(child.pid, nullptr, 0);
      child.pid = -1;
      for (int i = 0; i < 4; ++i) endpoint->put(*region, 0, *remote, 0, kBytes);
      endpoint->flush(5s);
    } catch (const TransportError& e) {
      error = e.what();
    }
  }
  if (child.pid > 0) {
    ::kill(child.pid, SIGKILL);
    ::waitpid(child.pid, nullptr, 0);
  }
  EXPECT_THAT(error, HasSubstr(child.address.host));
  EXPECT_THAT(error, HasSubstr(std::to_string(child.address.port)));
}

INSTANTIATE_TEST_SUITE_P(Tls, UcxKilledPeer,
                         ::testing::Values(KillSetup{"tcp_am", "tcp", "am"}, KillSetup{"tcp_rma", "tcp", "rma"},
                                           KillSetup{"shared_memory", "posix,sysv,cma,self", ""},
                                           KillSetup{"shared_memory_allocated", "posix,sysv,cma,self", "", true}),
                         [](const auto& p) { return std::string(p.param.name); });

TEST(UcxConnect, NobodyListeningFailsAtTheTimeoutNamingTheAddress) {
  ScopedEnv tls("UCX_TLS", "tcp");
  auto transport = make_ucx_transport();
  // A port that was free a moment ago: a listener made and dropped.
  SocketAddress address;
  {
    auto listener = transport->listen(SocketAddress{"127.0.0.1", 0});
    address = listener->address();
  }
  try {
    transport->connect(address, 1s);
    FAIL() << "connected to nobody";
  } catch (const TransportError& e) {
    EXPECT_THAT(e.what(), HasSubstr("ucx connect to 127.0.0.1:" + std::to_string(address.port)));
    EXPECT_THAT(e.what(), HasSubstr("nobody listening within 1000 ms"));
  }
}

TEST(UcxAccept, NobodyConnectingFailsAtTheTimeout) {
  auto transport = make_ucx_transport();
  auto listener = transport->listen(SocketAddress{"127.0.0.1", 0});
  EXPECT_NE(listener->address().port, 0);
  try {
    listener->accept(200ms);
    FAIL() << "accepted nobody";
  } catch (const TransportError& e) {
    EXPECT_THAT(e.what(), HasSubstr("no connection within 200 ms"));
  }
}

TEST(UcxListen, AnAddressInUseIsRefusedNamingIt) {
  auto transport = make_ucx_transport();
  auto first = transport->listen(SocketAddress{"127.0.0.1", 0});
  const SocketAddress taken = first->address();
  try {
    transport->listen(taken);
    FAIL() << "listened twice on one port";
  } catch (const TransportError& e) {
    EXPECT_THAT(e.what(), HasSubstr("ucx: cannot listen on 127.0.0.1:" + std::to_string(taken.port) + ": Address already in use"));
  }
}

TEST(UcxProtocol, AnUnknownOverrideIsBadInput) {
  ScopedEnv protocol("XFERBENCH_UCX_PROTOCOL", "fast");
  EXPECT_THROW(make_ucx_transport(), UsageError);
}

}  // namespace
}  // namespace xb
