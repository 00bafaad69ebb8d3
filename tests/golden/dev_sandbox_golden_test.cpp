// The dev-sandbox dialect (src/dialects/dev_sandbox.hpp) against the seed document's own output
// (shared/seeds/000: "Output Example"): the renderer must reproduce it byte for byte from the
// seed's figures, and the argument parser must map the seed's flags onto the copy plan.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "dialects/dev_sandbox.hpp"
#include "jobs/copy/copy_config.hpp"
#include "jobs/copy/copy_job.hpp"
#include "runtime/fork_launcher.hpp"
#include "support/run_job.hpp"

namespace xb {
namespace {

// The seed's output, verbatim (GQA + multi-stream CE, then MLA + multi-stream CE).
const std::string kSeedHeader =
    "  From              To                Method    Size(KB)  Count   Submit(us)-(Min/Max/Avg/P50/P90)        "
    "Copy(us)-(Min/Max/Avg/P50/P90)              BW(GB/s)\n";
const std::string kSeedGqa =
    "[[ all_host_to_all_device_ce_multi_stream ]] memcpy from all host to all device with ce using multi stream "
    "and fork submit\n" +
    kSeedHeader +
    "  acl::host::all    acl::device::all  CE-MS-FORK16        4096    878 / 2576 / 1117 / 1112 / 1269         "
    "3155 / 4101 / 3736 / 3759 / 3905            16.729\n";
const std::string kSeedMla =
    "[[ one_share_host_to_all_device_ce_multi_stream ]] memcpy from one shared host to all device with ce using "
    "multi stream and fork submit\n" +
    kSeedHeader +
    "  acl::shm::0       acl::device::all  CE-MS-FORK16        4096    1056 / 1270 / 1162 / 1161 / 1209        "
    "3914 / 5024 / 4471 / 4424 / 4852            13.979\n";

struct SeedFigures {
  double submit[5];  // min, max, avg, p50, p90
  double copy[5];
};
constexpr SeedFigures kGqaFigures{{878, 2576, 1117, 1112, 1269}, {3155, 4101, 3736, 3759, 3905}};
constexpr SeedFigures kMlaFigures{{1056, 1270, 1162, 1161, 1209}, {3914, 5024, 4471, 4424, 4852}};

// The seed's run: -s 16K -n 512 on 8 cards, so Count = 8 x 512.
constexpr std::uint64_t kBlockBytes = 16384;
constexpr std::uint64_t kCount = 8 * 512;

Series series_with(std::string name, const double (&f)[5]) {
  Series s;
  s.name = std::move(name);
  s.unit = "us";
  s.summary.count = 128;
  s.summary.min = f[0];
  s.summary.max = f[1];
  s.summary.avg = f[2];
  s.summary.p50 = f[3];
  s.summary.p90 = f[4];
  return s;
}

// What the copy job hands the renderer, with the seed's measured figures in its summaries and the
// bandwidth computed from them by the job's own formula.
void set_seed_figures(CaseResult& c, const SeedFigures& f, std::uint64_t count) {
  c.series = {series_with("submit", f.submit), series_with("copy", f.copy)};
  c.metrics = copy_bandwidth_metrics(c.config.at("block_bytes").get<std::uint64_t>(), count, f.copy[2]);
}

CaseResult seed_case(const std::string& from, const SeedFigures& f) {
  CaseResult c;
  c.job = "copy";
  c.labels = {{"from", from},
              {"to", "acl::device::all"},
              {"method", "memcpy-x4"},
              {"size", format_size(kBlockBytes)},
              {"count", std::to_string(kCount)}};
  CopyConfig config;
  config.block_bytes = kBlockBytes;
  c.config = config;
  set_seed_figures(c, f, kCount);
  return c;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
  return text;
}

TEST(DevSandboxGolden, GqaCeMultiStreamMatchesTheSeedByteForByte) {
  const CaseResult c = seed_case("acl::host::all", kGqaFigures);
  EXPECT_EQ(render_dev_sandbox(c, dev_sandbox_case(false, false, false)), kSeedGqa);
}

TEST(DevSandboxGolden, MlaCeMultiStreamMatchesTheSeedByteForByte) {
  const CaseResult c = seed_case("acl::shm::0", kMlaFigures);
  EXPECT_EQ(render_dev_sandbox(c, dev_sandbox_case(true, false, false)), kSeedMla);
}

TEST(DevSandboxGolden, BandwidthColumnIsTheJobsFormulaNotACopy) {
  // The seed's 16.729 is 16K x 4096 / 3736 us in GiB/s; a different average gives a different figure.
  SeedFigures slower = kGqaFigures;
  slower.copy[2] = 2 * kGqaFigures.copy[2];
  const std::string text = render_dev_sandbox(seed_case("acl::host::all", slower), dev_sandbox_case(false, false, false));
  EXPECT_NE(text.find("3155 / 4101 / 7472 / 3759 / 3905"), std::string::npos) << text;
  const double gib_per_s = 16384.0 * 4096 / 7472e-6 / (1024.0 * 1024 * 1024);  // about 16.729 / 2
  const std::string bw = fmt::format("{:.3f}\n", gib_per_s);
  EXPECT_EQ(text.substr(text.size() - bw.size()), bw) << text;
  EXPECT_EQ(text.find("16.729"), std::string::npos) << text;
}

// The labels the copy job really gives on the cpu backend, from a real (tiny) run of the seed's
// command line: the rendering is the seed's with acl:: replaced by cpu:: exactly where the labels
// carry the backend's name, and nowhere else.
CaseResult real_case_for(const std::vector<std::string>& args) {
  DevSandboxRequest req = parse_dev_sandbox(args);
  req.plan.warmup = 0;
  auto backend = make_cpu_backend();
  validate_copy_plan(req.plan, *backend);
  ForkLauncher launcher(req.plan.devices);
  return test::run_one(req.plan, &*backend, &launcher);
}

TEST(DevSandboxGolden, RealGqaRunRendersAsTheSeedWithCpuLabels) {
  const std::vector<std::string> args{"--model-type", "gqa", "--iodirect", "false", "--sdma", "false",
                                      "-s", "16K", "-n", "512", "-i", "1", "-d", "8"};
  CaseResult c = real_case_for(args);
  EXPECT_EQ(c.label("from"), "cpu::host::all");
  EXPECT_EQ(c.label("to"), "cpu::device::all");
  EXPECT_EQ(c.label("count"), std::to_string(kCount));
  set_seed_figures(c, kGqaFigures, std::stoull(c.label("count")));
  EXPECT_EQ(render_dev_sandbox(c, parse_dev_sandbox(args).which), replace_all(kSeedGqa, "acl::", "cpu::"));
}

TEST(DevSandboxGolden, RealMlaRunRendersAsTheSeedWithCpuLabels) {
  const std::vector<std::string> args{"--model-type", "mla", "--iodirect", "false", "--sdma", "false",
                                      "-s", "16K", "-n", "512", "-i", "1", "-d", "8"};
  CaseResult c = real_case_for(args);
  EXPECT_EQ(c.label("from"), "cpu::shm::0");
  EXPECT_EQ(c.label("to"), "cpu::device::all");
  set_seed_figures(c, kMlaFigures, std::stoull(c.label("count")));
  EXPECT_EQ(render_dev_sandbox(c, parse_dev_sandbox(args).which), replace_all(kSeedMla, "acl::", "cpu::"));
}

TEST(DevSandboxGolden, RendererNeedsSubmitCopyAndBandwidth) {
  CaseResult c = seed_case("acl::host::all", kGqaFigures);
  c.metrics.clear();
  EXPECT_THROW(render_dev_sandbox(c, dev_sandbox_case(false, false, false)), std::logic_error);
  c = seed_case("acl::host::all", kGqaFigures);
  c.series.pop_back();
  EXPECT_THROW(render_dev_sandbox(c, dev_sandbox_case(false, false, false)), std::logic_error);
}

// --- the eight cases ----------------------------------------------------------------------------

TEST(DevSandboxCases, SeedNamesTitlesAndMethods) {
  const DevSandboxCase gqa = dev_sandbox_case(false, false, false);
  EXPECT_EQ(gqa.name, "all_host_to_all_device_ce_multi_stream");
  EXPECT_EQ(gqa.title, "memcpy from all host to all device with ce using multi stream and fork submit");
  EXPECT_EQ(gqa.method, "CE-MS-FORK");
  const DevSandboxCase mla = dev_sandbox_case(true, false, false);
  EXPECT_EQ(mla.name, "one_share_host_to_all_device_ce_multi_stream");
  EXPECT_EQ(mla.title, "memcpy from one shared host to all device with ce using multi stream and fork submit");
  EXPECT_EQ(mla.method, "CE-MS-FORK");
}

TEST(DevSandboxCases, EightCombinationsSixDistinctCases) {
  std::vector<std::string> names, titles;
  for (bool mla : {false, true}) {
    for (bool sdma : {false, true}) {
      const DevSandboxCase plain = dev_sandbox_case(mla, false, sdma);
      const DevSandboxCase direct = dev_sandbox_case(mla, true, sdma);
      SCOPED_TRACE(plain.name);
      EXPECT_EQ(plain.method, sdma ? "ffts-direct-h2d" : "CE-MS-FORK");
      EXPECT_EQ(direct.method, plain.method);
      if (mla) {
        // MLA ignores --iodirect: the same case either way.
        EXPECT_EQ(direct.name, plain.name);
        EXPECT_EQ(direct.title, plain.title);
        EXPECT_EQ(plain.name.rfind("one_share_host_to_all_device_", 0), 0u);
        names.push_back(plain.name);
        titles.push_back(plain.title);
      } else {
        EXPECT_NE(direct.name, plain.name);
        EXPECT_NE(direct.title, plain.title);
        EXPECT_NE(direct.name.find("odirect"), std::string::npos) << direct.name;
        EXPECT_EQ(plain.name.find("odirect"), std::string::npos) << plain.name;
        names.push_back(plain.name);
        names.push_back(direct.name);
        titles.push_back(plain.title);
        titles.push_back(direct.title);
      }
      for (const DevSandboxCase* c : {&plain, &direct}) {
        const std::string engine = sdma ? "_ffts_direct_h2d" : "_ce_multi_stream";
        EXPECT_EQ(c->name.substr(c->name.size() - engine.size()), engine) << c->name;
        EXPECT_NE(c->name.find("_to_all_device_"), std::string::npos) << c->name;
        EXPECT_EQ(c->title.rfind("memcpy from ", 0), 0u) << c->title;
        EXPECT_EQ(c->title.substr(c->title.size() - 16), " and fork submit") << c->title;
      }
    }
  }
  ASSERT_EQ(names.size(), 6u);
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t j = i + 1; j < names.size(); ++j) {
      EXPECT_NE(names[i], names[j]);
      EXPECT_NE(titles[i], titles[j]);
    }
  }
}

// --- the command line ---------------------------------------------------------------------------

std::vector<std::string> selectors(const std::string& model, const std::string& iodirect, const std::string& sdma) {
  return {"--model-type", model, "--iodirect", iodirect, "--sdma", sdma};
}

TEST(DevSandboxArgs, SeedDefaults) {
  const DevSandboxRequest r = parse_dev_sandbox(selectors("gqa", "false", "false"));
  const CopyPlan& p = r.plan;
  EXPECT_EQ(p.block_bytes, 512u << 20);
  EXPECT_EQ(p.blocks, 8u);
  EXPECT_EQ(p.iterations, 128u);
  EXPECT_EQ(p.devices, 8);
  EXPECT_EQ(p.fragments, 0u);
  EXPECT_EQ(p.direction, CopyDirection::h2d);
  EXPECT_EQ(p.topology, CopyTopology::per_device);
  EXPECT_EQ(p.host_kind, HostMemoryKind::pinned);
  EXPECT_EQ(p.streams, 4);  // multi-stream CE
  EXPECT_FALSE(p.batch);
  EXPECT_FALSE(p.verify);
  EXPECT_EQ(r.which.name, dev_sandbox_case(false, false, false).name);
}

TEST(DevSandboxArgs, SeedExampleFlags) {
  auto args = selectors("gqa", "false", "false");
  for (const char* a : {"-s", "16K", "-n", "512", "-i", "64", "-d", "2", "-f", "4", "--verify"}) args.emplace_back(a);
  const CopyPlan p = parse_dev_sandbox(args).plan;
  EXPECT_EQ(p.block_bytes, 16384u);
  EXPECT_EQ(p.blocks, 512u);
  EXPECT_EQ(p.iterations, 64u);
  EXPECT_EQ(p.devices, 2);
  EXPECT_EQ(p.fragments, 4u);
  EXPECT_TRUE(p.verify);
}

TEST(DevSandboxArgs, GqaWithIodirectUsesOdirectHostMemory) {
  const DevSandboxRequest r = parse_dev_sandbox(selectors("gqa", "true", "false"));
  EXPECT_EQ(r.plan.host_kind, HostMemoryKind::odirect);
  EXPECT_EQ(r.plan.topology, CopyTopology::per_device);
  EXPECT_EQ(r.which.name, dev_sandbox_case(false, true, false).name);
}

TEST(DevSandboxArgs, MlaIsSharedShmWhateverIodirectSays) {
  for (const char* iodirect : {"false", "true"}) {
    const DevSandboxRequest r = parse_dev_sandbox(selectors("mla", iodirect, "false"));
    EXPECT_EQ(r.plan.topology, CopyTopology::shared) << iodirect;
    EXPECT_EQ(r.plan.host_kind, HostMemoryKind::shm) << iodirect;
    EXPECT_EQ(r.which.name, "one_share_host_to_all_device_ce_multi_stream") << iodirect;
  }
}

TEST(DevSandboxArgs, SdmaIsTheBatchPath) {
  for (const char* model : {"gqa", "mla"}) {
    const DevSandboxRequest on = parse_dev_sandbox(selectors(model, "false", "true"));
    const DevSandboxRequest off = parse_dev_sandbox(selectors(model, "false", "false"));
    EXPECT_TRUE(on.plan.batch) << model;
    EXPECT_FALSE(off.plan.batch) << model;
    EXPECT_EQ(on.which.method, "ffts-direct-h2d");
  }
}

void expect_usage_error_naming(const std::vector<std::string>& args, const std::string& flag) {
  std::string joined;
  for (const auto& a : args) joined += a + " ";
  try {
    parse_dev_sandbox(args);
    ADD_FAILURE() << "accepted: " << joined;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << joined << "-> " << e.what();
  }
}

TEST(DevSandboxArgs, BadInputIsAUsageErrorNamingTheFlag) {
  expect_usage_error_naming(selectors("foo", "false", "false"), "--model-type");
  expect_usage_error_naming(selectors("gqa", "false", "maybe"), "--sdma");
  expect_usage_error_naming(selectors("gqa", "yes", "false"), "--iodirect");
  auto with = [](std::vector<std::string> extra) {
    auto args = selectors("gqa", "false", "false");
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  expect_usage_error_naming(with({"-s", "0"}), "-s");
  expect_usage_error_naming(with({"-d", "0"}), "-d");
  expect_usage_error_naming(with({"-n", "-1"}), "-n");
  expect_usage_error_naming(with({"-i", "0"}), "-i");
  expect_usage_error_naming(with({"-f", "x"}), "-f");
  expect_usage_error_naming(with({"--bogus", "1"}), "--bogus");
  expect_usage_error_naming({"--iodirect", "false", "--sdma", "false"}, "--model-type");
  expect_usage_error_naming({"--model-type", "gqa", "--sdma", "false"}, "--iodirect");
  expect_usage_error_naming({"--model-type", "gqa", "--iodirect", "false"}, "--sdma");
}

}  // namespace
}  // namespace xb
