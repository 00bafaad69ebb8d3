// ascend-dmi's other bandwidth outputs: -t h2d|d2h|d2d (and no -t: all three) through the copy job,
// the all-devices p2p matrices (no --ds/--dd), and --fmt json. Rendered from known figures, parsed
// from the command line, and run through the real binary's ascend-dmi link on the cpu backend: the
// positions public scripts read (FlagPerf's h2d parser: line 6, field 4 is the bandwidth), every row
// checked against its own figures (bandwidth = size x executions / total elapsed, decimal GB/s),
// the matrices found by their titles (rows the source, columns the destination, 0 on the diagonal),
// and the JSON's every field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.hpp"
#include "core/matrix.hpp"
#include "dialects/ascend_dmi.hpp"
#include "dialects/ascend_dmi_output.hpp"
#include "jobs/copy/copy_config.hpp"
#include "jobs/p2p/p2p_job.hpp"
#include "run_binary.hpp"

namespace xb {
namespace {

std::vector<std::string> dmi_words(const std::string& s) { return xbtest::split_words(s); }

std::vector<std::string> fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

TEST(AscendDmiBandwidth, TheCopyTableAndItsPositions) {
  const AscendDmiCopyRow row{536870912, 50, 58.125, 461900.0};
  const std::string text = render_ascend_dmi_copy_header(CopyDirection::h2d, 0) + render_ascend_dmi_copy_row(0, row) +
                           render_ascend_dmi_copy_footer();
  const std::string rule(66, '-');
  EXPECT_EQ(text,
            "Host to Device Bandwidth Test\n"
            "Device id: 0\n" +
                rule +
                "\n"
                "  ID  Size(Bytes)  Execute Times  Bandwidth(GB/s)  Elapsed Time(us)\n" +
                rule +
                "\n"
                "   0    536870912             50        58.125000         461900.00\n" +
                rule + "\n\n");
  const auto lines = xbtest::split_lines(text);
  // `awk 'NR>5 && NR<7 {print $4}'`: the bandwidth.
  EXPECT_EQ(fields(lines.at(5)).at(3), "58.125000");
  EXPECT_EQ(ascend_dmi_copy_title(CopyDirection::d2h), "Device to Host Bandwidth Test");
  EXPECT_EQ(ascend_dmi_copy_title(CopyDirection::d2d), "Device to Device Bandwidth Test");
}

TEST(AscendDmiBandwidth, TheRowOfACopyCase) {
  CaseResult c;
  CopyConfig config;
  config.block_bytes = 1000;
  config.blocks = 1;
  c.config = config;
  c.series.push_back(make_series("copy", "us", {1.0, 2.0, 3.0, 4.0}));
  const AscendDmiCopyRow r = ascend_dmi_copy_row(c);
  EXPECT_EQ(r.size, 1000u);
  EXPECT_EQ(r.times, 4u);
  EXPECT_DOUBLE_EQ(r.elapsed_us, 10.0);
  EXPECT_DOUBLE_EQ(r.bandwidth_gbps, 1000.0 * 4 / 10.0 / 1e3);  // 0.4 GB/s
}

TEST(AscendDmiBandwidth, TheMatrixRowsAreSourcesColumnsDestinations) {
  Matrix m;
  m.rows = m.cols = {"d0", "d1", "d2"};
  m.values = {{std::nullopt, 391.2, 389.71}, {390.8, std::nullopt, 388.9}, {389.4, std::nullopt, std::nullopt}};
  m.unit = "GB/s";
  CaseResult c;
  c.labels = {{"direction", "unidirectional"}};
  c.config["matrix"] = matrix_to_json(m);
  EXPECT_EQ(render_ascend_dmi_matrix(c),
            "Unidirectional Peer to Peer Test\n"
            "       0         1         2\n"
            "0      0         391.20    389.71\n"
            "1      390.80    0         388.90\n"
            "2      389.40    0         0\n"
            "\n");
  c.labels = {{"direction", "bidirectional"}};
  EXPECT_EQ(render_ascend_dmi_matrix(c).rfind("Bidirectional Peer to Peer Test\n", 0), 0u);
}

TEST(AscendDmiBandwidth, TheJsonDocument) {
  AscendDmiJson doc;
  doc.add_copy(CopyDirection::h2d, 2, {2, 5, 0.0004, 24.5});
  doc.add_copy(CopyDirection::h2d, 2, {4, 5, 0.0008, 25.0});
  doc.add_copy(CopyDirection::d2d, 2, {2, 5, 0.0004, 24.0});
  const auto j = nlohmann::json::parse(doc.dump());
  ASSERT_EQ(j.at("bandwidths").size(), 2u);
  const auto& h2d = j["bandwidths"][0];
  EXPECT_EQ(h2d.at("type"), "Host to Device Bandwidth Test");
  EXPECT_EQ(h2d.at("device_id"), 2);
  ASSERT_EQ(h2d.at("results").size(), 2u);
  EXPECT_EQ(h2d["results"][0], (nlohmann::json{{"size", "2 Bytes"},
                                               {"execute_times", 5},
                                               {"bandwidth", "0.000400 GB/s"},
                                               {"elapsed_time", "24.50 us"}}));
  EXPECT_EQ(j["bandwidths"][1].at("type"), "Device to Device Bandwidth Test");
}

// A pair that never ran (waived: no peer access) has no configuration; its JSON entry still names
// the size the plan asked for, and the reason.
TEST(AscendDmiBandwidth, AWaivedPairInTheJsonDocumentNamesThePlansSize) {
  P2pPlan plan;
  plan.size = 4096;
  const CaseResult waived = make_p2p_waived_case(plan, "cpu::device::0", "cpu::device::1", true, "no peer access");
  ASSERT_TRUE(waived.config.is_null());
  AscendDmiJson doc;
  doc.add_p2p(waived, plan.size, "pod-a", 0, "pod-a", 1);
  const auto j = nlohmann::json::parse(doc.dump());
  ASSERT_EQ(j.at("bandwidths").size(), 1u);
  EXPECT_EQ(j["bandwidths"][0].at("type"), "Bidirectional Peer to Peer Test");
  EXPECT_EQ(j["bandwidths"][0].at("results")[0],
            (nlohmann::json{{"size", "4096 Bytes"}, {"status", "waived"}, {"reason", "no peer access"}}));
}

TEST(AscendDmiBandwidth, TheCommandLineOfTheCopyTests) {
  const auto all = parse_ascend_dmi(dmi_words("--bw -q"));
  ASSERT_TRUE(all.copies);
  EXPECT_EQ(all.copies->directions, (std::vector<CopyDirection>{CopyDirection::h2d, CopyDirection::d2h, CopyDirection::d2d}));
  // Step mode: 2 B to 32 MiB, doubling, 5 executions each.
  ASSERT_EQ(all.copies->sizes.size(), 25u);
  EXPECT_EQ(all.copies->sizes.front(), 2u);
  EXPECT_EQ(all.copies->sizes.back(), 32u << 20);
  EXPECT_EQ(all.copies->executions, 5u);
  EXPECT_EQ(all.copies->device, 0);
  // Fixed mode: -s, 40 executions unless --et.
  const auto h2d = parse_ascend_dmi(dmi_words("--bw -t h2d -s 536870912 --et 50 -q -d 1 --fmt json"));
  ASSERT_TRUE(h2d.copies);
  EXPECT_EQ(h2d.copies->directions, (std::vector<CopyDirection>{CopyDirection::h2d}));
  EXPECT_EQ(h2d.copies->sizes, (std::vector<std::uint64_t>{536870912}));
  EXPECT_EQ(h2d.copies->executions, 50u);
  EXPECT_EQ(h2d.copies->device, 1);
  EXPECT_TRUE(h2d.json);
  EXPECT_EQ(parse_ascend_dmi(dmi_words("--bw -t d2h -s 8")).copies->executions, 40u);
  EXPECT_FALSE(parse_ascend_dmi(dmi_words("--bw -t p2p --ds 0 --dd 1")).copies);
  for (const char* bad : {"--bw -t h2d --sp 2", "--bw -t d2d -m card", "--bw -t x2y", "--bw --fmt xml", "--bw -d x"}) {
    EXPECT_THROW(parse_ascend_dmi(dmi_words(bad)), UsageError) << bad;
  }
}

// ---- the real binary ---------------------------------------------------------------------------

void expect_copy_table(const std::vector<std::string>& lines, std::size_t at, const std::string& title,
                       const std::vector<std::uint64_t>& sizes, std::uint64_t times, int device) {
  SCOPED_TRACE(title);
  const std::string rule(66, '-');
  ASSERT_GE(lines.size(), at + 6 + sizes.size());
  EXPECT_EQ(lines[at], title);
  EXPECT_EQ(lines[at + 1], "Device id: " + std::to_string(device));
  EXPECT_EQ(lines[at + 2], rule);
  EXPECT_EQ(lines[at + 3], "  ID  Size(Bytes)  Execute Times  Bandwidth(GB/s)  Elapsed Time(us)");
  EXPECT_EQ(lines[at + 4], rule);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::string& row = lines[at + 5 + i];
    EXPECT_EQ(row.size(), 67u) << row;
    const auto f = fields(row);
    ASSERT_EQ(f.size(), 5u) << row;
    EXPECT_EQ(f[0], std::to_string(device));
    EXPECT_EQ(f[1], std::to_string(sizes[i]));
    EXPECT_EQ(f[2], std::to_string(times));
    const double bw = std::stod(f[3]), elapsed = std::stod(f[4]);
    EXPECT_GT(elapsed, 0.0) << row;
    const double expected = static_cast<double>(sizes[i] * times) / elapsed / 1e3;
    EXPECT_NEAR(bw, expected, expected * 0.005 / elapsed + 1e-6) << row;
  }
  EXPECT_EQ(lines[at + 5 + sizes.size()], rule);
  EXPECT_EQ(lines[at + 6 + sizes.size()], "");
}

TEST(AscendDmiBandwidthCommand, HostToDeviceFixedModeWhereScriptsReadIt) {
  const auto r = xbtest::run_binary(XB_ASCEND_DMI_LINK, dmi_words("--bw -t h2d -s 1048576 --et 5 -q -d 1"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(r.err, "");
  const auto lines = xbtest::split_lines(r.out);
  ASSERT_EQ(lines.size(), 8u) << r.out;
  expect_copy_table(lines, 0, "Host to Device Bandwidth Test", {1048576}, 5, 1);
  EXPECT_GT(std::stod(fields(lines[5]).at(3)), 0.0);  // line 6, field 4
}

TEST(AscendDmiBandwidthCommand, NoTypeIsAllThreeAndStepModeLaddersTheSizes) {
  const auto r = xbtest::run_binary(XB_ASCEND_DMI_LINK, dmi_words("--bw -s 65536 --et 3 -q"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = xbtest::split_lines(r.out);
  ASSERT_EQ(lines.size(), 24u) << r.out;
  expect_copy_table(lines, 0, "Host to Device Bandwidth Test", {65536}, 3, 0);
  expect_copy_table(lines, 8, "Device to Host Bandwidth Test", {65536}, 3, 0);
  expect_copy_table(lines, 16, "Device to Device Bandwidth Test", {65536}, 3, 0);
  const auto step = xbtest::run_binary(XB_ASCEND_DMI_LINK, dmi_words("--bw -t d2d -q"));
  ASSERT_TRUE(step.exited && step.exit_code == 0) << step.describe();
  const auto step_lines = xbtest::split_lines(step.out);
  ASSERT_EQ(step_lines.size(), 32u) << step.out;
  expect_copy_table(step_lines, 0, "Device to Device Bandwidth Test", ascend_dmi_step_sizes(), 5, 0);
}

TEST(AscendDmiBandwidthCommand, JsonOfTheCopyAndPairTests) {
  const auto r = xbtest::run_binary(XB_ASCEND_DMI_LINK, dmi_words("--bw -t d2h -s 4096 --et 2 --fmt json -q"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("bandwidths").size(), 1u);
  const auto& e = j["bandwidths"][0];
  EXPECT_EQ(e.at("type"), "Device to Host Bandwidth Test");
  EXPECT_EQ(e.at("device_id"), 0);
  ASSERT_EQ(e.at("results").size(), 1u);
  const auto& res = e["results"][0];
  EXPECT_EQ(res.at("size"), "4096 Bytes");
  EXPECT_EQ(res.at("execute_times"), 2);
  const std::string bw = res.at("bandwidth"), el = res.at("elapsed_time");
  EXPECT_EQ(bw.substr(bw.size() - 5), " GB/s");
  EXPECT_EQ(el.substr(el.size() - 3), " us");
  EXPECT_NEAR(std::stod(bw), 4096.0 * 2 / std::stod(el) / 1e3, 1e-3);

  const auto p = xbtest::run_binary(XB_ASCEND_DMI_LINK, dmi_words("--bw -t p2p --ds 1 --dd 0 -s 65536 --et 2 --fmt json -q"));
  ASSERT_TRUE(p.exited && p.exit_code == 0) << p.describe();
  const auto pj = nlohmann::json::parse(p.out);
  ASSERT_EQ(pj.at("bandwidths").size(), 2u);
  EXPECT_EQ(pj["bandwidths"][0].at("type"), "Unidirectional Peer to Peer Test");
  EXPECT_EQ(pj["bandwidths"][1].at("type"), "Bidirectional Peer to Peer Test");
  for (const auto& b : pj["bandwidths"]) {
    EXPECT_EQ(b.at("source_device_id"), 1);
    EXPECT_EQ(b.at("target_device_id"), 0);
    ASSERT_EQ(b.at("results").size(), 1u);
    EXPECT_EQ(b["results"][0].at("size"), "65536 Bytes");
    EXPECT_EQ(b["results"][0].at("execute_times"), 2);
  }
}

TEST(AscendDmiBandwidthCommand, EveryPairAsTheTwoMatrices) {
  const auto r = xbtest::run_binary(XB_ASCEND_DMI_LINK, dmi_words("--bw -t p2p -m card -q -s 1048576 --et 2"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(r.err, "");
  const auto lines = xbtest::split_lines(r.out);
  // Two devices here (the cpu backend's arenas): title, ids, a row per source, a blank line; twice.
  ASSERT_EQ(lines.size(), 10u) << r.out;
  for (const std::size_t at : {std::size_t{0}, std::size_t{5}}) {
    EXPECT_EQ(lines[at], at == 0 ? "Unidirectional Peer to Peer Test" : "Bidirectional Peer to Peer Test");
    EXPECT_EQ(fields(lines[at + 1]), (std::vector<std::string>{"0", "1"}));
    for (int src = 0; src < 2; ++src) {
      const auto f = fields(lines[at + 2 + static_cast<std::size_t>(src)]);
      ASSERT_EQ(f.size(), 3u) << r.out;
      EXPECT_EQ(f[0], std::to_string(src));
      EXPECT_EQ(f[1 + static_cast<std::size_t>(src)], "0") << "the diagonal";
      EXPECT_GT(std::stod(f[2 - static_cast<std::size_t>(src)]), 0.0) << r.out;
    }
    EXPECT_EQ(lines[at + 4], "");
  }
  // --fmt json does not apply to it, as the tool's; said after the output unless -q.
  const auto j = xbtest::run_binary(XB_ASCEND_DMI_LINK, dmi_words("--bw -t p2p -s 4096 --et 1 --fmt json"));
  ASSERT_TRUE(j.exited && j.exit_code == 0) << j.describe();
  EXPECT_EQ(xbtest::split_lines(j.out).at(0), "Unidirectional Peer to Peer Test");
  EXPECT_NE(j.err.find("--fmt json does not apply to the all-devices p2p test"), std::string::npos) << j.err;
}

}  // namespace
}  // namespace xb
