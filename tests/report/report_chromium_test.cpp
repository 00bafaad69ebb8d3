// The report opened in a real browser: Debian's chromium, headless, on a page made from real runs
// (copy at three sizes, an io randread with latency percentiles, a kv dump) plus a matrix in the
// convention p2p and fleet will use. The dumped DOM must hold the titles, case names and
// configuration, and every plot must have been laid out: the page's self-check script marks each
// SVG with how many data marks have a box, which must equal how many it holds. chromium is part of
// scripts/setup.sh, so a missing one fails here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>

#include "core/matrix.hpp"
#include "report_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using test::run_xferbench;
using test::TempDir;

std::string find_chromium() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    const auto end = std::min(dirs.find(':', start), dirs.size());
    for (const char* name : {"chromium", "chromium-browser"}) {
      const auto candidate = std::filesystem::path(dirs.substr(start, end - start)) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    start = end + 1;
  }
  return {};
}

void run_ok(const std::vector<std::string>& args) {
  const auto r = run_xferbench(args);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
}

TEST(ReportChromium, ThePageDrawsInAHeadlessBrowser) {
  const std::string chromium = find_chromium();
  ASSERT_FALSE(chromium.empty()) << "chromium is not installed: run scripts/setup.sh (it installs Debian's chromium)";

  TempDir dir;
  std::vector<std::string> report{"report"};
  for (const char* size : {"4K", "64K", "1M"}) {
    const auto f = dir.path() / (std::string("copy-") + size + ".json");
    ASSERT_NO_FATAL_FAILURE(test::make_copy_result(f, size));
    report.push_back(f.string());
  }
  const auto data = dir.path() / "data";
  std::filesystem::create_directory(data);
  const auto io_w = (dir.path() / "io-write.json").string(), io_r = (dir.path() / "io-read.json").string();
  ASSERT_NO_FATAL_FAILURE(run_ok({"io", "-D", data.string(), "-w", "1", "--rw", "write", "-s", "1M", "-i", "64K",
                                  "--format", "json", "--output", io_w, "-q"}));
  ASSERT_NO_FATAL_FAILURE(run_ok({"io", "-D", data.string(), "-w", "1", "--rw", "randread", "-s", "1M", "-i", "4K",
                                  "--format", "json", "--output", io_r, "-q"}));
  const auto store = dir.path() / "store";
  std::filesystem::create_directory(store);
  const auto kv = (dir.path() / "kv.json").string();
  ASSERT_NO_FATAL_FAILURE(run_ok({"kv", "dump", "--store", store.string(), "-n", "8", "--block", "64K", "--format",
                                  "json", "--output", kv, "-q"}));
  report.insert(report.end(), {io_w, io_r});

  // The kv run's document with a matrix as p2p will carry one, and a hostile argument on its
  // command line for the browser to show as text.
  auto j = test::read_json(kv);
  Matrix m;
  m.title = "unidirectional bandwidth";
  m.rows = m.cols = {"npu0", "npu1", "npu2"};
  m.values = {{std::nullopt, 164.3, 160.1}, {163.9, std::nullopt, 80.2}, {161.0, 162.5, std::nullopt}};
  m.unit = "GB/s";
  j["cases"][0]["config"]["matrix"] = matrix_to_json(m);
  j["command_line"].push_back("</script><b id=\"injected\">node</b>");
  const auto p2p = (dir.path() / "kv-with-matrix.json").string();
  test::write_text(p2p, j.dump());
  report.push_back(p2p);

  const auto page = dir.path() / "report.html";
  report.insert(report.end(), {"-o", page.string(), "-q"});
  ASSERT_NO_FATAL_FAILURE(run_ok(report));

  xbtest::RunOptions options = xbtest::default_options();
  options.timeout = std::chrono::seconds(90);
  const auto r = xbtest::run_binary(chromium,
                                    {"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                                     "--user-data-dir=" + (dir.path() / "profile").string(), "--dump-dom",
                                     "file://" + page.string()},
                                    options);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::string& dom = r.out;

  // The self-check ran, and every plot's marks were laid out.
  EXPECT_NE(dom.find("data-self-check=\"done\""), std::string::npos) << dom.substr(0, 2000);
  static const std::regex svg_tag(R"re(<svg class="xb-plot ([a-z-]+)"[^>]*>)re");
  static const std::regex marks(R"re(data-marks="(\d+)")re"), drawn(R"re(data-drawn-marks="(\d+)")re");
  int charts = 0, heatmaps = 0;
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), svg_tag); it != std::sregex_iterator(); ++it) {
    const std::string tag = (*it)[0];
    std::smatch want, got;
    ASSERT_TRUE(std::regex_search(tag, want, marks)) << tag;
    ASSERT_TRUE(std::regex_search(tag, got, drawn)) << "not checked by the page: " << tag;
    EXPECT_GT(std::stoi(want[1]), 0) << tag;
    EXPECT_EQ(want[1], got[1]) << tag;
    ((*it)[1] == "xb-chart" ? charts : heatmaps) += 1;
  }
  // Bandwidth: copy (3 sizes, one line), io write, io randread, kv; latency: copy's submit and copy
  // series, io write and read, kv; one heat map.
  EXPECT_EQ(charts, 9);
  EXPECT_EQ(heatmaps, 1);
  EXPECT_NE(dom.find("data-marks=\"3\""), std::string::npos);  // the copy sweep's three points

  // Titles, case names and configuration are in the page as the browser built it.
  for (const std::string text :
       {"<title>xferbench report</title>", "<h1>xferbench report</h1>", "Bandwidth against block size",
        "Latency percentiles", "Matrices", "unidirectional bandwidth", "h2d_pinned_per_device_memcpy",
        "randread_psync_4K_qd1_direct", "kv_dump_64K_sync_none_direct", "\"block_bytes\": 65536",
        "\"io_size\": 4096", "xferbench kv dump --store", "npu2"}) {
    EXPECT_NE(dom.find(text), std::string::npos) << text;
  }
  // The hostile argument is text, not an element.
  EXPECT_EQ(dom.find("<b id=\"injected\""), std::string::npos);
  EXPECT_NE(dom.find("&lt;/script&gt;&lt;b id=\"injected\"&gt;node&lt;/b&gt;"), std::string::npos);
}

}  // namespace
}  // namespace xb
