// The report opened in a real browser: Debian's chromium, headless, on a page made from real runs
// (a judged survey, a copy sweep repeated three times, a link swept over two transports, an io
// randread, a kv dump) plus a matrix in the convention p2p and fleet use. The dumped DOM must hold
// the sections, case names and configuration, and every plot must have been laid out: the page's
// self-check script marks each SVG with how many data marks have a box, which must equal how many
// it holds, and where it lies. A screenshot of the whole page then must show data colours inside
// every plot's box (tests/scripts/report_screenshot_pixels.py, Debian's python3-pil). chromium
// and python3-pil are part of scripts/setup.sh, so a missing one fails here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
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

xbtest::RunResult run_chromium(const std::string& chromium, const TempDir& dir, std::vector<std::string> args) {
  std::vector<std::string> all{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                               "--disable-background-networking", "--disable-component-update", "--disable-sync",
                               "--hide-scrollbars", "--force-device-scale-factor=1",
                               "--user-data-dir=" + (dir.path() / "profile").string()};
  all.insert(all.end(), args.begin(), args.end());
  xbtest::RunOptions options = xbtest::default_options();
  options.timeout = std::chrono::seconds(90);
  return xbtest::run_binary(chromium, all, options);
}

struct Plot {
  std::string kind;  // xb-chart, xb-heatmap, xb-bullet
  std::string rect;  // "x,y,w,h" in CSS pixels from the page's top left
};

// Every plot of the DOM as the browser built it: each must hold marks and have drawn them all.
std::vector<Plot> drawn_plots(const std::string& dom) {
  static const std::regex svg_tag(R"re(<svg class="xb-plot ([a-z-]+)"[^>]*>)re");
  static const std::regex marks(R"re(data-marks="(\d+)")re"), drawn(R"re(data-drawn-marks="(\d+)")re"),
      rect(R"re(data-rect="(\d+,\d+,\d+,\d+)")re");
  std::vector<Plot> plots;
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), svg_tag); it != std::sregex_iterator(); ++it) {
    const std::string tag = (*it)[0];
    std::smatch want, got, where;
    EXPECT_TRUE(std::regex_search(tag, want, marks)) << tag;
    EXPECT_TRUE(std::regex_search(tag, got, drawn)) << "not checked by the page: " << tag;
    EXPECT_TRUE(std::regex_search(tag, where, rect)) << "no place on the page: " << tag;
    if (want.empty() || got.empty() || where.empty()) continue;
    EXPECT_GT(std::stoi(want[1]), 0) << tag;
    EXPECT_EQ(want[1], got[1]) << tag;
    plots.push_back({(*it)[1], where[1]});
  }
  return plots;
}

TEST(ReportChromium, ThePageDrawsInAHeadlessBrowser) {
  const std::string chromium = find_chromium();
  ASSERT_FALSE(chromium.empty()) << "chromium is not installed: run scripts/setup.sh (it installs Debian's chromium)";

  TempDir dir;
  // A survey judged against rules that pass the copies and fail storage reads (exit 1 on a FAIL).
  const auto survey = (dir.path() / "survey.json").string();
  {
    const auto r = run_xferbench({"--quick", "--dir", dir.path().string(), "--expect-rule", "copy.h2h=1 GB/s",
                                  "--expect-rule", "io.read=1000 GB/s", "-o", survey, "-q"});
    ASSERT_TRUE(r.exited && r.exit_code == 1) << r.describe();
  }
  // A copy sweep repeated (a band), two transports of one link (lines overlaid), storage.
  const auto copy = (dir.path() / "copy.json").string();
  ASSERT_NO_FATAL_FAILURE(run_ok({"copy", "-s", "4K:1M:16", "-n", "4", "-i", "4", "--warmup", "1", "-d", "1",
                                  "--repetitions", "3", "--format", "json", "--output", copy, "-q"}));
  std::vector<std::string> report{"report", survey, copy};
  for (const char* transport : {"ucx", "tcp"}) {
    const auto f = (dir.path() / (std::string("link-") + transport + ".json")).string();
    ASSERT_NO_FATAL_FAILURE(run_ok({"link", "-s", "8:64K", "--step", "8", "-i", "20", "-x", "2", "--transport",
                                    transport, "--format", "json", "--output", f, "-q"}));
    report.push_back(f);
  }
  const auto data = dir.path() / "data";
  std::filesystem::create_directory(data);
  const auto io_r = (dir.path() / "io-read.json").string();
  ASSERT_NO_FATAL_FAILURE(run_ok({"io", "-D", data.string(), "-w", "1", "--rw", "write", "-s", "1M", "-i", "64K", "-q"}));
  ASSERT_NO_FATAL_FAILURE(run_ok({"io", "-D", data.string(), "-w", "1", "--rw", "randread", "-s", "1M", "-i", "4K",
                                  "--format", "json", "--output", io_r, "-q"}));
  report.push_back(io_r);
  const auto store = dir.path() / "store";
  std::filesystem::create_directory(store);
  const auto kv = (dir.path() / "kv.json").string();
  ASSERT_NO_FATAL_FAILURE(run_ok({"kv", "dump", "--store", store.string(), "-n", "8", "--block", "64K", "--format",
                                  "json", "--output", kv, "-q"}));

  // The kv run's document with a matrix as p2p carries one (long names, which must not be
  // clipped), and a hostile argument on its command line for the browser to show as text.
  auto j = test::read_json(kv);
  Matrix m;
  m.title = "unidirectional bandwidth";
  m.rows = m.cols = {"node-a.cluster.example:npu0", "node-a.cluster.example:npu1", "node-b.cluster.example:npu2"};
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

  // The page as laid out 1200 pixels wide: its DOM after the self-check ran.
  const auto dumped = run_chromium(chromium, dir, {"--window-size=1200,2000", "--dump-dom", "file://" + page.string()});
  ASSERT_TRUE(dumped.exited && dumped.exit_code == 0) << dumped.describe();
  const std::string& dom = dumped.out;
  EXPECT_NE(dom.find("data-self-check=\"done\""), std::string::npos) << dom.substr(0, 2000);
  const std::vector<Plot> plots = drawn_plots(dom);
  std::map<std::string, int> kinds;
  for (const auto& p : plots) ++kinds[p.kind];
  // Charts: bandwidth of the copy sweep and of the link (two lines); latency against size of the
  // copy's two series and the link's (latency avg and its transfer series); latency percentiles of
  // the survey's copies, storage and links, the sweep, the io and kv runs. One heat map, the
  // survey's bars.
  EXPECT_GE(kinds["xb-chart"], 6);
  EXPECT_EQ(kinds["xb-heatmap"], 1);
  EXPECT_EQ(kinds["xb-bullet"], 1);
  EXPECT_EQ(plots.size(), static_cast<std::size_t>(kinds["xb-chart"] + 2));

  // Titles, sections, case names and configuration are in the page as the browser built it.
  for (const std::string text :
       {"<title>xferbench report</title>", "<h1>xferbench report</h1>", "<h2>Survey</h2>",
        "Bandwidth against block size", "Latency against size", "Latency percentiles", "Matrices",
        "unidirectional bandwidth", "h2d_pinned_per_device_memcpy", "randread_psync_4K_qd1_direct",
        "kv_dump_64K_sync_none_direct", "\"block_bytes\": 65536", "\"io_size\": 4096", "xferbench kv dump --store",
        "node-b.cluster.example:npu2", "measured at one size", "class=\"band\"", "ucx · ", "tcp · ",
        "<td>PASS</td>", "<td>FAIL</td>", "expected 931.3", "scale 0 to 164.3 GB/s"}) {
    EXPECT_NE(dom.find(text), std::string::npos) << text;
  }
  // The hostile argument is text, not an element.
  EXPECT_EQ(dom.find("<b id=\"injected\""), std::string::npos);
  EXPECT_NE(dom.find("&lt;/script&gt;&lt;b id=\"injected\"&gt;node&lt;/b&gt;"), std::string::npos);

  // A screenshot of the whole page: inside each plot's box there are drawn data colours (lines,
  // bands, bars, cells), and none in the page's heading (so the count can tell).
  static const std::regex height_re(R"re(data-page-height="(\d+)")re");
  std::smatch height;
  ASSERT_TRUE(std::regex_search(dom, height, height_re));
  const auto shot = (dir.path() / "page.png").string();
  const auto taken = run_chromium(chromium, dir,
                                  {"--window-size=1200," + height[1].str(), "--screenshot=" + shot,
                                   "file://" + page.string()});
  ASSERT_TRUE(taken.exited && taken.exit_code == 0) << taken.describe();
  std::vector<std::string> pixels_args{std::string(XB_SOURCE_DIR) + "/tests/scripts/report_screenshot_pixels.py", shot,
                                       "0,0,1200,40"};
  for (const auto& p : plots) pixels_args.push_back(p.rect);
  const auto counted = xbtest::run_binary("/usr/bin/python3", pixels_args, xbtest::default_options());
  ASSERT_TRUE(counted.exited && counted.exit_code == 0) << counted.describe();
  const auto lines = xbtest::split_lines(counted.out);
  ASSERT_EQ(lines.size(), plots.size() + 2) << counted.out;
  EXPECT_EQ(lines[0], "size 1200," + height[1].str());
  EXPECT_EQ(lines[1], "0,0,1200,40 0") << "the heading has data colours: the count cannot tell";
  for (std::size_t i = 0; i < plots.size(); ++i) {
    const auto& line = lines[i + 2];
    const auto space = line.rfind(' ');
    ASSERT_NE(space, std::string::npos) << line;
    EXPECT_EQ(line.substr(0, space), plots[i].rect);
    EXPECT_GE(std::stol(line.substr(space + 1)), 200) << plots[i].kind << " at " << plots[i].rect
                                                      << " is blank in the screenshot";
  }
}

}  // namespace
}  // namespace xb
