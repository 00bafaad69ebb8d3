// The link job in process over real transports on loopback (a server thread with its own
// Transport): every memory pairing on tcp and ucx, data checked where the CPU may touch it; the
// check's own verify path shown to fail on data that differs; the results' figures consistent with
// each other. Timings are never asserted.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "core/error.hpp"
#include "jobs/endpoint/endpoint_memory.hpp"
#include "jobs/link/link_check.hpp"
#include "jobs/link/link_config.hpp"
#include "jobs/link/link_job.hpp"
#include "jobs/link/link_server.hpp"
#include "support/job_helpers.hpp"
#include "support/metric_checks.hpp"
#include "transport/transport.hpp"
#include "support/run_job.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::error_of;
using test::metric;

using test::has_transport;

LinkPlan small_plan(const std::string& transport, RegionPlace src, RegionPlace dst, bool check) {
  LinkPlan p;
  p.transport = transport;
  p.src = src;
  p.dst = dst;
  p.check = check;
  p.min_bytes = 3;  // odd sizes: not a multiple of the pattern's 8-byte word
  p.max_bytes = 200000;
  p.step = 7;  // 3, 21, 147, 1029, 7203, 50421
  p.iterations = 5;
  p.warmup = 2;
  p.token = "link-test-token";
  p.wait = std::chrono::seconds(20);
  return p;
}

// Runs the plan, skipping where the transport cannot start here.
std::vector<CaseResult> run_or_skip(const LinkPlan& plan, Backend& backend, bool& skipped) {
  skipped = false;
  try {
    return test::run_job(plan, &backend);
  } catch (const Unavailable& e) {
    skipped = true;
    return {};
  }
}

void expect_consistent(const std::vector<CaseResult>& results, const LinkPlan& plan) {
  const auto sizes = link_sizes(plan);
  ASSERT_EQ(results.size(), sizes.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CaseResult& r = results[i];
    SCOPED_TRACE(r.name);
    EXPECT_EQ(r.job, "link");
    EXPECT_EQ(r.config.at("size").get<std::uint64_t>(), sizes[i]);
    EXPECT_EQ(r.label("size"), std::to_string(sizes[i]));
    EXPECT_EQ(r.config.at("memory").get<std::string>(),
              std::string(link_memory_name(plan.src)) + ":" + std::string(link_memory_name(plan.dst)));
    EXPECT_EQ(r.config.at("check").get<bool>(), plan.check);
    const auto& transport = r.config.at("transport");
    EXPECT_EQ(transport.at("name").get<std::string>(), plan.transport);
    EXPECT_FALSE(transport.at("lanes").get<std::string>().empty()) << "the lanes actually used are reported";
    const Series* latency = r.find_series("transfer");
    ASSERT_NE(latency, nullptr);
    EXPECT_EQ(latency->unit, "us");
    ASSERT_EQ(latency->samples.size(), plan.iterations);
    for (double s : latency->samples) EXPECT_GT(s, 0.0);
    const double avg = metric(r, "latency_avg");
    EXPECT_DOUBLE_EQ(avg, latency->summary.avg);
    // The fastest and the slowest transfer are the series' own, sample for sample.
    const auto [fastest, slowest] = std::minmax_element(latency->samples.begin(), latency->samples.end());
    EXPECT_DOUBLE_EQ(metric(r, "latency_min"), latency->summary.min);
    EXPECT_DOUBLE_EQ(metric(r, "latency_min"), *fastest);
    EXPECT_DOUBLE_EQ(metric(r, "latency_max"), latency->summary.max);
    EXPECT_DOUBLE_EQ(metric(r, "latency_max"), *slowest);
    EXPECT_DOUBLE_EQ(metric(r, "bandwidth"), link_bandwidth_gbps(sizes[i], avg));
    // Written out, not through the job's function: bits (x 8) per microsecond / 1000 = Gb/s.
    EXPECT_DOUBLE_EQ(metric(r, "bandwidth"), static_cast<double>(sizes[i]) * 8 / avg / 1e3);
    EXPECT_EQ(metric(r, "iterations"), static_cast<double>(plan.iterations));
    EXPECT_NE(r.find_metric("bandwidth")->formula.find("size * 8 / latency_avg"), std::string::npos);
    test::expect_names_and_units(r.metrics, {{"latency_avg", "us"},
                                             {"latency_min", "us"},
                                             {"latency_max", "us"},
                                             {"bandwidth", "Gb/s"},
                                             {"iterations", "transfers"}});
  }
}

using Pairing = std::tuple<std::string, RegionPlace, RegionPlace>;

class LinkLoopback : public ::testing::TestWithParam<Pairing> {};

TEST_P(LinkLoopback, SweepsEverySizeWithDataChecked) {
  const auto& [transport, src, dst] = GetParam();
  if (!has_transport(transport)) GTEST_SKIP() << transport << " is not built in";
  auto backend = make_cpu_backend();
  // Null memory cannot be checked (the CPU never touches it); every other pairing is.
  const bool check = src != RegionPlace::null && dst != RegionPlace::null;
  const LinkPlan plan = small_plan(transport, src, dst, check);
  bool skipped = false;
  const auto results = run_or_skip(plan, *backend, skipped);
  if (skipped) GTEST_SKIP() << transport << " cannot start here";
  expect_consistent(results, plan);
  const auto& config = results.front().config;
  // The typed record (item 7) holds every key the job wrote, no more.
  for (const CaseResult& r : results) EXPECT_EQ(nlohmann::json(r.config.get<LinkConfig>()), r.config) << r.config.dump();
  EXPECT_EQ(config.at("backend").get<std::string>(), "cpu");
  EXPECT_NE(config.at("cuda").get<std::string>().find("cpu backend"), std::string::npos)
      << "the result says what cuda meant here";
  EXPECT_NE(config.at("peer").get<std::string>().find("loopback"), std::string::npos);
  if (dst == RegionPlace::device) {
    EXPECT_EQ(config.at("dst").at("description").get<std::string>(), "cpu::device::0");
  }
  if (src == RegionPlace::null) {
    EXPECT_EQ(config.at("src").at("description").get<std::string>(), "null");
  }
}

std::string pairing_name(const ::testing::TestParamInfo<Pairing>& p) {
  return std::get<0>(p.param) + "_" + std::string(link_memory_name(std::get<1>(p.param))) + "_" +
         std::string(link_memory_name(std::get<2>(p.param)));
}

INSTANTIATE_TEST_SUITE_P(
    TransportsAndMemory, LinkLoopback,
    ::testing::Values(Pairing{"tcp", RegionPlace::host, RegionPlace::host},
                      Pairing{"tcp", RegionPlace::host, RegionPlace::device},
                      Pairing{"tcp", RegionPlace::device, RegionPlace::device},
                      Pairing{"tcp", RegionPlace::null, RegionPlace::null},
                      Pairing{"ucx", RegionPlace::host, RegionPlace::host},
                      Pairing{"ucx", RegionPlace::host, RegionPlace::device},
                      Pairing{"ucx", RegionPlace::device, RegionPlace::device},
                      Pairing{"ucx", RegionPlace::null, RegionPlace::null},
                      Pairing{"ucx", RegionPlace::device, RegionPlace::null}),
    pairing_name);

// The check's verify path on real transferred data: what was put verifies against its seed and is
// reported as a difference, at the right offset, against another seed or beyond what was put.
TEST(LinkCheck, ReportsDataThatDiffersFromWhatWasPut) {
  for (const std::string transport : {"tcp", "ucx"}) {
    SCOPED_TRACE(transport);
    if (!has_transport(transport)) continue;
    auto backend = make_cpu_backend();
    auto device = backend->open_device(0);
    std::unique_ptr<Transport> client;
    try {
      client = make_transport(transport);
    } catch (const Unavailable&) {
      continue;
    }
    const std::uint64_t bytes = 100003;
    auto src = EndpointMemory::make(*backend, *device, RegionPlace::host, bytes);
    auto local = client->register_memory(src->data(), src->size());
    PeerServerThread server("127.0.0.1", transport, "t", std::chrono::seconds(20), 0, *backend, exactly_the_plan(bytes));
    {
      SessionOptions options;
      options.token = "t";
      ClientSession session(*client, server.control(), options);
      PeerRegion dst = session.expose(bytes, RegionPlace::device);
      const std::uint64_t seed = link_check_seed(bytes);
      EXPECT_NE(seed, link_check_seed(bytes - 1)) << "every size has its own seed";
      src->fill(0, bytes, seed);
      session.endpoint().put(*local, 0, *dst.remote, 0, bytes - 100);  // all but the last 100 bytes
      session.endpoint().flush(std::chrono::seconds(20));
      EXPECT_NO_THROW(verify_link_data(session, dst, bytes - 100, seed));
      const std::string wrong_seed = error_of([&] { verify_link_data(session, dst, bytes - 100, seed + 1); });
      EXPECT_NE(wrong_seed.find("first at byte offset 0 "), std::string::npos) << wrong_seed;
      EXPECT_NE(wrong_seed.find("cpu::device::0"), std::string::npos) << wrong_seed;
      const std::string short_put = error_of([&] { verify_link_data(session, dst, bytes, seed); });
      EXPECT_NE(short_put.find(fmt::format("first at byte offset {} ", bytes - 100)), std::string::npos) << short_put;
      session.finish();
    }
    server.join();
  }
}

// A run's own peer server (link --loopback; the p2p and fleet peers are the same class) lets its one
// client expose exactly the plan's one region: not a byte more, not a second region.
TEST(LinkServerThread, HoldsItsClientToThePlansOneRegion) {
  auto backend = make_cpu_backend();
  const std::uint64_t bytes = 1 << 20;
  SessionOptions options;
  options.token = "t";
  {
    PeerServerThread server("127.0.0.1", "tcp", "t", std::chrono::seconds(20), 0, *backend, exactly_the_plan(bytes));
    auto client = make_transport("tcp");
    ClientSession session(*client, server.control(), options);
    const std::string bigger = error_of([&] { session.expose(bytes + 1, RegionPlace::device); });
    EXPECT_NE(bigger.find("at most 1048576 bytes a session (a run's own peer server: one region of the plan's 1048576 "
                          "bytes); 0 are exposed, 1048577 more asked"),
              std::string::npos)
        << bigger;
    PeerRegion region = session.expose(bytes, RegionPlace::device);
    const std::string second = error_of([&] { session.expose(1, RegionPlace::host); });
    EXPECT_NE(second.find("at most 1 regions (a run's own peer server"), std::string::npos) << second;
    session.fill(region, 0, bytes, 5);  // the session goes on with the one region it has
    EXPECT_FALSE(session.verify(region, 0, bytes, 5).has_value());
    session.finish();
    server.join();
  }
}

TEST(LinkJob, BadPlansAreRefusedBeforeAnythingStarts) {
  auto backend = make_cpu_backend();
  LinkPlan p = small_plan("tcp", RegionPlace::null, RegionPlace::host, true);
  EXPECT_THROW(test::run_job(p, &*backend), UsageError);
  p = small_plan("tcp", RegionPlace::host, RegionPlace::host, false);
  p.step = 1;
  EXPECT_THROW(test::run_job(p, &*backend), UsageError);
}

TEST(LinkJob, NoServerAtThePeerIsARunFailureNamingIt) {
  auto backend = make_cpu_backend();
  LinkPlan p = small_plan("tcp", RegionPlace::host, RegionPlace::host, false);
  p.peer = SocketAddress{"127.0.0.1", 9};  // discard: nothing listens there
  p.wait = std::chrono::seconds(1);
  const std::string message = error_of([&] { test::run_job(p, &*backend); });
  EXPECT_NE(message.find("127.0.0.1:9"), std::string::npos) << message;
}

}  // namespace
}  // namespace xb
