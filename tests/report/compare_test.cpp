// compare's arithmetic: matching, the ratio's orientation per unit, the threshold, statuses,
// zeros, unit conversion, unmatched cases; repetitions pooled and a drop among them judged by
// Mann–Whitney; what is not a case's identity (a verdict, a client address) left out of matching.
#include "report/compare.hpp"

#include <gtest/gtest.h>

namespace xb {
namespace {

CaseResult io_case(const std::string& name, double gib_s, double p50_us) {
  CaseResult c;
  c.job = "io";
  c.name = name;
  c.labels = {{"rw", "read"}, {"io_size", "4K"}};
  c.metrics = {{"throughput", gib_s, "GiB/s", ""}, {"iops", gib_s * 262144, "IO/s", ""},
               {"ops", 1000, "IOs", ""},            {"bytes", 4096000, "B", ""},
               {"latency_min", p50_us / 2, "us", ""}, {"latency_avg", p50_us, "us", ""},
               {"latency_p50", p50_us, "us", ""},     {"latency_p99.9", p50_us * 10, "us", ""},
               {"latency_max", p50_us * 100, "us", ""}, {"wall_time", 1, "s", ""}};
  return c;
}

ResultDocument doc_of(std::vector<CaseResult> cases) {
  ResultDocument d;
  d.cases = std::move(cases);
  return d;
}

CompareResult compare_results(const ResultDocument& base, const ResultDocument& now, double threshold) {
  return xb::compare_results(std::vector<ResultDocument>{base}, std::vector<ResultDocument>{now},
                             CompareOptions{threshold, 0.05});
}

const CompareRow* row(const CompareResult& r, const std::string& metric, std::size_t nth = 0) {
  for (const auto& x : r.rows) {
    if (x.metric == metric && nth-- == 0) return &x;
  }
  return nullptr;
}

TEST(Compare, AnEqualRunHasRatiosOfOneAndNothingBelow) {
  const auto d = doc_of({io_case("a", 2, 30), io_case("b", 1, 50)});
  const CompareResult r = compare_results(d, d, 0.9);
  EXPECT_EQ(r.below, 0u);
  EXPECT_TRUE(r.only_in_base.empty());
  EXPECT_TRUE(r.only_in_new.empty());
  // Gated per case: throughput, iops (higher), latency_avg, latency_p50 (lower); not ops, bytes,
  // min, max, p99.9 or wall_time.
  ASSERT_EQ(r.rows.size(), 8u);
  for (const auto& x : r.rows) {
    ASSERT_TRUE(x.ratio) << x.metric;
    EXPECT_DOUBLE_EQ(*x.ratio, 1.0);
    EXPECT_FALSE(x.below);
  }
  EXPECT_EQ(row(r, "throughput")->better, Better::higher);
  EXPECT_EQ(row(r, "latency_p50")->better, Better::lower);
  EXPECT_EQ(row(r, "latency_max"), nullptr);
  EXPECT_EQ(row(r, "wall_time"), nullptr);
}

TEST(Compare, HalfTheBandwidthAndTwiceTheLatencyAreBothRatioOneHalf) {
  const CompareResult r =
      compare_results(doc_of({io_case("a", 2, 30)}), doc_of({io_case("a", 1, 60)}), 0.9);
  EXPECT_DOUBLE_EQ(*row(r, "throughput")->ratio, 0.5);
  EXPECT_DOUBLE_EQ(*row(r, "latency_p50")->ratio, 0.5);
  EXPECT_TRUE(row(r, "throughput")->below);
  EXPECT_TRUE(row(r, "latency_p50")->below);
  EXPECT_EQ(r.below, 4u);
}

TEST(Compare, ImprovementsAreAboveOne) {
  const CompareResult r =
      compare_results(doc_of({io_case("a", 1, 60)}), doc_of({io_case("a", 2, 30)}), 0.9);
  EXPECT_DOUBLE_EQ(*row(r, "throughput")->ratio, 2.0);
  EXPECT_DOUBLE_EQ(*row(r, "latency_avg")->ratio, 2.0);
  EXPECT_EQ(r.below, 0u);
}

TEST(Compare, TheThresholdItselfPasses) {
  const CompareResult r = compare_results(doc_of({io_case("a", 1, 30)}), doc_of({io_case("a", 0.75, 40)}), 0.75);
  EXPECT_DOUBLE_EQ(*row(r, "throughput")->ratio, 0.75);
  EXPECT_FALSE(row(r, "throughput")->below);
  EXPECT_EQ(r.below, 0u);
  // Above 1, the gate asks for an improvement.
  EXPECT_EQ(compare_results(doc_of({io_case("a", 1, 30)}), doc_of({io_case("a", 1, 30)}), 1.1).below, 4u);
}

TEST(Compare, CasesMatchByJobNameAndLabels) {
  CaseResult other_labels = io_case("a", 1, 30);
  other_labels.labels[0].second = "write";
  CaseResult other_job = io_case("a", 1, 30);
  other_job.job = "kv";
  const CompareResult r = compare_results(doc_of({io_case("a", 1, 30), io_case("gone", 1, 30)}),
                                          doc_of({other_labels, other_job, io_case("a", 1, 30)}), 0.9);
  ASSERT_EQ(r.only_in_base.size(), 1u);
  EXPECT_EQ(r.only_in_base[0].name, "gone");
  ASSERT_EQ(r.only_in_new.size(), 2u);
  EXPECT_EQ(r.only_in_new[0].labels[0].second, "write");
  EXPECT_EQ(r.only_in_new[1].job, "kv");
  EXPECT_EQ(r.rows.size(), 4u);
  EXPECT_EQ(r.below, 0u);
}

TEST(Compare, RepeatedCasesArePooledAsRepetitionsAndTheirMediansCompared) {
  // Two repetitions a side, whichever documents they come from: one row, the medians' ratio, a p.
  const CompareResult r = compare_results(doc_of({io_case("a", 1, 30), io_case("a", 2, 30)}),
                                          doc_of({io_case("a", 1, 30), io_case("a", 1, 30)}), 0.9);
  ASSERT_EQ(row(r, "throughput", 1), nullptr);
  EXPECT_DOUBLE_EQ(*row(r, "throughput")->ratio, 1.0 / 1.5);
  EXPECT_EQ(row(r, "throughput")->base_runs, 2u);
  EXPECT_EQ(row(r, "throughput")->new_runs, 2u);
  ASSERT_TRUE(row(r, "throughput")->p_value);
  // 2 + 2 runs cannot reach 5% whatever the difference: the threshold decides, as with one run.
  EXPECT_TRUE(row(r, "throughput")->below);
  EXPECT_EQ(row(r, "throughput")->note, "2 + 2 runs cannot reach p < 0.05: the threshold decides");
}

TEST(Compare, ANewRunThatLostThePathIsBelowEvenWhenOthersPassed) {
  CaseResult failed = io_case("a", 0, 0);
  failed.status = CaseStatus::failed;
  failed.status_reason = "open failed";
  const CompareResult r = compare_results(doc_of({io_case("a", 1, 30), io_case("a", 1, 30)}),
                                          doc_of({io_case("a", 1, 30), failed}), 0.9);
  ASSERT_FALSE(r.rows.empty());
  EXPECT_TRUE(r.rows[0].metric.empty());
  EXPECT_TRUE(r.rows[0].below);
  EXPECT_EQ(r.rows[0].note, "1 of 2 runs failed in NEW (open failed)");
  EXPECT_TRUE(r.failed());
}

TEST(Compare, WithRepetitionsADropMustBeSignificant) {
  std::vector<ResultDocument> base, steady, slower, noisy;
  const double base_gib[] = {10.0, 10.1, 9.9, 10.2, 9.8};
  const double slower_gib[] = {8.0, 8.1, 7.9, 8.2, 7.8};
  const double noisy_gib[] = {8.5, 11.0, 7.0, 10.5, 8.9};  // median 8.9: below 0.9 × 10, but overlapping
  for (int i = 0; i < 5; ++i) {
    base.push_back(doc_of({io_case("a", base_gib[i], 30)}));
    steady.push_back(doc_of({io_case("a", base_gib[4 - i], 30)}));
    slower.push_back(doc_of({io_case("a", slower_gib[i], 30)}));
    noisy.push_back(doc_of({io_case("a", noisy_gib[i], 30)}));
  }
  const CompareOptions options{0.9, 0.05};
  CompareResult r = xb::compare_results(base, slower, options);
  const CompareRow* t = row(r, "throughput");
  EXPECT_NEAR(*t->ratio, 0.8, 1e-12);
  EXPECT_NEAR(*t->p_value, 2.0 / 252, 1e-12);  // complete separation, 5 + 5
  EXPECT_TRUE(t->below);
  EXPECT_TRUE(r.failed());

  r = xb::compare_results(base, noisy, options);
  t = row(r, "throughput");
  EXPECT_LT(*t->ratio, 0.9);
  EXPECT_GT(*t->p_value, 0.05);
  EXPECT_FALSE(t->below) << t->note;
  EXPECT_FALSE(r.failed());

  r = xb::compare_results(base, steady, options);
  EXPECT_DOUBLE_EQ(*row(r, "throughput")->ratio, 1.0);
  EXPECT_FALSE(r.failed());
}

TEST(Compare, AFleetLinkThatTurnedSlowIsMatchedNotHiddenByItsVerdict) {
  CaseResult ok = io_case("link_0_1", 1, 30), slow = io_case("link_0_1", 0.5, 30);
  ok.job = slow.job = "fleet";
  ok.labels = {{"from", "0"}, {"to", "1"}, {"verdict", "ok"}};
  slow.labels = {{"from", "0"}, {"to", "1"}, {"verdict", "slow"}};
  const CompareResult r = compare_results(doc_of({ok}), doc_of({slow}), 0.9);
  EXPECT_TRUE(r.only_in_base.empty());
  EXPECT_TRUE(r.only_in_new.empty());
  EXPECT_EQ(r.matched, 1u);
  EXPECT_TRUE(row(r, "throughput")->below);
  EXPECT_EQ(row(r, "throughput")->key.labels, (std::vector<std::pair<std::string, std::string>>{{"from", "0"}, {"to", "1"}}));
  // An xfer server's client address is the run's, not the case's.
  CaseResult a = io_case("server", 1, 30), b = io_case("server", 1, 30);
  a.labels = {{"role", "server"}, {"client", "127.0.0.1:40001"}};
  b.labels = {{"role", "server"}, {"client", "127.0.0.1:51234"}};
  EXPECT_EQ(compare_results(doc_of({a}), doc_of({b}), 0.9).matched, 1u);
}

TEST(Compare, NothingMatchedOrACaseGoneFailsTheGate) {
  const CompareResult none = compare_results(doc_of({io_case("a", 1, 30)}), doc_of({io_case("b", 1, 30)}), 0.9);
  EXPECT_EQ(none.matched, 0u);
  EXPECT_EQ(none.below, 0u);
  EXPECT_TRUE(none.failed());
  const CompareResult gone =
      compare_results(doc_of({io_case("a", 1, 30), io_case("b", 1, 30)}), doc_of({io_case("a", 1, 30)}), 0.9);
  EXPECT_EQ(gone.matched, 1u);
  EXPECT_EQ(gone.only_in_base.size(), 1u);
  EXPECT_TRUE(gone.failed());
  // A case new in NEW is listed, not a failure.
  const CompareResult added =
      compare_results(doc_of({io_case("a", 1, 30)}), doc_of({io_case("a", 1, 30), io_case("b", 1, 30)}), 0.9);
  EXPECT_EQ(added.only_in_new.size(), 1u);
  EXPECT_FALSE(added.failed());
}

TEST(Compare, APathLostInNewIsBelowAndOneMissingInBaseIsNotCompared) {
  CaseResult failed = io_case("a", 0, 0);
  failed.status = CaseStatus::failed;
  failed.status_reason = "open failed";
  CaseResult waived = io_case("b", 0, 0);
  waived.status = CaseStatus::waived;
  waived.status_reason = "no GPU";
  const CompareResult r = compare_results(doc_of({io_case("a", 1, 30), waived}), doc_of({failed, io_case("b", 1, 30)}), 0.9);
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_TRUE(r.rows[0].below);
  EXPECT_EQ(r.rows[0].note, "failed in NEW (open failed)");
  EXPECT_FALSE(r.rows[1].below);
  EXPECT_EQ(r.rows[1].note, "waived in BASE (no GPU): not compared");
  EXPECT_EQ(r.below, 1u);
}

TEST(Compare, ZerosAndUnits) {
  CaseResult base = io_case("a", 0, 30);
  CaseResult now = io_case("a", 0, 0);
  base.metrics.push_back({"bandwidth", 1.073741824, "GB/s", ""});
  now.metrics.push_back({"bandwidth", 0.5, "GiB/s", ""});
  base.metrics.push_back({"rate", 10, "blocks/s", ""});
  now.metrics.push_back({"rate", 0, "transfers/s", ""});
  const CompareResult r = compare_results(doc_of({base}), doc_of({now}), 0.9);
  // 0 -> 0 is no change; a latency of 0 in NEW cannot be a drop.
  EXPECT_DOUBLE_EQ(*row(r, "throughput")->ratio, 1.0);
  EXPECT_FALSE(row(r, "latency_p50")->ratio);
  EXPECT_EQ(row(r, "latency_p50")->note, "NEW is 0");
  EXPECT_FALSE(row(r, "latency_p50")->below);
  // GiB/s against GB/s: converted into BASE's unit.
  EXPECT_NEAR(*row(r, "bandwidth")->now, 0.536870912, 1e-12);
  EXPECT_NEAR(*row(r, "bandwidth")->ratio, 0.5, 1e-12);
  // Units that cannot be converted are not compared.
  EXPECT_FALSE(row(r, "rate")->ratio);
  EXPECT_NE(row(r, "rate")->note.find("transfers/s"), std::string::npos);
}

// Every repetition of BASE in BASE's first unit, whatever unit it was written in; MB is 10^6
// bytes, MiB 2^20, Gb 10^9 bits: three ways of writing 1000 MB/s.
TEST(Compare, EveryRepetitionIsInTheFirstsUnitAndMegabytesAreDecimal) {
  const auto at = [](double value, const char* unit) {
    CaseResult c = io_case("a", 0, 0);
    c.metrics = {{"bandwidth", value, unit, ""}};
    return c;
  };
  const CompareResult r = compare_results(doc_of({at(1000, "MB/s"), at(1e9 / 1048576.0, "MiB/s"), at(8, "Gb/s")}),
                                          doc_of({at(500, "MB/s"), at(0.5, "GB/s")}), 0.9);
  const CompareRow* b = row(r, "bandwidth");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->base_runs, 3u);
  EXPECT_EQ(b->new_runs, 2u);
  EXPECT_NEAR(*b->base, 1000, 1e-9);
  EXPECT_NEAR(*b->now, 500, 1e-9);
  EXPECT_NEAR(*b->ratio, 0.5, 1e-12);
}

TEST(Compare, GatedMetricsByUnitAndName) {
  EXPECT_EQ(gated_direction({"throughput", 1, "GiB/s", ""}), Better::higher);
  EXPECT_EQ(gated_direction({"bandwidth", 1, "Gb/s", ""}), Better::higher);
  EXPECT_EQ(gated_direction({"blocks_per_s", 1, "blocks/s", ""}), Better::higher);
  EXPECT_EQ(gated_direction({"latency_avg", 1, "us", ""}), Better::lower);
  EXPECT_EQ(gated_direction({"latency_p99", 1, "ns", ""}), Better::lower);
  EXPECT_FALSE(gated_direction({"latency_p99.9", 1, "us", ""}));
  EXPECT_FALSE(gated_direction({"latency_max", 1, "us", ""}));
  EXPECT_FALSE(gated_direction({"latency_min", 1, "us", ""}));
  EXPECT_FALSE(gated_direction({"time_cost", 1, "us", ""}));
  EXPECT_FALSE(gated_direction({"cpu_user", 1, "%", ""}));
  EXPECT_FALSE(gated_direction({"latency_p50", 1, "B", ""}));
}

}  // namespace
}  // namespace xb
