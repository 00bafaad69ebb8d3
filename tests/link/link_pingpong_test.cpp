// Ping-pong over real transports on loopback (link --pingpong, transport/pingpong.hpp): a server
// thread answers each put with a put of the same bytes, round after round, and its session goes on
// after; what it cannot answer from (device memory, a reply region too small, no bytes) is refused
// with the reason; a round it does not answer ends the client's wait naming the round; the link
// job's ping-pong cases are named and measured apart from put + flush. Timings are never asserted.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "core/error.hpp"
#include "jobs/endpoint/endpoint_memory.hpp"
#include "jobs/endpoint/peer_server.hpp"
#include "jobs/link/link_config.hpp"
#include "jobs/link/link_job.hpp"
#include "support/job_helpers.hpp"
#include "support/metric_checks.hpp"
#include "support/run_job.hpp"
#include "support/text_checks.hpp"
#include "transport/pingpong.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

using test::error_of;
using test::has_transport;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr std::uint64_t kRound = 4099;  // odd: the pattern's last word is a partial one
constexpr std::uint64_t kPingSeed = 77;

// A client's side of a session with a server thread of its own, ready to play rounds.
struct PingPongClient {
  std::unique_ptr<Backend> backend = make_cpu_backend();
  std::unique_ptr<Device> device = backend->open_device(0);
  std::unique_ptr<Transport> transport;
  std::unique_ptr<EndpointMemory> src, reply;
  std::unique_ptr<LocalRegion> src_owned, reply_owned;
  std::unique_ptr<PeerServerThread> server;
  std::unique_ptr<ClientSession> session;

  explicit PingPongClient(const std::string& name) : transport(make_transport(name)) {
    src = EndpointMemory::make(*backend, *device, RegionPlace::host, kRound, *transport);
    reply = EndpointMemory::make(*backend, *device, RegionPlace::host, kRound, *transport);
    if (src->registration() == nullptr) src_owned = transport->register_memory(src->data(), src->size());
    if (reply->registration() == nullptr) reply_owned = transport->register_memory(reply->data(), reply->size());
    server = std::make_unique<PeerServerThread>("127.0.0.1", name, "t", std::chrono::seconds(20), 0, *backend,
                                                SessionCaps{});
    SessionOptions options;
    options.token = "t";
    session = std::make_unique<ClientSession>(*transport, server->control(), options);
  }
  const LocalRegion& src_region() const { return src_owned ? *src_owned : *src->registration(); }
  const LocalRegion& reply_region() const { return reply_owned ? *reply_owned : *reply->registration(); }
  void end() {
    session->finish();
    server->join();
  }
};

std::unique_ptr<PingPongClient> client_or_skip(const std::string& name) {
  if (!has_transport(name)) return nullptr;
  try {
    return std::make_unique<PingPongClient>(name);
  } catch (const Unavailable&) {
    return nullptr;
  }
}

class PingPong : public ::testing::TestWithParam<std::string> {};

// 600 rounds (the sequence number wraps past 255 twice): each answered, and the answer is the
// bytes that were put, the last one the round's number; the session goes on after the rounds.
TEST_P(PingPong, EachRoundIsAnsweredWithTheBytesPut) {
  auto c = client_or_skip(GetParam());
  if (!c) GTEST_SKIP() << GetParam() << " cannot start here";
  PeerRegion dst = c->session->expose(kRound, RegionPlace::host);
  c->src->fill(0, kRound, kPingSeed);
  write_last_byte(c->reply->data(), kRound, 0);
  c->session->start_answering(dst, c->reply_region(), kRound);
  Endpoint& ep = c->session->endpoint();
  for (std::uint64_t round = 0; round < 600; ++round) {
    const std::uint8_t sequence = pingpong_sequence(round);
    ASSERT_NE(sequence, 0);
    write_last_byte(c->src->data(), kRound, sequence);
    ep.put(c->src_region(), 0, *dst.remote, 0, kRound);
    ASSERT_NO_THROW(await_pingpong_answer(*c->transport, c->reply->data(), kRound, sequence,
                                          std::chrono::seconds(20), "test server", round));
    ASSERT_EQ(read_last_byte(c->reply->data(), kRound), sequence) << round;
  }
  EXPECT_EQ(pingpong_sequence(254), 255);
  EXPECT_EQ(pingpong_sequence(255), 1) << "0 is never a round's number";
  c->session->end_answering();
  ep.flush(std::chrono::seconds(20));
  EXPECT_EQ(c->reply->verify(0, kRound - 1, kPingSeed), std::nullopt) << "the answer is what was put";
  EXPECT_EQ(c->session->verify(dst, 0, kRound - 1, kPingSeed), std::nullopt);
  EXPECT_EQ(c->session->verify(dst, 0, kRound - 1, kPingSeed + 1), std::optional<std::uint64_t>(0));
  c->session->fill(dst, 0, kRound, 5);  // the session goes on
  EXPECT_EQ(c->session->verify(dst, 0, kRound, 5), std::nullopt);
  c->end();
}

// A put whose last byte is not the round's number goes unanswered: the client's wait ends naming
// the round, and the server still ends the ping-pong and the session when told.
TEST_P(PingPong, ARoundNotAnsweredEndsTheWaitNamingIt) {
  auto c = client_or_skip(GetParam());
  if (!c) GTEST_SKIP() << GetParam() << " cannot start here";
  PeerRegion dst = c->session->expose(kRound, RegionPlace::host);
  write_last_byte(c->reply->data(), kRound, 0);
  c->session->start_answering(dst, c->reply_region(), kRound);
  write_last_byte(c->src->data(), kRound, pingpong_sequence(1));  // round 1's number for round 0
  c->session->endpoint().put(c->src_region(), 0, *dst.remote, 0, kRound);
  const std::string why = error_of([&] {
    await_pingpong_answer(*c->transport, c->reply->data(), kRound, pingpong_sequence(0), std::chrono::milliseconds(300),
                          "test server", 0);
  });
  EXPECT_TRUE(has(why, "ping-pong: peer test server did not answer round 0 (4099 bytes) within 300 ms"))
      << why;
  EXPECT_EQ(read_last_byte(c->reply->data(), kRound), 0) << "nothing was put back";
  c->session->end_answering();
  c->end();
}

// What the server cannot answer from, or into, is refused with the reason; the session goes on.
TEST_P(PingPong, WhatCannotBeAnsweredIsRefusedWithTheReason) {
  auto c = client_or_skip(GetParam());
  if (!c) GTEST_SKIP() << GetParam() << " cannot start here";
  PeerRegion device = c->session->expose(kRound, RegionPlace::device);
  PeerRegion host = c->session->expose(kRound, RegionPlace::host);
  const std::string from_device = error_of([&] { c->session->start_answering(device, c->reply_region(), kRound); });
  EXPECT_TRUE(has(from_device, "region 1 is device memory; a ping-pong is answered from host memory only"))
      << from_device;
  std::vector<std::byte> small(16);
  const auto small_region = c->transport->register_memory(small.data(), small.size());
  const std::string too_small = error_of([&] { c->session->start_answering(host, *small_region, kRound); });
  EXPECT_TRUE(has(too_small, "the client's region holds 16 bytes, less than the 4099 of a round"))
      << too_small;
  const std::string empty = error_of([&] { c->session->start_answering(host, c->reply_region(), 0); });
  EXPECT_TRUE(has(empty, "a ping-pong message has at least 1 byte")) << empty;
  c->session->fill(host, 0, kRound, 9);
  EXPECT_EQ(c->session->verify(host, 0, kRound, 9), std::nullopt);
  c->end();
}

INSTANTIATE_TEST_SUITE_P(Transports, PingPong, ::testing::Values("tcp", "ucx"));

// The link job's ping-pong: its cases named apart (link_pingpong_…), half_rtt_* instead of
// latency_*, one sample a round, data checked at both ends, the config saying so.
TEST(LinkPingPong, CasesAreNamedAndMeasuredApartFromPutAndFlush) {
  for (const std::string transport : {"tcp", "ucx"}) {
    SCOPED_TRACE(transport);
    if (!has_transport(transport)) continue;
    auto backend = make_cpu_backend();
    LinkPlan p;
    p.transport = transport;
    p.pingpong = true;
    p.check = true;
    p.min_bytes = 1;
    p.max_bytes = 4096;
    p.step = 8;  // 1, 8, 64, 512, 4096
    p.iterations = 50;
    p.warmup = 3;
    p.token = "t";
    std::vector<CaseResult> results;
    try {
      results = test::run_job(p, &*backend);
    } catch (const Unavailable&) {
      continue;
    }
    ASSERT_EQ(results.size(), 5u);
    std::uint64_t bytes = 1;
    for (const CaseResult& r : results) {
      SCOPED_TRACE(r.name);
      EXPECT_EQ(r.name, "link_pingpong_host_host_" + std::to_string(bytes));
      test::expect_names_and_units(r.metrics, {{"half_rtt_avg", "us"},
                                               {"half_rtt_min", "us"},
                                               {"half_rtt_max", "us"},
                                               {"bandwidth", "Gb/s"},
                                               {"iterations", "rounds"}});
      const Series* half = r.find_series("half_rtt");
      ASSERT_NE(half, nullptr);
      ASSERT_EQ(half->samples.size(), p.iterations);
      EXPECT_DOUBLE_EQ(test::metric(r, "half_rtt_avg"), half->summary.avg);
      EXPECT_DOUBLE_EQ(test::metric(r, "bandwidth"), link_bandwidth_gbps(bytes, half->summary.avg));
      EXPECT_EQ(r.config.at("pingpong"), true);
      EXPECT_TRUE(has(r.config.at("timing").get<std::string>(), "halved (half the round trip)"));
      EXPECT_EQ(nlohmann::json(r.config.get<LinkConfig>()), r.config);
      bytes *= 8;
    }
  }
}

// Without --pingpong the config carries no pingpong key and the case keeps its name.
TEST(LinkPingPong, PutAndFlushCasesSayNothingOfIt) {
  auto backend = make_cpu_backend();
  LinkPlan p;
  p.transport = "tcp";
  p.min_bytes = p.max_bytes = 64;
  p.iterations = 3;
  p.warmup = 0;
  p.token = "t";
  const auto results = test::run_job(p, &*backend);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].name, "link_host_host_64");
  EXPECT_FALSE(results[0].config.contains("pingpong")) << results[0].config.dump();
  EXPECT_NE(results[0].find_metric("latency_avg"), nullptr);
  EXPECT_EQ(results[0].find_metric("half_rtt_avg"), nullptr);
}

}  // namespace
}  // namespace xb
