// The result document (src/core/result.hpp): to_json then result_from_json gives back every field,
// and documents of another kind or version are refused with a message that says why.
#include <gtest/gtest.h>

#include <string>

#include "core/metric_units.hpp"
#include "core/result.hpp"
#include "core/run_environment.hpp"

namespace xb {
namespace {

using nlohmann::json;

void expect_same_series(const Series& a, const Series& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.unit, b.unit);
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.summary.count, b.summary.count);
  EXPECT_DOUBLE_EQ(a.summary.min, b.summary.min);
  EXPECT_DOUBLE_EQ(a.summary.max, b.summary.max);
  EXPECT_DOUBLE_EQ(a.summary.avg, b.summary.avg);
  EXPECT_DOUBLE_EQ(a.summary.p50, b.summary.p50);
  EXPECT_DOUBLE_EQ(a.summary.p90, b.summary.p90);
  EXPECT_DOUBLE_EQ(a.summary.p99, b.summary.p99);
  EXPECT_DOUBLE_EQ(a.summary.stddev, b.summary.stddev);
}

ResultDocument sample_document() {
  ResultDocument doc;
  doc.program_version = "0.1.0-test";
  doc.started_at = "2026-11-29T19:49:33Z";
  doc.machine = {"node17", "Linux 6.18.0 x86_64", "Some CPU @ 2.0GHz", 96, 2, std::uint64_t{1} << 40};
  doc.command_line = {"xferbench", "copy", "-s", "16K", "--label", "a,b \"c\""};
  doc.environment = {{"UCX_TLS", "rc,sm"}, {"XFERBENCH_CUDA_BATCH", "0"}};

  CaseResult ok;
  ok.job = "copy";
  ok.name = "h2d_pinned_per_device_memcpy";
  ok.title = "copy cpu::host::all -> cpu::device::all";
  ok.labels = {{"from", "cpu::host::all"}, {"to", "cpu::device::all"}, {"method", "memcpy-x4"}, {"size", "16K"},
               {"count", "1024"}};
  ok.config = {{"block_bytes", 16384}, {"blocks", 512}, {"verify", true}, {"engine", "memcpy"}, {"seed", 0x78666572}};
  ok.series = {make_series("submit", "us", {3.5, 1.25, 2.0}), make_series("copy", "us", {10.0, 12.5, 11.0})};
  ok.ranks = {{0, "cpu arena 0 (NUMA node 0)", {make_series("copy", "us", {10.0, 12.0, 11.0})}},
              {1, "cpu arena 1 (NUMA node 0)", {make_series("copy", "us", {9.5, 12.5, 10.0})}}};
  ok.metrics = {{"bandwidth", 12.345678901234, "GiB/s", "block_bytes * count / copy.avg"},
                {"bandwidth_decimal", 13.25, "GB/s", "decimal"}};
  doc.cases.push_back(ok);

  CaseResult waived;
  waived.job = "copy";
  waived.name = "h2d_hugepage_per_device_memcpy";
  waived.status = CaseStatus::waived;
  waived.status_reason = "huge pages: none reserved";
  doc.cases.push_back(waived);

  CaseResult failed = waived;
  failed.name = "d2h_pinned";
  failed.status = CaseStatus::failed;
  failed.status_reason = "verify failed at offset 17";
  doc.cases.push_back(failed);
  return doc;
}

TEST(ResultJson, RoundTripPreservesEveryField) {
  const ResultDocument in = sample_document();
  // Through text, as a file would carry it.
  const ResultDocument out = result_from_json(json::parse(to_json(in).dump()));

  EXPECT_EQ(out.schema_version, kResultSchemaVersion);
  EXPECT_EQ(out.program_version, in.program_version);
  EXPECT_EQ(out.started_at, in.started_at);
  EXPECT_EQ(out.machine.hostname, in.machine.hostname);
  EXPECT_EQ(out.machine.kernel, in.machine.kernel);
  EXPECT_EQ(out.machine.cpu_model, in.machine.cpu_model);
  EXPECT_EQ(out.machine.logical_cpus, in.machine.logical_cpus);
  EXPECT_EQ(out.machine.numa_nodes, in.machine.numa_nodes);
  EXPECT_EQ(out.machine.memory_bytes, in.machine.memory_bytes);
  EXPECT_EQ(out.command_line, in.command_line);
  EXPECT_EQ(out.environment, in.environment);

  ASSERT_EQ(out.cases.size(), in.cases.size());
  for (std::size_t i = 0; i < in.cases.size(); ++i) {
    SCOPED_TRACE("case " + in.cases[i].name);
    const CaseResult& a = in.cases[i];
    const CaseResult& b = out.cases[i];
    EXPECT_EQ(b.job, a.job);
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.title, a.title);
    EXPECT_EQ(b.status, a.status);
    EXPECT_EQ(b.status_reason, a.status_reason);
    EXPECT_EQ(b.labels, a.labels);  // order kept
    if (a.config.is_null()) {
      EXPECT_TRUE(b.config.is_null() || b.config.empty());
    } else {
      EXPECT_EQ(b.config, a.config);
    }
    ASSERT_EQ(b.series.size(), a.series.size());
    for (std::size_t s = 0; s < a.series.size(); ++s) expect_same_series(a.series[s], b.series[s]);
    ASSERT_EQ(b.ranks.size(), a.ranks.size());
    for (std::size_t r = 0; r < a.ranks.size(); ++r) {
      EXPECT_EQ(b.ranks[r].rank, a.ranks[r].rank);
      EXPECT_EQ(b.ranks[r].device, a.ranks[r].device);
      ASSERT_EQ(b.ranks[r].series.size(), a.ranks[r].series.size());
      for (std::size_t s = 0; s < a.ranks[r].series.size(); ++s) {
        expect_same_series(a.ranks[r].series[s], b.ranks[r].series[s]);
      }
    }
    ASSERT_EQ(b.metrics.size(), a.metrics.size());
    for (std::size_t m = 0; m < a.metrics.size(); ++m) {
      EXPECT_EQ(b.metrics[m].name, a.metrics[m].name);
      EXPECT_DOUBLE_EQ(b.metrics[m].value, a.metrics[m].value);
      EXPECT_EQ(b.metrics[m].unit, a.metrics[m].unit);
      EXPECT_EQ(b.metrics[m].formula, a.metrics[m].formula);
    }
  }
  // The accessors read the restored case.
  const CaseResult& c = out.cases[0];
  ASSERT_NE(c.find_series("copy"), nullptr);
  EXPECT_DOUBLE_EQ(c.find_series("copy")->summary.avg, (10.0 + 12.5 + 11.0) / 3);
  ASSERT_NE(c.find_metric("bandwidth"), nullptr);
  EXPECT_EQ(c.label("to"), "cpu::device::all");
  EXPECT_EQ(c.label("nope"), "");
  EXPECT_EQ(c.find_series("nope"), nullptr);
}

// What a run records of its environment: the variables that change what it does, sorted, a secret
// as set but never its value; everything else left out. A document without the key reads as empty.
TEST(RunEnvironment, RecordsTheSwitchesSortedAndNeverASecret) {
  const char* env[] = {"PATH=/usr/bin",
                       "XFERBENCH_TOKEN=s3cret-value",
                       "UCX_TLS=tcp",
                       "XFERBENCH_CUDA_BATCH=0",
                       "CUDA_VISIBLE_DEVICES=1,0",
                       "HOME=/root",
                       "UCXX_NOT_UCX=1",
                       "XFERBENCH_TOKEN_FILE=/etc/xferbench/token",
                       "HCCL_INTRA_ROCE_ENABLE=1",
                       "ASCEND_HOME_PATH=/usr/local/Ascend/cann",
                       "LD_LIBRARY_PATH=/opt/hpcx/lib",
                       "CUFILE_FORCE_COMPAT_MODE=true",
                       "OMPI_COMM_WORLD_SIZE=2",
                       "NO_EQUALS_SIGN",
                       "=value-without-name",
                       nullptr};
  const auto got = run_environment(env);
  const std::vector<std::pair<std::string, std::string>> want{{"ASCEND_HOME_PATH", "/usr/local/Ascend/cann"},
                                                              {"CUDA_VISIBLE_DEVICES", "1,0"},
                                                              {"CUFILE_FORCE_COMPAT_MODE", "true"},
                                                              {"HCCL_INTRA_ROCE_ENABLE", "1"},
                                                              {"LD_LIBRARY_PATH", "/opt/hpcx/lib"},
                                                              {"UCX_TLS", "tcp"},
                                                              {"XFERBENCH_CUDA_BATCH", "0"},
                                                              {"XFERBENCH_TOKEN", kSecretNotRecorded},
                                                              {"XFERBENCH_TOKEN_FILE", "/etc/xferbench/token"}};
  EXPECT_EQ(got, want);
  for (const auto& [name, value] : got) EXPECT_EQ(value.find("s3cret"), std::string::npos) << name;
  EXPECT_TRUE(run_environment(nullptr).empty());

  json j = to_json(sample_document());
  EXPECT_EQ(j.at("environment").at("UCX_TLS"), "rc,sm");
  j.erase("environment");
  EXPECT_TRUE(result_from_json(j).environment.empty());
}

TEST(ResultJson, DocumentNamesItsSchemaAndVersion) {
  const json j = to_json(sample_document());
  EXPECT_EQ(j.at("schema"), kResultSchemaName);
  EXPECT_EQ(j.at("schema_version"), kResultSchemaVersion);
  EXPECT_EQ(j.at("program").at("name"), "xferbench");
  EXPECT_EQ(j.at("cases").at(1).at("status"), "waived");
  EXPECT_EQ(j.at("cases").at(2).at("status"), "failed");
}

// A case waived before its plan was resolved has no config: the document still holds an object
// (schemas/xferbench.result.v1 requires one).
TEST(ResultJson, ACaseWithoutConfigWritesAnEmptyObject) {
  ResultDocument doc = sample_document();
  CaseResult waived;
  waived.job = "p2p";
  waived.name = "p2p_unidirectional";
  waived.status = CaseStatus::waived;
  waived.status_reason = "no peer access";
  doc.cases.push_back(waived);
  const json j = to_json(doc);
  EXPECT_TRUE(j.at("cases").back().at("config").is_object()) << j.at("cases").back().dump();
  EXPECT_TRUE(j.at("cases").back().at("config").empty());
}

std::string error_of(const json& j) {
  try {
    result_from_json(j);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "<no exception>";
}

TEST(ResultJson, RejectsNonObject) {
  for (const json& j : {json::array({1, 2}), json("xferbench.result"), json(17), json(nullptr)}) {
    const std::string msg = error_of(j);
    EXPECT_NE(msg.find("not an xferbench result document"), std::string::npos) << msg;
  }
}

TEST(ResultJson, RejectsWrongSchema) {
  json j = to_json(sample_document());
  j["schema"] = "google.benchmark";
  std::string msg = error_of(j);
  EXPECT_NE(msg.find("not an xferbench result document"), std::string::npos) << msg;
  EXPECT_NE(msg.find(kResultSchemaName), std::string::npos) << msg;
  j.erase("schema");
  msg = error_of(j);
  EXPECT_NE(msg.find("not an xferbench result document"), std::string::npos) << msg;
}

TEST(ResultJson, RejectsUnknownSchemaVersionNamingIt) {
  json j = to_json(sample_document());
  j["schema_version"] = 999;
  const std::string msg = error_of(j);
  EXPECT_NE(msg.find("999"), std::string::npos) << msg;
  EXPECT_NE(msg.find("version"), std::string::npos) << msg;
  EXPECT_NE(msg.find(std::to_string(kResultSchemaVersion)), std::string::npos) << msg;
}

TEST(ResultJson, RejectsUnknownCaseStatus) {
  json j = to_json(sample_document());
  j["cases"][0]["status"] = "maybe";
  const std::string msg = error_of(j);
  EXPECT_NE(msg.find("maybe"), std::string::npos) << msg;
}

}  // namespace
}  // namespace xb

namespace xb {
namespace {

// A series summarized elsewhere (from a latency histogram, no samples kept) keeps its summary
// through JSON; a series with samples is summarized from them.
TEST(ResultJson, SeriesWithoutSamplesKeepsItsStoredSummary) {
  ResultDocument doc;
  CaseResult c;
  c.job = "io";
  c.name = "histogram_only";
  Series latency{"latency", "us", {}, {}};
  latency.summary.count = 1000;
  latency.summary.avg = 12.5;
  latency.summary.p99 = 40.0;
  c.series.push_back(latency);
  c.series.push_back(make_series("copy", "us", {1.0, 3.0}));
  doc.cases.push_back(c);
  const ResultDocument back = result_from_json(nlohmann::json::parse(to_json(doc).dump()));
  const Series* l = back.cases.at(0).find_series("latency");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->summary.count, 1000u);
  EXPECT_DOUBLE_EQ(l->summary.avg, 12.5);
  EXPECT_DOUBLE_EQ(l->summary.p99, 40.0);
  const Series* cp = back.cases.at(0).find_series("copy");
  ASSERT_NE(cp, nullptr);
  EXPECT_DOUBLE_EQ(cp->summary.avg, 2.0);
}

}  // namespace
}  // namespace xb

namespace xb {
namespace {

// Issue 18 item 2: every bandwidth in B/s and every time in s in the JSON, the shown unit beside.
TEST(CanonicalUnits, EveryBandwidthIsBytesPerSecondAndEveryTimeSecondsInTheJson) {
  ResultDocument doc = sample_document();
  doc.cases[0].metrics = {{"bandwidth", 2.0, "GiB/s", ""},  {"bandwidth_decimal", 2.0, "GB/s", ""},
                          {"link", 8.0, "Gb/s", ""},        {"latency_p50", 3.5, "us", ""},
                          {"elapsed", 1.5, "s", ""},        {"iops", 1000.0, "IO/s", ""},
                          {"blocks", 16.0, "", ""}};
  const json j = to_json(doc);
  EXPECT_EQ(j.at("schema_version"), 2);
  const json& m = j.at("cases").at(0).at("metrics");
  const auto expect = [&](std::size_t i, double value, const char* unit, double shown, const char* shown_unit) {
    EXPECT_DOUBLE_EQ(m.at(i).at("value").get<double>(), value) << m.at(i);
    EXPECT_EQ(m.at(i).at("unit"), unit) << m.at(i);
    EXPECT_DOUBLE_EQ(m.at(i).at("display_value").get<double>(), shown) << m.at(i);
    EXPECT_EQ(m.at(i).at("display_unit"), shown_unit) << m.at(i);
  };
  expect(0, 2.0 * 1073741824.0, "B/s", 2.0, "GiB/s");
  expect(1, 2e9, "B/s", 2.0, "GB/s");
  expect(2, 1e9, "B/s", 8.0, "Gb/s");
  expect(3, 3.5e-6, "s", 3.5, "us");
  expect(4, 1.5, "s", 1.5, "s");
  expect(5, 1000.0, "IO/s", 1000.0, "IO/s");
  expect(6, 16.0, "", 16.0, "");
  // Read back as shown.
  const ResultDocument back = result_from_json(j);
  ASSERT_EQ(back.cases[0].metrics.size(), 7u);
  EXPECT_NEAR(back.cases[0].metrics[0].value, 2.0, 1e-12);
  EXPECT_EQ(back.cases[0].metrics[0].unit, "GiB/s");
  EXPECT_NEAR(back.cases[0].metrics[2].value, 8.0, 1e-12);
  EXPECT_EQ(back.cases[0].metrics[2].unit, "Gb/s");
  EXPECT_NEAR(back.cases[0].metrics[3].value, 3.5, 1e-12);
  EXPECT_EQ(back.cases[0].metrics[3].unit, "us");
}

// The canonical value is what a reader takes: a script that scales "value" scales the figure.
TEST(CanonicalUnits, TheCanonicalValueIsWhatIsRead) {
  ResultDocument doc = sample_document();
  doc.cases[0].metrics = {{"bandwidth", 2.0, "GiB/s", ""}};
  json j = to_json(doc);
  j["cases"][0]["metrics"][0]["value"] = 1073741824.0;  // 1 GiB/s; display_value still says 2
  EXPECT_NEAR(result_from_json(j).cases[0].metrics[0].value, 1.0, 1e-12);
}

// A version 1 document (value and unit as shown, no display fields) reads as it always did.
TEST(CanonicalUnits, AVersionOneDocumentIsStillRead) {
  ResultDocument doc = sample_document();
  doc.cases[0].metrics = {{"bandwidth", 2.5, "GiB/s", "f"}};
  json j = to_json(doc);
  j["schema_version"] = 1;
  j["cases"][0]["metrics"] = json::array({{{"name", "bandwidth"}, {"value", 2.5}, {"unit", "GiB/s"}, {"formula", "f"}}});
  const ResultDocument back = result_from_json(j);
  ASSERT_EQ(back.cases[0].metrics.size(), 1u);
  EXPECT_DOUBLE_EQ(back.cases[0].metrics[0].value, 2.5);
  EXPECT_EQ(back.cases[0].metrics[0].unit, "GiB/s");
  j["schema_version"] = 0;
  EXPECT_THROW(result_from_json(j), std::runtime_error);
}

// --units: every bandwidth in one unit, the verdict with it; nothing dropped. The table then drops
// the declared GB/s twins only, never equal figures of other names.
TEST(CanonicalUnits, ShowBandwidthInOneSystemConvertsFiguresAndVerdict) {
  ResultDocument doc = sample_document();
  doc.cases[0].metrics = {{"bandwidth", 1.0, "GiB/s", ""}, {"bandwidth_decimal", 1.073741824, "GB/s", ""},
                          {"link", 8.0, "Gb/s", ""},       {"latency_p50", 3.5, "us", ""}};
  CaseVerdict v;
  v.metric = "link";
  v.unit = "Gb/s";
  v.actual = 8.0;
  v.expected = 16.0;
  v.ceiling = 100.0;
  v.verdict = "FAIL";
  doc.cases[0].verdict = v;
  ResultDocument decimal = doc;
  show_bandwidth_in(decimal, UnitSystem::decimal);
  const auto& m = decimal.cases[0].metrics;
  ASSERT_EQ(m.size(), 4u);
  EXPECT_NEAR(m[0].value, 1.073741824, 1e-12);
  EXPECT_EQ(m[0].unit, "GB/s");
  EXPECT_EQ(m[1].unit, "GB/s");
  EXPECT_NEAR(m[2].value, 1.0, 1e-12);
  EXPECT_EQ(m[2].unit, "GB/s");
  EXPECT_EQ(m[3].unit, "us");  // not a bandwidth: as it was
  const CaseVerdict& dv = *decimal.cases[0].verdict;
  EXPECT_EQ(dv.unit, "GB/s");
  EXPECT_NEAR(dv.actual, 1.0, 1e-12);
  EXPECT_NEAR(*dv.expected, 2.0, 1e-12);
  EXPECT_NEAR(*dv.ceiling, 12.5, 1e-12);
  ResultDocument binary = doc;
  show_bandwidth_in(binary, UnitSystem::binary);
  EXPECT_EQ(binary.cases[0].metrics[0].unit, "GiB/s");
  EXPECT_NEAR(binary.cases[0].metrics[2].value, 1e9 / 1073741824.0, 1e-12);
  EXPECT_EQ(unit_system_from("bits"), std::nullopt);
}

TEST(CanonicalUnits, TheTableDropsOnlyTheDeclaredDecimalTwins) {
  ResultDocument doc = sample_document();
  doc.cases[0].metrics = {{"bandwidth", 1.0, "GB/s", ""},        {"bandwidth_decimal", 1.0, "GB/s", ""},
                          {"bandwidth_median", 1.0, "GB/s", ""}, {"bandwidth_max", 1.0, "GB/s", ""},
                          {"count_decimal", 3.0, "", ""}};
  drop_decimal_twins(doc);
  std::vector<std::string> names;
  for (const auto& m : doc.cases[0].metrics) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"bandwidth", "bandwidth_median", "bandwidth_max", "count_decimal"}));
}

// A round trip gives back the very figure written (not one a unit in the last place away).
TEST(CanonicalUnits, ARoundTripKeepsTheFigureExactly) {
  ResultDocument doc = sample_document();
  doc.cases[0].metrics = {{"latency_avg", 12.345, "us", ""}, {"bandwidth", 3.3333333333333335, "GiB/s", ""}};
  const ResultDocument back = result_from_json(json::parse(to_json(doc).dump()));
  EXPECT_EQ(back.cases[0].metrics[0].value, 12.345);
  EXPECT_EQ(back.cases[0].metrics[1].value, 3.3333333333333335);
}

}  // namespace
}  // namespace xb
