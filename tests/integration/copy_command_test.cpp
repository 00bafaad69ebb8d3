// `xferbench copy` end to end: every direction, host memory kind, topology, engine, batch and
// fragment setting through the real binary with --verify, and the result document in each format.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "run_binary.hpp"
#include "system_state.hpp"

#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using xbtest::split_lines;

using xbtest::kBinary;
const std::vector<std::string> kCopySmall{"-s", "16K", "-n", "8", "-i", "4", "-d", "2", "--verify"};

std::vector<std::string> copy_args(std::vector<std::string> extra) {
  std::vector<std::string> args{"copy"};
  args.insert(args.end(), kCopySmall.begin(), kCopySmall.end());
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// A fresh directory, removed with everything in it at the end of the test.
using xb::test::TempDir;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const json* find_named(const json& array, const std::string& name) {
  for (const auto& x : array) {
    if (x.value("name", "") == name) return &x;
  }
  return nullptr;
}

std::string label(const json& c, const std::string& key) {
  for (const auto& l : c.at("labels")) {
    if (l.at("key") == key) return l.at("value").get<std::string>();
  }
  return "<no label " + key + ">";
}

void check_series(const json& series, const std::string& name, std::size_t iterations, const std::string& where) {
  const json* s = find_named(series, name);
  ASSERT_NE(s, nullptr) << where << ": no series " << name;
  EXPECT_EQ(s->at("unit"), "us") << where;
  ASSERT_EQ(s->at("samples").size(), iterations) << where << " " << name;
  for (const auto& v : s->at("samples")) EXPECT_GT(v.get<double>(), 0.0) << where << " " << name;
  const auto& summary = s->at("summary");
  EXPECT_EQ(summary.at("count").get<std::size_t>(), iterations) << where;
  EXPECT_LE(summary.at("min").get<double>(), summary.at("avg").get<double>()) << where;
  EXPECT_LE(summary.at("avg").get<double>(), summary.at("max").get<double>()) << where;
}

// What one copy run must say about itself in its JSON document.
struct Expect {
  Expect(std::string direction_, std::string host_memory_, std::string topology_, std::string from_, std::string to_,
         std::string engine_ = "", bool batch_ = false, std::uint64_t fragments_ = 0)
      : direction(std::move(direction_)), host_memory(std::move(host_memory_)), topology(std::move(topology_)),
        from(std::move(from_)), to(std::move(to_)), engine(std::move(engine_)), batch(batch_), fragments(fragments_) {}
  std::string direction, host_memory, topology, from, to;
  std::string engine;  // "" = the backend's first (memcpy)
  bool batch = false;
  std::uint64_t fragments = 0;
};

// Checks the whole document of a run with kCopySmall sizes; `args` is what the binary was given.
void check_document(const json& doc, const std::vector<std::string>& args, const Expect& e) {
  EXPECT_EQ(doc.at("schema"), "xferbench.result");
  EXPECT_EQ(doc.at("schema_version"), 2);
  EXPECT_EQ(doc.at("program").at("name"), "xferbench");
  EXPECT_FALSE(doc.at("program").at("version").get<std::string>().empty());
  EXPECT_FALSE(doc.at("started_at").get<std::string>().empty());
  const auto& machine = doc.at("machine");
  EXPECT_FALSE(machine.at("hostname").get<std::string>().empty());
  EXPECT_GT(machine.at("logical_cpus").get<unsigned>(), 0u);
  EXPECT_GT(machine.at("memory_bytes").get<std::uint64_t>(), 0u);
  EXPECT_GE(machine.at("numa_nodes").get<int>(), 1);
  std::vector<std::string> cmdline{kBinary};
  cmdline.insert(cmdline.end(), args.begin(), args.end());
  EXPECT_EQ(doc.at("command_line").get<std::vector<std::string>>(), cmdline);

  ASSERT_EQ(doc.at("cases").size(), 1u);
  const auto& c = doc.at("cases")[0];
  EXPECT_EQ(c.at("job"), "copy");
  EXPECT_EQ(c.at("status"), "ok");
  EXPECT_FALSE(c.at("name").get<std::string>().empty());
  EXPECT_FALSE(c.at("title").get<std::string>().empty());

  const auto& cfg = c.at("config");
  EXPECT_EQ(cfg.at("backend"), "cpu");
  EXPECT_EQ(cfg.at("direction"), e.direction);
  EXPECT_EQ(cfg.at("host_memory"), e.host_memory);
  EXPECT_EQ(cfg.at("topology"), e.topology);
  EXPECT_EQ(cfg.at("engine"), e.engine.empty() ? "memcpy" : e.engine);
  EXPECT_EQ(cfg.at("batch"), e.batch);
  EXPECT_EQ(cfg.at("fragments"), e.fragments);
  EXPECT_EQ(cfg.at("block_bytes"), 16384);
  EXPECT_EQ(cfg.at("blocks"), 8);
  EXPECT_EQ(cfg.at("iterations"), 4);
  EXPECT_EQ(cfg.at("devices"), 2);
  EXPECT_EQ(cfg.at("streams"), 4);
  EXPECT_EQ(cfg.at("verify"), true);
  EXPECT_EQ(cfg.at("launcher"), "fork");

  EXPECT_EQ(label(c, "from"), e.from);
  EXPECT_EQ(label(c, "to"), e.to);
  EXPECT_EQ(label(c, "size"), "16K");
  EXPECT_EQ(label(c, "count"), "16");
  if (e.batch) {
    EXPECT_NE(c.at("name").get<std::string>().find("batch"), std::string::npos) << c.at("name");
  }

  const auto& series = c.at("series");
  check_series(series, "submit", 4, "aggregate");
  check_series(series, "copy", 4, "aggregate");

  // One rank per device, each with its own series; the aggregate is the slowest rank per iteration.
  const auto& ranks = c.at("ranks");
  ASSERT_EQ(ranks.size(), 2u);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    EXPECT_EQ(ranks[r].at("rank"), r);
    EXPECT_FALSE(ranks[r].at("device").get<std::string>().empty());
    check_series(ranks[r].at("series"), "submit", 4, "rank " + std::to_string(r));
    check_series(ranks[r].at("series"), "copy", 4, "rank " + std::to_string(r));
  }
  for (const char* name : {"submit", "copy"}) {
    const json* agg = find_named(series, name);
    const json* r0 = find_named(ranks[0].at("series"), name);
    const json* r1 = find_named(ranks[1].at("series"), name);
    ASSERT_TRUE(agg && r0 && r1);
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(agg->at("samples")[i].get<double>(),
                std::max(r0->at("samples")[i].get<double>(), r1->at("samples")[i].get<double>()))
          << name << " iteration " << i;
    }
  }

  const json* bw = find_named(c.at("metrics"), "bandwidth");
  ASSERT_NE(bw, nullptr) << c.at("metrics");
  // One unit per family in the JSON (issue 18 item 2): B/s, the table's GiB/s beside it.
  EXPECT_EQ(bw->at("unit"), "B/s");
  EXPECT_EQ(bw->at("display_unit"), "GiB/s");
  EXPECT_FALSE(bw->at("formula").get<std::string>().empty());
  EXPECT_GT(bw->at("value").get<double>(), 0.0);
  EXPECT_NEAR(bw->at("value").get<double>(), bw->at("display_value").get<double>() * 1073741824.0,
              1e-9 * bw->at("value").get<double>());
}

struct DirectionCase {
  std::string label;
  std::vector<std::string> flags;
  Expect expect;
};

void PrintTo(const DirectionCase& c, std::ostream* os) {
  *os << "copy";
  for (const auto& f : c.flags) *os << " " << f;
}

class CopyDirection : public ::testing::TestWithParam<DirectionCase> {};

TEST_P(CopyDirection, VerifiesAndWritesTheResultDocument) {
  const auto& p = GetParam();
  auto args = copy_args(p.flags);
  args.insert(args.end(), {"--format", "json"});
  const xbtest::LeftoverWatch watch;
  const auto r = xbtest::run_binary(kBinary, args);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  json doc;
  ASSERT_NO_THROW(doc = json::parse(r.out)) << r.out;
  check_document(doc, args, p.expect);
  // stderr: at most the one-line note that the cpu backend is used.
  const auto err = split_lines(r.err);
  ASSERT_LE(err.size(), 1u) << r.err;
  if (!err.empty()) {
    EXPECT_NE(err[0].find("cpu backend"), std::string::npos) << err[0];
  }
  const auto left = watch.leftovers();
  EXPECT_TRUE(left.empty()) << "left behind: " << xbtest::join(left);
}

// The document records the variables that change what a run does, as this run saw them, and never
// a secret's value (anywhere in what the run prints).
TEST(CopyCommand, TheDocumentRecordsTheRunsSwitchesButNoSecret) {
  auto args = copy_args({"--format", "json"});
  xbtest::RunOptions options = xbtest::default_options();
  options.env = {"UCX_TLS=tcp", "XFERBENCH_TOKEN=zq-secret-token-value", "XFERBENCH_PROGRESS_AFTER_MS=60000"};
  options.unset_env = {"CUDA_VISIBLE_DEVICES", "XFERBENCH_CUDA_BATCH"};
  const auto r = xbtest::run_binary(kBinary, args, options);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  json doc;
  ASSERT_NO_THROW(doc = json::parse(r.out)) << r.out;
  const auto& env = doc.at("environment");
  EXPECT_EQ(env.at("UCX_TLS"), "tcp");
  EXPECT_EQ(env.at("XFERBENCH_PROGRESS_AFTER_MS"), "60000");
  EXPECT_EQ(env.at("XFERBENCH_TOKEN"), "(set; a secret, not recorded)");
  EXPECT_FALSE(env.contains("XFERBENCH_CUDA_BATCH"));
  EXPECT_FALSE(env.contains("PATH"));
  EXPECT_EQ((r.out + r.err).find("zq-secret-token-value"), std::string::npos);
}

std::vector<DirectionCase> direction_cases() {
  std::vector<DirectionCase> v{
      {"pinned_to_device", {"--from", "pinned", "--to", "device"},
       {"h2d", "pinned", "per-device", "cpu::host::all", "cpu::device::all"}},
      {"device_to_host", {"--from", "device", "--to", "host"},
       {"d2h", "pinned", "per-device", "cpu::device::all", "cpu::host::all"}},
      {"device_to_device", {"--from", "device", "--to", "device"},
       {"d2d", "pinned", "per-device", "cpu::device::all", "cpu::device::all"}},
      {"pageable_to_pinned", {"--from", "pageable", "--to", "pinned"},
       {"h2h", "pageable", "per-device", "cpu::pageable::all", "cpu::host::all"}},
      {"shm_to_device", {"--from", "shm"}, {"h2d", "shm", "per-device", "cpu::shm::all", "cpu::device::all"}},
      {"odirect_to_device", {"--from", "odirect"},
       {"h2d", "odirect", "per-device", "cpu::odirect::all", "cpu::device::all"}},
      {"shared_topology", {"--topology", "shared"},
       {"h2d", "shm", "shared", "cpu::shm::0", "cpu::device::all"}},
      {"device_to_shared_shm", {"--from", "device", "--to", "shm", "--topology", "shared"},
       {"d2h", "shm", "shared", "cpu::device::all", "cpu::shm::0"}},
      {"engine_memcpy", {"--engine", "memcpy"},
       {"h2d", "pinned", "per-device", "cpu::host::all", "cpu::device::all", "memcpy"}},
      {"batch", {"--batch"},
       {"h2d", "pinned", "per-device", "cpu::host::all", "cpu::device::all", "", true}},
      {"fragments_3", {"-f", "3"},
       {"h2d", "pinned", "per-device", "cpu::host::all", "cpu::device::all", "", false, 3}},
      {"batch_fragments_3_shared", {"--batch", "-f", "3", "--topology", "shared"},
       {"h2d", "shm", "shared", "cpu::shm::0", "cpu::device::all", "", true, 3}},
  };
  // The non-temporal engine exists where the CPU has the instructions; the backend says so.
  const auto engines = xb::make_cpu_backend()->capabilities().engines;
  if (std::find(engines.begin(), engines.end(), "nt") != engines.end()) {
    v.push_back({"engine_nt", {"--engine", "nt"},
                 {"h2d", "pinned", "per-device", "cpu::host::all", "cpu::device::all", "nt"}});
    v.push_back({"engine_nt_device_to_host_fragments", {"--engine", "nt", "--from", "device", "--to", "host", "-f", "3"},
                 {"d2h", "pinned", "per-device", "cpu::device::all", "cpu::host::all", "nt", false, 3}});
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Copy, CopyDirection, ::testing::ValuesIn(direction_cases()),
                         [](const auto& param_info) { return param_info.param.label; });

TEST(CopyCommand, CsvIsOneHeaderAndARowPerFigure) {
  const auto r = xbtest::run_binary(kBinary, copy_args({"--format", "csv", "--from", "device", "--to", "host"}));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = split_lines(r.out);
  ASSERT_GT(lines.size(), 2u) << r.out;
  auto fields = [](const std::string& line) {
    std::vector<std::string> f;
    std::stringstream s(line + ",");  // a last empty field (note) still counts
    std::string x;
    while (std::getline(s, x, ',')) f.push_back(x);
    return f;
  };
  const auto header = fields(lines[0]);
  EXPECT_EQ(header, (std::vector<std::string>{"job", "case", "status", "from", "to", "method", "size", "count",
                                               "quantity", "statistic", "value", "unit", "note"}))
      << lines[0];
  bool bandwidth = false;
  std::set<std::string> series;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto row = fields(lines[i]);
    ASSERT_EQ(row.size(), header.size()) << lines[i];
    EXPECT_EQ(row[0], "copy");
    EXPECT_EQ(row[2], "ok");
    EXPECT_EQ(row[3], "cpu::device::all");
    EXPECT_EQ(row[4], "cpu::host::all");
    EXPECT_EQ(row[6], "16K");
    EXPECT_EQ(row[7], "16");
    if (row[8] == "bandwidth" && row[9] == "value") {
      EXPECT_EQ(row[11], "GiB/s");
      EXPECT_GT(std::stod(row[10]), 0.0) << lines[i];
      bandwidth = true;
    }
    if (row[9] == "p99") series.insert(row[8]);
  }
  EXPECT_TRUE(bandwidth) << r.out;
  EXPECT_TRUE(series.count("submit") && series.count("copy")) << r.out;
}

TEST(CopyCommand, TableIsTheDefaultFormat) {
  const auto r = xbtest::run_binary(kBinary, copy_args({}));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0].rfind("[[ copy ]] ", 0), 0u) << lines[0];
  EXPECT_NE(lines[1].find("bandwidth(GiB/s)"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("cpu::host::all"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find("cpu::device::all"), std::string::npos) << lines[2];
}

// --units decimal (issue 18 item 2): the table shows every bandwidth in GB/s, once (the GB/s twin
// of the GiB/s figure is left out); the file keeps both figures, their display units GB/s, their
// values in B/s; a bad --units is exit 2 naming the flag.
TEST(CopyCommand, UnitsShowsEveryBandwidthInOneUnit) {
  TempDir dir;
  const fs::path json_file = dir.path() / "result.json";
  const auto r = xbtest::run_binary(kBinary, copy_args({"--units", "decimal", "--format", "table", "-o", json_file.string()}));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("bandwidth(GB/s)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("GiB/s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("bandwidth_decimal"), std::string::npos) << r.out;
  const json doc = json::parse(read_file(json_file));
  const json& metrics = doc.at("cases").at(0).at("metrics");
  const json* bw = find_named(metrics, "bandwidth");
  const json* twin = find_named(metrics, "bandwidth_decimal");
  ASSERT_TRUE(bw != nullptr && twin != nullptr) << metrics;
  EXPECT_EQ(bw->at("display_unit"), "GB/s");
  EXPECT_EQ(bw->at("unit"), "B/s");
  EXPECT_NEAR(bw->at("value").get<double>(), bw->at("display_value").get<double>() * 1e9,
              1e-9 * bw->at("value").get<double>());
  const auto bad = xbtest::run_binary(kBinary, copy_args({"--units", "bits"}));
  ASSERT_TRUE(bad.exited) << bad.describe();
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--units bits: expected binary (GiB/s) or decimal (GB/s)"), std::string::npos) << bad.err;
}

TEST(CopyCommand, OutputFileIsWrittenWholeAndNothingElse) {
  TempDir dir;
  const fs::path json_file = dir.path() / "result.json";
  const fs::path csv_file = dir.path() / "result.csv";
  const auto args = copy_args({"--format", "json", "--output", json_file.string()});
  const auto r = xbtest::run_binary(kBinary, args);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(r.out.empty()) << "stdout: " << r.out;
  ASSERT_TRUE(fs::is_regular_file(json_file));
  json doc;
  ASSERT_NO_THROW(doc = json::parse(read_file(json_file)));
  check_document(doc, args, {"h2d", "pinned", "per-device", "cpu::host::all", "cpu::device::all"});

  const auto r2 = xbtest::run_binary(kBinary, copy_args({"--format", "csv", "-o", csv_file.string(), "--quiet"}));
  ASSERT_TRUE(r2.exited && r2.exit_code == 0) << r2.describe();
  EXPECT_TRUE(r2.out.empty()) << r2.out;
  EXPECT_TRUE(r2.err.empty()) << "--quiet, yet stderr: " << r2.err;
  EXPECT_GT(split_lines(read_file(csv_file)).size(), 2u);
  EXPECT_EQ(split_lines(read_file(csv_file))[0].rfind("job,case,status,", 0), 0u);

  // Exactly the two files: no result.json.tmp-<pid> left over.
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"result.csv", "result.json"}));
}

// The display and file reporters at once: --format names what is printed, --output's name what the
// file holds; a name that asks for nothing (or for --format's own format) gets --format, alone.
TEST(CopyCommand, FormatAndOutputNamingAnotherFormatGiveBoth) {
  TempDir dir;
  const fs::path json_file = dir.path() / "r.json";
  const auto r = xbtest::run_binary(kBinary, copy_args({"--format", "table", "--output", json_file.string(), "-q"}));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("bandwidth(GiB/s)"), std::string::npos) << "no table printed: " << r.out;
  json doc;
  ASSERT_NO_THROW(doc = json::parse(read_file(json_file))) << read_file(json_file);
  EXPECT_FALSE(doc.at("cases").empty());

  // --output alone: the file in the format its name asks for, nothing printed.
  const fs::path csv_file = dir.path() / "r.csv";
  const auto r2 = xbtest::run_binary(kBinary, copy_args({"--output", csv_file.string(), "-q"}));
  ASSERT_TRUE(r2.exited && r2.exit_code == 0) << r2.describe();
  EXPECT_TRUE(r2.out.empty()) << r2.out;
  EXPECT_EQ(split_lines(read_file(csv_file))[0].rfind("job,case,status,", 0), 0u) << read_file(csv_file);

  // A name asking for nothing: --format's format in the file (a table), nothing printed.
  const fs::path txt_file = dir.path() / "r.txt";
  const auto r3 = xbtest::run_binary(kBinary, copy_args({"--format", "table", "--output", txt_file.string(), "-q"}));
  ASSERT_TRUE(r3.exited && r3.exit_code == 0) << r3.describe();
  EXPECT_TRUE(r3.out.empty()) << r3.out;
  EXPECT_NE(read_file(txt_file).find("bandwidth(GiB/s)"), std::string::npos) << read_file(txt_file);
}

TEST(CopyCommand, OutputReplacesAnExistingFile) {
  TempDir dir;
  const fs::path file = dir.path() / "r.json";
  std::ofstream(file) << "old content that is not JSON\n";
  const auto r = xbtest::run_binary(kBinary, copy_args({"--format", "json", "--output", file.string()}));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  json doc;
  ASSERT_NO_THROW(doc = json::parse(read_file(file)));
  EXPECT_EQ(doc.at("schema"), "xferbench.result");
}

TEST(CopyCommand, ExplicitCpuBackend) {
  const auto r = xbtest::run_binary(kBinary, copy_args({"--backend", "cpu", "--format", "json"}));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(r.err.empty()) << "an explicit --backend needs no note: " << r.err;
  EXPECT_EQ(json::parse(r.out).at("cases")[0].at("config").at("backend"), "cpu");
}

TEST(CopyCommand, HelpListsItsOptions) {
  const auto r = xbtest::run_binary(kBinary, {"copy", "--help"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  for (const char* opt : {"--from", "--to", "--topology", "--engine", "--batch", "--format", "--output", "--verify"}) {
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
  }
  EXPECT_TRUE(r.err.empty()) << r.err;
}

// `xferbench` with no arguments runs the survey: tests/survey/survey_default_test.cpp.

TEST(Program, HelpListsTheCommands) {
  for (const char* flag : {"--help", "-h", "help"}) {
    const auto r = xbtest::run_binary(kBinary, {flag});
    ASSERT_TRUE(r.exited && r.exit_code == 0) << flag << ": " << r.describe();
    for (const char* command : {"copy", "dev-sandbox", "devices"}) {
      bool listed = false;
      for (const auto& line : split_lines(r.out)) listed = listed || line.rfind(std::string("  ") + command + " ", 0) == 0;
      EXPECT_TRUE(listed) << command << " not listed by " << flag << ":\n" << r.out;
    }
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
}

TEST(Program, VersionMatchesTheResultDocument) {
  const auto v = xbtest::run_binary(kBinary, {"--version"});
  ASSERT_TRUE(v.exited && v.exit_code == 0) << v.describe();
  const auto r = xbtest::run_binary(kBinary, copy_args({"--format", "json"}));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::string version = json::parse(r.out).at("program").at("version");
  EXPECT_EQ(v.out, "xferbench " + version + "\n");
}

TEST(Program, DevicesListsTheCpuBackend) {
  const auto r = xbtest::run_binary(kBinary, {"devices"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = split_lines(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].rfind("backend cpu (built in): ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("engines: memcpy"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cpu::device::0"), std::string::npos) << r.out;
}

TEST(Program, UnknownCommandIsUsageError) {
  const auto r = xbtest::run_binary(kBinary, {"frobnicate", "-s", "16K"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_TRUE(r.out.empty()) << r.out;
  const auto err = split_lines(r.err);
  ASSERT_EQ(err.size(), 1u) << r.err;
  EXPECT_NE(err[0].find("frobnicate"), std::string::npos) << err[0];
}

}  // namespace
