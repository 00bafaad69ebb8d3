// The fleet job's cases from hand-built figures, without MPI: a link case's bandwidth_p50 from known
// executions, the matrix case's metrics from known links and a known verdict, and the confirmation
// figure on exactly the links measured again. Every metric against an exact expected value (the
// histogram's percentiles within the error its layout guarantees), with its unit.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/histogram.hpp"
#include "core/matrix.hpp"
#include "jobs/fleet/fleet_cases.hpp"
#include "jobs/fleet/fleet_config.hpp"
#include "support/job_helpers.hpp"
#include "support/metric_checks.hpp"

namespace xb {
namespace {

using test::metric;

// A percentile is held to what the histogram's layout guarantees (1/128), not the 2% promised to
// users: a bound a bucket wide would let a read-back from the bucket's edge pass.
constexpr double kReadError = LatencyHistogram::kBucketReadError;

// Ranks whose host is unknown are named by address alone (the host form: NamesARankByHost).
const std::vector<FleetRank> kAddresses{{"", "10.0.0.1", "", ""}, {"", "10.0.0.2", "", ""}, {"", "10.0.0.3", "", ""}};

FleetPlan plan_of(std::uint64_t size) {
  FleetPlan p;
  p.base.size = size;
  p.base.executions = 5;
  p.base.warmup = 1;
  p.threshold = 0.8;
  p.transport = "tcp";
  return p;
}

ElapsedRecord elapsed_of(const std::vector<double>& us) {
  ElapsedRecord e;
  for (double v : us) e.add(v);
  return e;
}

// A link whose executions all took `us`: every percentile is then exactly `us` (clamped to min and
// max), so bandwidth_p50 is exactly size / us / 1e3.
CaseResult steady_link(int from, int to, double us) {
  return fleet_link_case(plan_of(1'000'000), "cpu", from, to, kAddresses, elapsed_of({us, us, us, us, us}));
}

// The six links of three ranks, sorted by (from, to) as the job gathers them: the first is neither
// the slowest nor the fastest, so a min or max that starts from the wrong value shows.
std::vector<CaseResult> three_rank_links() {
  return {steady_link(0, 1, 250),    // 4 GB/s
          steady_link(0, 2, 100),    // 10 GB/s: the fastest
          steady_link(1, 0, 1000),   // 1 GB/s: the slowest
          steady_link(1, 2, 400),    // 2.5 GB/s
          steady_link(2, 0, 200),    // 5 GB/s
          steady_link(2, 1, 500)};   // 2 GB/s
}

TEST(FleetCases, LinkBandwidthIsSizeOverTheMedianExecution) {
  // p50 (200 us) apart from the mean (340 us), the fastest and the slowest execution.
  const CaseResult c =
      fleet_link_case(plan_of(1'000'000), "cpu", 2, 0, kAddresses, elapsed_of({100, 200, 200, 200, 1000}));
  EXPECT_EQ(c.job, "fleet");
  EXPECT_EQ(c.name, "fleet_link");
  EXPECT_EQ(fleet_link_of(c), (std::pair{2, 0}));
  EXPECT_EQ(c.label("from"), "rank 2 (10.0.0.3)");
  EXPECT_EQ(c.label("to"), "rank 0 (10.0.0.1)");
  EXPECT_NEAR(metric(c, "elapsed_p50"), 200, 200 * kReadError);
  // The wiring exactly: the case's own p50, not its mean.
  EXPECT_DOUBLE_EQ(metric(c, "bandwidth_p50"), 1e6 / metric(c, "elapsed_p50") / 1e3);
  // 1 / p50 within 1/128 of 1 / 200 us: the bound of the inverse, 1/127.
  EXPECT_NEAR(metric(c, "bandwidth_p50"), 5.0, 5.0 * kReadError / (1 - kReadError));
  EXPECT_DOUBLE_EQ(fleet_link_gbps(c), metric(c, "bandwidth_p50"));
  // The p2p pair's own figures ride along: one direction, size per execution.
  EXPECT_DOUBLE_EQ(metric(c, "elapsed_avg"), 340);
  EXPECT_DOUBLE_EQ(metric(c, "bandwidth"), 1e6 / 340 / 1e3);
  EXPECT_DOUBLE_EQ(metric(c, "elapsed_min"), 100);
  EXPECT_DOUBLE_EQ(metric(c, "elapsed_max"), 1000);
  EXPECT_EQ(metric(c, "executions"), 5.0);
  test::expect_names_and_units(c.metrics, test::with_latencies({{"bandwidth_p50", "GB/s"},
                                                                {"bandwidth", "GB/s"},
                                                                {"bandwidth_gib", "GiB/s"}},
                                                               "elapsed", {{"executions", "executions"}}));
}

TEST(FleetCases, SteadyLinkBandwidthIsExact) {
  const CaseResult c = steady_link(0, 1, 250);
  EXPECT_DOUBLE_EQ(metric(c, "elapsed_p50"), 250);
  EXPECT_DOUBLE_EQ(metric(c, "bandwidth_p50"), 4.0);
  EXPECT_EQ(c.config.at("from_rank").get<int>(), 0);
  EXPECT_EQ(c.config.at("to_rank").get<int>(), 1);
}

TEST(FleetCases, MatrixMetricsFromItsLinksAndTheVerdict) {
  // The figures of three_rank_links().
  const std::vector<FleetLink> links{{0, 1, 4.0}, {0, 2, 10.0}, {1, 0, 1.0}, {1, 2, 2.5}, {2, 0, 5.0}, {2, 1, 2.0}};
  FleetVerdict verdict;
  verdict.median_gbps = 3.25;  // the median of the six links: (2.5 + 4) / 2
  verdict.threshold = 0.8;
  verdict.flagged = {{1, 0, 1.0}, {1, 2, 2.5}};
  verdict.cleared = {{2, 1, 2.0}};
  const CaseResult c = fleet_matrix_case(plan_of(1'000'000), kAddresses, links, verdict);
  EXPECT_EQ(c.job, "fleet");
  EXPECT_EQ(c.name, "fleet_matrix");
  EXPECT_EQ(metric(c, "links"), 6.0);
  EXPECT_DOUBLE_EQ(metric(c, "bandwidth_median"), 3.25);
  EXPECT_DOUBLE_EQ(metric(c, "bandwidth_min"), 1.0);
  EXPECT_DOUBLE_EQ(metric(c, "bandwidth_max"), 10.0);
  EXPECT_DOUBLE_EQ(metric(c, "threshold"), 0.8);
  EXPECT_EQ(metric(c, "flagged"), 2.0);
  EXPECT_EQ(metric(c, "cleared"), 1.0);
  test::expect_names_and_units(c.metrics, {{"links", "links"},
                   {"bandwidth_median", "GB/s"},
                   {"bandwidth_min", "GB/s"},
                   {"bandwidth_max", "GB/s"},
                   {"threshold", "x median"},
                   {"flagged", "links"},
                   {"cleared", "links"}});

  // Each link's bandwidth_p50 in its (from, to) cell; the diagonal is not measured.
  const auto m = case_matrix(c);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->unit, "GB/s");
  EXPECT_EQ(m->rows, (std::vector<std::string>{"rank 0 (10.0.0.1)", "rank 1 (10.0.0.2)", "rank 2 (10.0.0.3)"}));
  const double expected[3][3] = {{0, 4, 10}, {1, 0, 2.5}, {5, 2, 0}};
  for (int r = 0; r < 3; ++r) {
    for (int col = 0; col < 3; ++col) {
      const auto& cell = m->values.at(static_cast<std::size_t>(r)).at(static_cast<std::size_t>(col));
      if (r == col) {
        EXPECT_FALSE(cell.has_value()) << r;
        continue;
      }
      ASSERT_TRUE(cell.has_value()) << r << "," << col;
      EXPECT_DOUBLE_EQ(*cell, expected[r][col]) << r << "," << col;
    }
  }
  // The lists name their links, each with its share of the median.
  const auto& flagged = c.config.at("flagged");
  ASSERT_EQ(flagged.size(), 2u);
  EXPECT_EQ(flagged[0].at("from").get<std::string>(), "rank 1 (10.0.0.2)");
  EXPECT_EQ(flagged[0].at("to").get<std::string>(), "rank 0 (10.0.0.1)");
  EXPECT_DOUBLE_EQ(flagged[0].at("bandwidth").get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(flagged[0].at("of_median").get<double>(), 1.0 / 3.25);
  const auto& cleared = c.config.at("cleared");
  ASSERT_EQ(cleared.size(), 1u);
  EXPECT_EQ(cleared[0].at("from_rank").get<int>(), 2);
  EXPECT_EQ(cleared[0].at("to_rank").get<int>(), 1);
}

TEST(FleetCases, ConfirmationFigureOnExactlyTheLinksMeasuredAgain) {
  std::vector<CaseResult> links = three_rank_links();
  // Out of the links' order: each figure is matched to its link by both ends.
  attach_fleet_confirmation(links, {{2, 1, 3.0}, {1, 0, 0.9}});
  for (const CaseResult& c : links) {
    const auto link = fleet_link_of(c);
    SCOPED_TRACE(testing::Message() << link.first << "->" << link.second);
    const Metric* again = c.find_metric("bandwidth_p50_again");
    if (link == std::pair{1, 0} || link == std::pair{2, 1}) {
      ASSERT_NE(again, nullptr);
      const double expected = link == std::pair{1, 0} ? 0.9 : 3.0;
      EXPECT_DOUBLE_EQ(again->value, expected);
      EXPECT_EQ(again->unit, "GB/s");
      EXPECT_EQ(c.metrics.back().name, "bandwidth_p50_again") << "after the first measurement's figures";
      EXPECT_EQ(c.metrics.size(), 12u) << "one figure per measurement again";
    } else {
      EXPECT_EQ(again, nullptr) << "not measured again";
    }
  }
  // Measured again a second time (a group, then alone): the last figure replaces the first again.
  attach_fleet_confirmation(links, {{1, 0, 0.7}});
  for (const CaseResult& c : links) {
    if (fleet_link_of(c) != std::pair{1, 0}) continue;
    EXPECT_DOUBLE_EQ(c.find_metric("bandwidth_p50_again")->value, 0.7);
    EXPECT_EQ(c.metrics.size(), 12u);
  }
}

TEST(FleetCases, TheMatrixShowsTheLastFigureOfALinkMeasuredAgain) {
  std::vector<FleetLink> shown{{0, 1, 9.0}, {0, 2, 1.0}, {1, 0, 9.0}, {2, 0, 1.5}};
  fleet_show_again(shown, {{2, 0, 1.2}, {0, 2, 8.0}, {2, 1, 5.0}});  // 2 -> 1 was never shown: ignored
  fleet_show_again(shown, {{0, 2, 1.1}});                             // halved, measured alone: last word
  EXPECT_DOUBLE_EQ(shown[0].gbps, 9.0);
  EXPECT_DOUBLE_EQ(shown[1].gbps, 1.1);
  EXPECT_DOUBLE_EQ(shown[2].gbps, 9.0);
  EXPECT_DOUBLE_EQ(shown[3].gbps, 1.2);
  ASSERT_EQ(shown.size(), 4u);
  const auto m = case_matrix(fleet_matrix_case(plan_of(1'000'000), kAddresses, shown, FleetVerdict{}));
  ASSERT_TRUE(m.has_value());
  EXPECT_DOUBLE_EQ(m->values.at(0).at(2).value(), 1.1);
}

TEST(FleetCases, AMatrixAbove256RanksIsLeftOutAndSaidSo) {
  for (const int ranks : {kFleetMatrixMaxRanks, kFleetMatrixMaxRanks + 1}) {
    SCOPED_TRACE(ranks);
    std::vector<FleetRank> who;
    for (int r = 0; r < ranks; ++r) who.push_back({"", "10.0.0.1", "", ""});
    const std::vector<FleetLink> links{{0, 1, 4.0}, {1, 0, 2.0}};
    const CaseResult c = fleet_matrix_case(plan_of(1'000'000), who, links, FleetVerdict{});
    const auto config = c.config.get<FleetMatrixConfig>();
    EXPECT_EQ(c.find_metric("bandwidth_min")->value, 2.0);  // the metrics stand either way
    EXPECT_EQ(c.find_metric("bandwidth_max")->value, 4.0);
    if (ranks == kFleetMatrixMaxRanks) {
      ASSERT_TRUE(case_matrix(c).has_value());
      EXPECT_EQ(case_matrix(c)->values.at(1).at(0), 2.0);
      EXPECT_TRUE(config.matrix_left_out.empty());
    } else {
      EXPECT_FALSE(c.config.contains("matrix"));
      EXPECT_FALSE(case_matrix(c).has_value());
      EXPECT_EQ(config.matrix_left_out,
                "257 ranks: above 256 ranks the matrix (66049 cells) and the cases of links neither flagged nor "
                "cleared are left out; this case's metrics sum up every link");
    }
  }
}

TEST(FleetCases, NamesARankByHostAndKeepsWhatEachRankSaid) {
  EXPECT_EQ(fleet_rank_name(2, {"node-c", "10.98.0.3", "cuda::device::0 (NVIDIA H200)", "eth0: port at 400000 Mb/s"}),
            "rank 2 (node-c 10.98.0.3)");
  EXPECT_EQ(fleet_rank_name(2, {"", "10.98.0.3", "", ""}), "rank 2 (10.98.0.3)");
  std::vector<FleetRank> ranks = kAddresses;
  ranks[1] = {"node-b", "10.0.0.2", "cpu::device::0 (cpu arena 0)", "eth1: port speed not reported"};
  const CaseResult c = fleet_matrix_case(plan_of(1'000'000), ranks, std::vector<FleetLink>{}, FleetVerdict{});
  const auto config = c.config.get<FleetMatrixConfig>();
  ASSERT_EQ(config.rank_info.size(), 3u);
  EXPECT_EQ(config.rank_info[1].host, "node-b");
  EXPECT_EQ(config.rank_info[1].device, "cpu::device::0 (cpu arena 0)");
  EXPECT_EQ(config.rank_info[1].nic, "eth1: port speed not reported");
  EXPECT_EQ(case_matrix(c)->rows.at(1), "rank 1 (node-b 10.0.0.2)");
}

}  // namespace
}  // namespace xb
