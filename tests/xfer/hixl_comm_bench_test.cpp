// The hixl_comm_bench dialect: its key=value command line onto the xfer plan (each role's
// defaults, the short aliases, block ladders, every rule; what needs UB or several devices per
// process is exit 3), its lines and rows from known figures (HIXL's direction names, block labels,
// the summary, the CSV's 17 columns), and the real binary through its link: a target and an
// initiator (pairwise), a target serving two initiators at once (many_to_one), an initiator moving
// to two targets at once (one_to_many), each run's [INFO] and [RESULT] lines and its CSV and JSONL
// rows parsed and checked against each other.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "dialects/hixl_comm_bench.hpp"
#include "jobs/xfer/xfer_config.hpp"
#include "support/temp_dir.hpp"
#include "xfer_processes.hpp"

namespace xb {
namespace {

HixlCommBenchRequest parse(const std::string& words) { return parse_hixl_comm_bench(xbtest::split_words(words)); }

TEST(HixlCommBenchParse, EachRolesDefaultsAndAliases) {
  const auto i = parse("--role=initiator");
  EXPECT_EQ(i.plan.role, XferRole::client);
  EXPECT_EQ(i.device, 0);
  ASSERT_EQ(i.remotes.size(), 1u);
  EXPECT_EQ(i.remotes[0].to_string(), "127.0.0.1:16001");
  EXPECT_EQ(i.plan.total, 128u << 20);
  EXPECT_EQ(i.plan.blocks, (std::vector<std::uint64_t>{128u << 20}));
  EXPECT_EQ(i.plan.iters, 1u);
  EXPECT_EQ(i.plan.op, XferOp::read);
  EXPECT_TRUE(i.plan.verify) << "a read's buffer is checked, as HIXL checks its fill";
  EXPECT_EQ(i.plan.mode.local, RegionPlace::device);
  EXPECT_EQ(i.plan.mode.remote, RegionPlace::device);
  EXPECT_EQ(i.plan.wait, std::chrono::seconds(60));
  EXPECT_EQ(i.output_dir, "output");
  EXPECT_EQ(hixl_comm_direction(i), "rD2D");
  const auto t = parse("-r=target -c=3 -w=7 -l=127.0.0.1:17000 --memory=host");
  EXPECT_EQ(t.plan.role, XferRole::server);
  EXPECT_EQ(t.device, 1);
  EXPECT_EQ(t.plan.clients, 3u);
  EXPECT_EQ(t.plan.wait, std::chrono::seconds(7));
  EXPECT_EQ(t.plan.control.to_string(), "127.0.0.1:17000");
  const auto w = parse("--role=initiator -o=write -d=2 -e=127.0.0.1:1,[::1]:2 -t=1M --block_sizes=16K:1M -n=5 -x=true "
                       "-y=4 -C=1500 -H=BufferPool=0:0 --group=dual --transport=roce --memory=host");
  EXPECT_EQ(w.plan.op, XferOp::write);
  EXPECT_FALSE(w.plan.verify);
  EXPECT_EQ(w.device, 2);
  ASSERT_EQ(w.remotes.size(), 2u);
  EXPECT_EQ(w.remotes[1].to_string(), "[::1]:2");
  EXPECT_EQ(w.plan.blocks.size(), 7u);
  EXPECT_EQ(w.plan.iters, 5u);
  EXPECT_EQ(w.async_batch, 4u);
  EXPECT_EQ(w.plan.wait, std::chrono::seconds(2));
  EXPECT_TRUE(w.network_path);
  EXPECT_EQ(hixl_comm_direction(w), "H2rD");
}

TEST(HixlCommBenchParse, DirectionNamesAsHixlComputesThem) {
  const std::pair<const char*, const char*> cases[] = {
      {"--memory=device --remote_memory=device --op=write", "D2rD"}, {"--memory=device --remote_memory=device", "rD2D"},
      {"--memory=device --remote_memory=host --op=write", "D2rH"},   {"--memory=device --remote_memory=host", "rH2D"},
      {"--memory=host --remote_memory=host --op=write", "H2rH"},     {"--memory=host --remote_memory=host", "rH2H"},
      {"--memory=host --remote_memory=device --op=write", "H2rD"},   {"--memory=host --remote_memory=device", "rD2H"}};
  for (const auto& [args, direction] : cases) {
    EXPECT_EQ(hixl_comm_direction(parse(std::string("--role=initiator ") + args)), direction) << args;
  }
}

TEST(HixlCommBenchParse, RulesAndAbsentPaths) {
  for (const char* bad : {"--role", "role=target", "--role=both", "--transport=nvlink", "--role=initiator --op=copy",
                          "--role=initiator --bogus=1", "--role=initiator --block_sizes=16K:48K",
                          "--role=initiator --transfer_size=1M --block_sizes=3K",
                          "--role=initiator --transfer_size=1M --block_sizes=2M",
                          "--role=initiator --transfer_size=2G --buffer_size=1G", "--role=initiator -x=maybe",
                          "--role=initiator --transfer_size=1M -y=3", "--role=target --peer_count=0",
                          "--role=target --peer_wait_s=0", "--role=initiator --memory=gpu", "--role=initiator -e=nohost",
                          "--role=initiator -H=novalue", ""}) {
    EXPECT_THROW(parse(bad), UsageError) << bad;
  }
  try {
    parse("--role=initiator --loops 3");
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "Expected key=value, got: --loops");
  }
  for (const char* absent : {"--role=initiator --transport=ub", "--role=target --transport=fabric_mem",
                             "--role=initiator --op=mix", "--role=initiator --device_id=0,1"}) {
    EXPECT_THROW(parse(absent), Unavailable) << absent;
  }
  EXPECT_THROW(parse("--role=initiator -h"), HelpRequested);
}

CaseResult client_case(std::uint64_t block, std::uint64_t total, std::vector<double> times_us, bool verified) {
  CaseResult c;
  XferClientConfig config;
  config.block = block;
  config.total = total;
  config.transfers = total / block;
  config.verified = verified;
  c.config = config;
  c.series.push_back(make_series("time", "us", std::move(times_us)));
  return c;
}

TEST(HixlCommBenchRender, LabelsSummaryAndRows) {
  EXPECT_EQ(hixl_block_label(16384), "16 KiB");
  EXPECT_EQ(hixl_block_label(2u << 20), "2 MiB");
  EXPECT_EQ(hixl_block_label(1u << 30), "1 GiB");
  EXPECT_EQ(hixl_block_label(1000), "1000 B");
  EXPECT_EQ(hixl_block_label(1536), "1536 B");
  // 128 MiB in 5000 us: 26.8435 GB/s, as the research's example row.
  const CaseResult c = client_case(16384, 128u << 20, {5000.0, 10000.0}, true);
  const std::vector<CaseResult> cases{c, client_case(32768, 128u << 20, {5000.0}, true)};
  EXPECT_EQ(render_hixl_comm_summary(cases, 0, false),
            "[RESULT] throughput summary: 16 KiB=20.133 GB/s, 32 KiB=26.844 GB/s\n");
  EXPECT_EQ(render_hixl_comm_summary(cases, 1, true).rfind("[RESULT] throughput summary remote=1: 16 KiB=", 0), 0u);
  HixlCommBenchRequest r = parse("--role=initiator --group=single --memory=device --remote_memory=device --op=write");
  const auto rows = hixl_comm_csv_rows(r, c);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], "hixl_comm_bench,single,,,16384,1,1,hccs,D2rD,device,device,26.8435,1.6384e+06,0.610352,0.610352,0,not_checked");
  r.op = "read";
  EXPECT_EQ(hixl_comm_csv_rows(r, c)[1].substr(hixl_comm_csv_rows(r, c)[1].rfind(',') + 1), "pass");
  const auto j = nlohmann::json::parse(hixl_comm_jsonl_rows(r, c).at(0));
  EXPECT_EQ(j.at("pattern"), "single");
  EXPECT_EQ(j.at("block_size"), 16384);
  EXPECT_EQ(j.at("direction"), "rD2D");
  EXPECT_NEAR(j.at("bandwidth_gbps").get<double>(), 26.8435, 1e-4);
  const std::string header = kHixlCommCsvHeader;
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), 16);
}

// ---- the real binary ---------------------------------------------------------------------------

const std::string kLink = (std::filesystem::path(XB_BINARY).parent_path() / "hixl_comm_bench").string();

xbtest::Process target(std::uint16_t port, const std::string& extra = "") {
  auto a = xbtest::split_words("--role=target --memory=host --peer_wait_s=30 --local_engine=127.0.0.1:" +
                               std::to_string(port) + " " + extra);
  return xbtest::start_binary(kLink, a);
}

xbtest::RunResult initiator(const std::string& remotes, const std::filesystem::path& out, const std::string& extra = "") {
  return xbtest::run_binary(kLink, xbtest::split_words("--role=initiator --memory=host --remote_memory=device "
                                                       "--transfer_size=1M --block_sizes=16K:64K --loops=2 "
                                                       "--connect_timeout_ms=30000 --remote_engine=" +
                                                       remotes + " --output_dir=" + out.string() + " " + extra));
}

// The rows of the one CSV (and JSONL) file an initiator wrote.
std::vector<std::string> csv_rows(const std::filesystem::path& dir, std::vector<std::string>* jsonl) {
  std::vector<std::string> rows;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const auto name = e.path().filename().string();
    std::ifstream in(e.path());
    std::vector<std::string>* into = name.ends_with(".csv") ? &rows : jsonl;
    EXPECT_TRUE(std::regex_match(name, std::regex(R"(comm_result_[0-9]+\.(csv|jsonl))"))) << name;
    for (std::string line; std::getline(in, line);) into->push_back(line);
  }
  return rows;
}

// An initiator's stdout: its [INFO] line, then one summary line per remote with three blocks.
void expect_initiator_output(const std::string& out, std::size_t remotes) {
  const auto lines = xbtest::split_lines(out);
  ASSERT_EQ(lines.size(), 1 + remotes) << out;
  EXPECT_EQ(lines[0].rfind("[INFO] role=initiator group=default transport=hccs memory=host remote_memory=device op=read "
                           "direction=rD2H device_id=0 ",
                           0),
            0u)
      << lines[0];
  EXPECT_NE(lines[0].find(" transfer_size=1048576 buffer_size=1073741824 block_sizes=16 KiB,32 KiB,64 KiB loops=2"),
            std::string::npos)
      << lines[0];
  const std::regex summary(R"(\[RESULT\] throughput summary( remote=\d)?: 16 KiB=[0-9.]+ GB/s, 32 KiB=[0-9.]+ GB/s, 64 KiB=[0-9.]+ GB/s)");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    EXPECT_TRUE(std::regex_match(lines[i], summary)) << lines[i];
    if (remotes > 1) {
      EXPECT_NE(lines[i].find("remote=" + std::to_string(i - 1)), std::string::npos) << lines[i];
    }
  }
}

// Every CSV row: the 17 columns, the block sizes, bandwidth = 1 MiB / (avg latency x transfers).
void expect_rows(const std::vector<std::string>& rows, std::size_t count) {
  ASSERT_EQ(rows.size(), count + 1);
  EXPECT_EQ(rows[0], kHixlCommCsvHeader);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    std::vector<std::string> f;
    std::stringstream in(rows[i]);
    for (std::string cell; std::getline(in, cell, ',');) f.push_back(cell);
    if (rows[i].back() == ',') f.emplace_back();
    ASSERT_EQ(f.size(), 17u) << rows[i];
    EXPECT_EQ(f[0], "hixl_comm_bench");
    EXPECT_EQ(f[1], "default");
    const double block = std::stod(f[4]), gbps = std::stod(f[11]), latency = std::stod(f[13]);
    EXPECT_TRUE(block == 16384 || block == 32768 || block == 65536) << rows[i];
    EXPECT_EQ(f[8], "rD2H");
    EXPECT_EQ(f[13], f[14]) << "p99 repeats the average, as HIXL's";
    EXPECT_NEAR(gbps, 1048576.0 / (latency * (1048576.0 / block)) / 1e3, gbps * 1e-4) << rows[i];
    EXPECT_EQ(f[16], "pass");
  }
}

TEST(HixlCommBenchCommand, PairwiseTargetAndInitiator) {
  test::TempDir dir;
  const std::uint16_t port = test::free_tcp_port();
  auto t = target(port);
  const auto r = initiator("127.0.0.1:" + std::to_string(port), dir.path());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  expect_initiator_output(r.out, 1);
  std::vector<std::string> jsonl;
  expect_rows(csv_rows(dir.path(), &jsonl), 6);  // 3 blocks x 2 loops
  ASSERT_EQ(jsonl.size(), 6u);
  for (const auto& line : jsonl) EXPECT_EQ(nlohmann::json::parse(line).at("consistency"), "pass");
  const auto done = t.wait_for(std::chrono::seconds(30));
  ASSERT_TRUE(done.has_value());
  ASSERT_TRUE(done->exited && done->exit_code == 0) << done->describe();
  const auto lines = xbtest::split_lines(done->out);
  ASSERT_EQ(lines.size(), 2u) << done->out;
  EXPECT_EQ(lines[0].rfind("[INFO] role=target group=default transport=hccs memory=host device_id=1 local_engine=127.0.0.1:", 0), 0u)
      << lines[0];
  EXPECT_EQ(lines[1], "[INFO] target done: served 1 initiator(s)");
}

TEST(HixlCommBenchCommand, ManyToOneAndOneToMany) {
  test::TempDir a_dir, b_dir, c_dir;
  const std::uint16_t port = test::free_tcp_port();
  auto t = target(port, "--peer_count=2");
  const std::string remote = "127.0.0.1:" + std::to_string(port);
  auto first = std::async(std::launch::async, [&] { return initiator(remote, a_dir.path()); });
  const auto second = initiator(remote, b_dir.path());
  const auto one = first.get();
  for (const auto* r : {&one, &second}) {
    ASSERT_TRUE(r->exited && r->exit_code == 0) << r->describe();
    expect_initiator_output(r->out, 1);
  }
  const auto served = t.wait_for(std::chrono::seconds(30));
  ASSERT_TRUE(served.has_value());
  ASSERT_TRUE(served->exited && served->exit_code == 0) << served->describe();
  EXPECT_NE(served->out.find("[INFO] target done: served 2 initiator(s)"), std::string::npos) << served->out;

  const std::uint16_t p1 = test::free_tcp_port(), p2 = test::free_tcp_port();
  auto t1 = target(p1);
  auto t2 = target(p2);
  const auto r = initiator("127.0.0.1:" + std::to_string(p1) + ",127.0.0.1:" + std::to_string(p2), c_dir.path());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  expect_initiator_output(r.out, 2);
  std::vector<std::string> jsonl;
  expect_rows(csv_rows(c_dir.path(), &jsonl), 12);  // 2 remotes x 3 blocks x 2 loops
  for (auto* t_ : {&t1, &t2}) {
    const auto d = t_->wait_for(std::chrono::seconds(30));
    ASSERT_TRUE(d.has_value());
    EXPECT_TRUE(d->exited && d->exit_code == 0) << d->describe();
  }
}

TEST(HixlCommBenchCommand, BadInputIsExit2AbsentIsExit3NothingWritten) {
  test::TempDir dir;
  const auto out = dir.path() / "out";
  const auto bad = xbtest::run_binary(kLink, {"--role=initiator", "--loops", "--output_dir=" + out.string()});
  EXPECT_TRUE(bad.exited && bad.exit_code == 2) << bad.describe();
  EXPECT_EQ(xbtest::split_lines(bad.err).size(), 1u) << bad.err;
  EXPECT_NE(bad.err.find("Expected key=value, got: --loops"), std::string::npos) << bad.err;
  const auto ub = xbtest::run_binary(kLink, {"--role=initiator", "--transport=ub", "--output_dir=" + out.string()});
  EXPECT_TRUE(ub.exited && ub.exit_code == 3) << ub.describe();
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace xb
