// Whole control sessions between a server thread and a client (real sockets on loopback, the TCP
// transport underneath): expose, fill, put/get, verify, finish; failures reported on either side.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <atomic>
#include <span>
#include <stop_token>
#include <thread>

#include "backends/cpu/cpu_backend.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
#include "core/stop.hpp"
#include "jobs/endpoint/staged_device_memory.hpp"
#include "transport/tcp/tcp_transport.hpp"
#include "transport_test_support.hpp"

namespace xb {
namespace {

using std::chrono::milliseconds;
using test::ServerThread;

constexpr milliseconds kFlush{20000};

SessionOptions options(std::string token = "s3cret", milliseconds wait = milliseconds(10000)) {
  SessionOptions o;
  o.token = std::move(token);
  o.wait = wait;
  return o;
}

TEST(Session, ExposeFillPutGetVerifyFinish) {
  ServerThread server(options());
  auto transport = make_tcp_transport();
  ClientSession session(*transport, server.control(), options());
  EXPECT_NE(session.server_description().find("tcp"), std::string::npos) << session.server_description();
  EXPECT_EQ(session.endpoint().peer().rfind("127.0.0.1:", 0), 0u) << session.endpoint().peer();

  constexpr std::size_t kBytes = 1024 * 1024;
  PeerRegion a = session.expose(kBytes, RegionPlace::host);
  PeerRegion b = session.expose(4096, RegionPlace::null);
  EXPECT_NE(a.id, b.id);
  EXPECT_EQ(a.remote->size(), kBytes);
  EXPECT_EQ(a.description, "test host memory (host)");
  EXPECT_EQ(b.description, "test host memory (null)");

  // The server fills; the client reads it with a get and checks the pattern.
  session.fill(a, 0, kBytes, 7);
  std::vector<std::byte> local(kBytes);
  auto region = transport->register_memory(local.data(), local.size());
  session.endpoint().get(*region, 0, *a.remote, 0, kBytes);
  session.endpoint().flush(kFlush);
  EXPECT_EQ(find_pattern_mismatch(std::span<const std::byte>(local), 7, 0), std::nullopt);

  // The client puts a pattern at an unaligned offset; the server verifies it where it landed.
  fill_pattern(std::span(local.data() + 12345, 100000), 9, 12345);
  session.endpoint().put(*region, 12345, *a.remote, 12345, 100000);
  session.endpoint().flush(kFlush);
  EXPECT_EQ(session.verify(a, 12345, 100000, 9), std::nullopt);
  EXPECT_EQ(session.verify(a, 0, 12345, 7), std::nullopt);      // untouched before
  EXPECT_EQ(session.verify(a, 0, kBytes, 9), std::optional<std::uint64_t>(0));  // seed 7 there
  EXPECT_EQ(session.verify(a, 112345, kBytes - 112345, 7), std::nullopt);  // untouched after

  // One byte put at the last offset, seen by verify as a mismatch at exactly that offset.
  local[0] = std::byte{static_cast<unsigned char>(~pattern_byte(7, kBytes - 1))};
  session.endpoint().put(*region, 0, *a.remote, kBytes - 1, 1);
  session.endpoint().flush(kFlush);
  EXPECT_EQ(session.verify(a, kBytes - 64, 64, 7), std::optional<std::uint64_t>(kBytes - 1));

  session.finish();
  const auto outcome = server.join();
  EXPECT_EQ(outcome.error, "");
  ASSERT_EQ(outcome.reports.size(), 1u);
  EXPECT_EQ(outcome.reports[0].regions, 2u);
  EXPECT_EQ(outcome.reports[0].exposed_bytes, kBytes + 4096);
  EXPECT_EQ(outcome.reports[0].client.rfind("127.0.0.1:", 0), 0u);
  EXPECT_EQ(outcome.log, "");
}

// A staged region (device memory the transport cannot reach, jobs/endpoint/staged_device_memory):
// the client's puts and gets reach only the window, and the memory behind it (what fill and verify
// act on) only through stage(), in the direction asked and over the range asked.
// An interrupt (SessionOptions::stop) ends a server that waits for a client, and one serving a
// client, with Interrupted: not at the end of its wait, and with its exposed memory released as it
// unwinds (the ExposedMemory's destructor ran before serve_one returned).
TEST(Session, AStopEndsTheServerWaitingOrServingAndReleasesItsMemory) {
  {
    std::stop_source stop;
    SessionOptions o = options("t", milliseconds(60000));
    o.stop = stop.get_token();
    auto transport = make_tcp_transport();
    std::ostringstream log;
    SessionServer server(*transport, SocketAddress{"127.0.0.1", 0}, SocketAddress{"127.0.0.1", 0}, o,
                         test::host_memory_factory(), log);
    std::thread asker([&] { stop.request_stop(); });
    EXPECT_THROW(server.serve_one(), Interrupted);  // a TransportError (no client) after 60 s without it
    asker.join();
  }
  std::stop_source stop;
  SessionOptions o = options();
  o.stop = stop.get_token();
  auto live = std::make_shared<std::atomic<int>>(0);
  // Host memory that counts itself, so the test sees it released.
  struct Counted final : ExposedMemory {
    Counted(std::unique_ptr<ExposedMemory> m, std::shared_ptr<std::atomic<int>> n) : inner(std::move(m)), live(std::move(n)) {
      ++*live;
    }
    ~Counted() override { --*live; }
    void* data() const override { return inner->data(); }
    std::size_t size() const override { return inner->size(); }
    std::string description() const override { return inner->description(); }
    void fill(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override { inner->fill(offset, bytes, seed); }
    std::optional<std::uint64_t> verify(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override {
      return inner->verify(offset, bytes, seed);
    }
    LocalRegion* registration() const override { return inner->registration(); }
    std::unique_ptr<ExposedMemory> inner;
    std::shared_ptr<std::atomic<int>> live;
  };
  const ExposedMemoryFactory host = test::host_memory_factory();
  ServerThread server(o, 1, "127.0.0.1", "127.0.0.1", "",
                      [&](std::uint64_t bytes, RegionPlace place) -> std::unique_ptr<ExposedMemory> {
                        return std::make_unique<Counted>(host(bytes, place), live);
                      });
  auto transport = make_tcp_transport();
  ClientSession session(*transport, server.control(), options());
  const PeerRegion region = session.expose(4096, RegionPlace::host);
  session.fill(region, 0, 4096, 3);  // answered: the region exists on the server
  EXPECT_EQ(live->load(), 1);
  stop.request_stop();
  EXPECT_EQ(server.join().error, Interrupted().what());
  EXPECT_EQ(live->load(), 0) << "the exposed memory outlived the interrupted session";
  EXPECT_THROW(session.fill(region, 0, 4096, 4), TransportError);
}

// A client started before its server waits for it (the session's wait); an interrupt ends the wait
// with Interrupted, not with "no server" at its end.
TEST(Session, AStopEndsAClientWaitingForItsServer) {
  SocketAddress nobody;  // a port that was bound and let go: nobody listens there
  {
    auto transport = make_tcp_transport();
    nobody = transport->listen(SocketAddress{"127.0.0.1", 0})->address();
  }
  std::stop_source stop;
  SessionOptions o = options("t", milliseconds(60000));
  o.stop = stop.get_token();
  auto transport = make_tcp_transport();
  std::thread asker([&] { stop.request_stop(); });
  EXPECT_THROW(ClientSession(*transport, nobody, o), Interrupted);  // a TransportError after 60 s without it
  asker.join();
}

TEST(Session, AStagedRegionReachesItsMemoryOnlyThroughStage) {
  const std::unique_ptr<Backend> backend = make_cpu_backend();
  const std::unique_ptr<Device> device = backend->open_device(0);
  const ExposedMemoryFactory host = test::host_memory_factory();
  ServerThread server(options(), 1, "127.0.0.1", "127.0.0.1", "",
                      [&](std::uint64_t bytes, RegionPlace place) -> std::unique_ptr<ExposedMemory> {
                        if (place == RegionPlace::device) return make_staged_device_memory(*backend, *device, bytes);
                        return host(bytes, place);
                      });
  auto transport = make_tcp_transport();
  ClientSession session(*transport, server.control(), options());
  constexpr std::size_t kBytes = 256 * 1024;
  const PeerRegion staged = session.expose(kBytes, RegionPlace::device);
  const PeerRegion plain = session.expose(4096, RegionPlace::host);
  EXPECT_TRUE(staged.staged);
  EXPECT_FALSE(plain.staged);
  EXPECT_EQ(staged.description.rfind("cpu::device::0, staged through a host", 0), 0u) << staged.description;

  std::vector<std::byte> local(kBytes);
  auto region = transport->register_memory(local.data(), local.size());
  // A write: the put lands in the window; the memory has it only once staged in, and only the range staged.
  session.fill(staged, 0, kBytes, 1);
  fill_pattern(std::span(local), 5, 0);
  session.endpoint().put(*region, 0, *staged.remote, 0, kBytes);
  session.endpoint().flush(kFlush);
  EXPECT_TRUE(session.verify(staged, 0, kBytes, 5).has_value()) << "the memory has the put before staging";
  session.stage(staged, StageDirection::to_memory, 0, kBytes / 2);
  const auto half = session.verify(staged, 0, kBytes, 5);
  ASSERT_TRUE(half.has_value()) << "the memory has bytes that were not staged";
  EXPECT_GE(*half, kBytes / 2);
  session.stage(staged, StageDirection::to_memory, kBytes / 2, kBytes / 2);
  EXPECT_EQ(session.verify(staged, 0, kBytes, 5), std::nullopt);

  // A read: the memory's pattern reaches the window (and so a get) only once staged out.
  session.fill(staged, 0, kBytes, 8);
  session.endpoint().get(*region, 0, *staged.remote, 0, kBytes);
  session.endpoint().flush(kFlush);
  EXPECT_EQ(find_pattern_mismatch(std::span<const std::byte>(local), 5, 0), std::nullopt);  // the window's
  session.stage(staged, StageDirection::to_window, 0, kBytes);
  session.endpoint().get(*region, 0, *staged.remote, 0, kBytes);
  session.endpoint().flush(kFlush);
  EXPECT_EQ(find_pattern_mismatch(std::span<const std::byte>(local), 8, 0), std::nullopt);

  // Past the region: refused by the client; a region that is not staged: by the server.
  EXPECT_THROW(session.stage(staged, StageDirection::to_window, kBytes - 8, 16), std::out_of_range);
  try {
    session.stage(plain, StageDirection::to_memory, 0, 4096);
    ADD_FAILURE() << "a region that is not staged was staged";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("region 2 is not staged"), std::string::npos) << e.what();
  }
  session.finish();
  EXPECT_EQ(server.join().error, "");
}

TEST(Session, WildcardDataListenerAnnouncesTheAddressTheClientUsed) {
  ServerThread server(options(), 1, "0.0.0.0");
  auto transport = make_tcp_transport();
  ClientSession session(*transport, server.control(), options());
  EXPECT_EQ(session.endpoint().peer().rfind("127.0.0.1:", 0), 0u) << session.endpoint().peer();
  PeerRegion a = session.expose(64, RegionPlace::host);
  session.fill(a, 0, 64, 1);
  EXPECT_EQ(session.verify(a, 0, 64, 1), std::nullopt);
  session.finish();
  EXPECT_EQ(server.join().error, "");
}

TEST(Session, ServerSideFailuresReachTheClientAndTheSessionGoesOn) {
  ServerThread server(options());
  auto transport = make_tcp_transport();
  ClientSession session(*transport, server.control(), options());
  // No device on the test server: Unavailable on the client too (exit 3 for a job).
  try {
    session.expose(4096, RegionPlace::device);
    ADD_FAILURE() << "device memory exposed";
  } catch (const Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("no device memory"), std::string::npos) << e.what();
  }
  PeerRegion a = session.expose(4096, RegionPlace::host);
  // Out of range is refused by the client before anything is sent…
  EXPECT_THROW(session.fill(a, 4000, 100, 1), std::out_of_range);
  EXPECT_THROW(session.verify(a, ~std::uint64_t{0} - 2, 8, 1), std::out_of_range);
  // …and by the server, for a client that claims a bigger region than it was given.
  class Claimed final : public RemoteRegion {
   public:
    std::uint64_t address() const override { return 0; }
    std::size_t size() const override { return ~std::size_t{0}; }
  };
  PeerRegion lying{a.id, std::make_unique<Claimed>(), ""};
  session.fill(a, 0, 4096, 3);
  for (auto [offset, bytes] : {std::pair<std::uint64_t, std::uint64_t>{4000, 100}, {~std::uint64_t{0} - 8, 8},
                               {8, ~std::uint64_t{0} - 8}}) {
    try {
      session.fill(lying, offset, bytes, 99);
      ADD_FAILURE() << "server filled outside the region";
    } catch (const TransportError& e) {
      EXPECT_NE(std::string(e.what()).find("outside region"), std::string::npos) << e.what();
    }
  }
  PeerRegion unknown{a.id + 100, std::make_unique<Claimed>(), ""};
  EXPECT_THROW(session.verify(unknown, 0, 8, 1), TransportError);
  EXPECT_EQ(session.verify(a, 0, 4096, 3), std::nullopt);  // untouched by the refused fills
  session.finish();
  EXPECT_EQ(server.join().error, "");
}

TEST(Session, ServerWithoutAClientGivesUp) {
  auto transport = make_tcp_transport();
  std::ostringstream log;
  SessionServer server(*transport, SocketAddress{"127.0.0.1", 0}, SocketAddress{"127.0.0.1", 0},
                       options("t", milliseconds(300)), test::host_memory_factory(), log);
  EXPECT_NE(server.control_address().port, 0);
  EXPECT_NE(server.data_address().port, 0);
  try {
    server.serve_one();
    ADD_FAILURE() << "served nobody";
  } catch (const TransportError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no xferbench client came to " + server.control_address().to_string() + " within 0.3 s"),
              std::string::npos)
        << what;
  }
}

TEST(Session, ServerCannotBindAnAddressInUse) {
  auto transport = make_tcp_transport();
  std::ostringstream log;
  SessionServer first(*transport, SocketAddress{"127.0.0.1", 0}, SocketAddress{"127.0.0.1", 0}, options(),
                      test::host_memory_factory(), log);
  try {
    SessionServer second(*transport, first.control_address(), SocketAddress{"127.0.0.1", 0}, options(),
                         test::host_memory_factory(), log);
    ADD_FAILURE() << "bound a port in use";
  } catch (const SystemError& e) {
    EXPECT_NE(std::string(e.what()).find(first.control_address().to_string()), std::string::npos) << e.what();
  }
}

TEST(Session, ClientWithoutAServerGivesUpWithTheAddress) {
  SocketAddress vacant;
  {
    auto transport = make_tcp_transport();
    vacant = transport->listen(SocketAddress{"127.0.0.1", 0})->address();
  }
  auto transport = make_tcp_transport();
  try {
    ClientSession session(*transport, vacant, options("t", milliseconds(300)));
    ADD_FAILURE() << "connected to nothing";
  } catch (const TransportError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no xferbench server at " + vacant.to_string() + " after 0.3 s"), std::string::npos) << what;
  }
}

TEST(Session, ClientStartedFirstWaitsForTheServer) {
  // Reserve a port, start the client towards it, then start a server on that port.
  SocketAddress control;
  {
    auto t = make_tcp_transport();
    control = t->listen(SocketAddress{"127.0.0.1", 0})->address();
  }
  std::promise<std::string> result;
  auto done = result.get_future();
  std::thread client([&] {
    try {
      auto transport = make_tcp_transport();
      ClientSession session(*transport, control, options());
      session.finish();
      result.set_value("");
    } catch (const std::exception& e) {
      result.set_value(e.what());
    }
  });
  std::this_thread::sleep_for(milliseconds(300));
  auto transport = make_tcp_transport();
  std::ostringstream log;
  SessionServer server(*transport, control, SocketAddress{"127.0.0.1", 0}, options(), test::host_memory_factory(), log);
  const SessionReport report = server.serve_one();
  client.join();
  EXPECT_EQ(done.get(), "");
  EXPECT_EQ(report.regions, 0u);
}

TEST(Session, DefaultTokenComesFromTheEnvironment) {
  const char* saved = std::getenv("XFERBENCH_TOKEN");
  const std::string keep = saved ? saved : "";
  ::unsetenv("XFERBENCH_TOKEN");
  EXPECT_EQ(default_session_token(), "xferbench-default-token");
  ::setenv("XFERBENCH_TOKEN", "from-env", 1);
  EXPECT_EQ(default_session_token(), "from-env");
  ::setenv("XFERBENCH_TOKEN", "", 1);
  EXPECT_EQ(default_session_token(), "xferbench-default-token");
  if (saved) ::setenv("XFERBENCH_TOKEN", keep.c_str(), 1); else ::unsetenv("XFERBENCH_TOKEN");
  EXPECT_STREQ(to_string(RegionPlace::null), "null");
}

// The built-in token is public: a server takes it only on loopback; elsewhere a given token or the
// environment's, else a UsageError naming the listen flag and the address.
TEST(Session, AServerOffLoopbackNeedsATokenOfItsOwn) {
  for (const char* host : {"127.0.0.1", "127.9.8.7", "::1", "::ffff:127.0.0.1"}) EXPECT_TRUE(is_loopback_host(host)) << host;
  for (const char* host : {"0.0.0.0", "10.0.0.1", "128.0.0.1", "::", "fe80::1", "::ffff:10.0.0.1", "localhost", ""}) {
    EXPECT_FALSE(is_loopback_host(host)) << host;
  }
  const char* saved = std::getenv("XFERBENCH_TOKEN");
  const std::string keep = saved ? saved : "";
  ::unsetenv("XFERBENCH_TOKEN");
  EXPECT_EQ(server_session_token("", "127.0.0.1", "--listen"), default_session_token());
  EXPECT_EQ(server_session_token("mine", "10.0.0.1", "--listen"), "mine");
  try {
    server_session_token("", "10.0.0.1", "--listen");
    ADD_FAILURE() << "a server on 10.0.0.1 took the public token";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("--listen 10.0.0.1: a server others can reach needs a token of its own (give --token or set "
                         "XFERBENCH_TOKEN",
                         0),
              0u)
        << what;
  }
  ::setenv("XFERBENCH_TOKEN", "from-env", 1);
  EXPECT_EQ(server_session_token("", "0.0.0.0", "--hip", ""), "from-env");
  if (saved) ::setenv("XFERBENCH_TOKEN", keep.c_str(), 1); else ::unsetenv("XFERBENCH_TOKEN");
}

TEST(Session, AClientKilledMidSessionIsNamedByTheServer) {
  auto transport = make_tcp_transport();
  std::ostringstream log;
  SessionServer server(*transport, SocketAddress{"127.0.0.1", 0}, SocketAddress{"127.0.0.1", 0}, options(),
                       test::host_memory_factory(), log);
  const SocketAddress control = server.control_address();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The client: a session, one region, then gone without a word (as a killed process is).
    int status = 1;
    try {
      auto client_transport = make_tcp_transport();
      ClientSession session(*client_transport, control, options());
      PeerRegion region = session.expose(4096, RegionPlace::host);
      status = region.remote->size() == 4096 ? 0 : 1;
    } catch (...) {
      status = 2;
    }
    ::_exit(status);
  }
  try {
    server.serve_one();
    ADD_FAILURE() << "a vanished client's session ended normally";
  } catch (const TransportError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("client 127.0.0.1:"), std::string::npos) << what;
    EXPECT_NE(what.find("closed the control connection"), std::string::npos) << what;
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

}  // namespace
}  // namespace xb
