// `xferbench link` through the real binary: a loopback sweep in JSON with data checked (tcp and
// ucx), a separate `link --listen` server process and a client process, the server giving up when
// no client comes, and bad input (exit 2, one line naming the flag, nothing on stdout).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "jobs/link/link_plan.hpp"
#include "run_binary.hpp"
#include "support/temp_dir.hpp"
#include "transport/transport.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::TempDir;

xbtest::RunResult link(const std::string& args) {
  auto a = xbtest::split_words(args);
  a.insert(a.begin(), "link");
  return xbtest::run_binary(XB_BINARY, a);
}

using test::has_transport;

// The cases of a JSON result, each checked for the link job's consistency: sizes following the
// step from min, bandwidth = size / avg latency in decimal Gb/s, one latency sample per iteration.
nlohmann::json checked_cases(const std::string& json, std::uint64_t min, std::uint64_t step, std::size_t count,
                             std::size_t iterations) {
  const auto doc = nlohmann::json::parse(json);
  const auto& cases = doc.at("cases");
  EXPECT_EQ(cases.size(), count);
  std::uint64_t size = min;
  for (const auto& c : cases) {
    EXPECT_EQ(c.at("job"), "link");
    EXPECT_EQ(c.at("config").at("size").get<std::uint64_t>(), size);
    double avg = -1, bw = -1;
    for (const auto& m : c.at("metrics")) {  // as the table shows them: us and Gb/s
      if (m.at("name") == "latency_avg") avg = m.at("display_value").get<double>();
      if (m.at("name") == "bandwidth") bw = m.at("display_value").get<double>();
      if (m.at("name") == "bandwidth") {
        // The JSON's own unit: bytes per second, whatever the table shows (issue 18 item 2).
        EXPECT_EQ(m.at("unit"), "B/s");
        EXPECT_NEAR(m.at("value").get<double>(), m.at("display_value").get<double>() * 1e9 / 8,
                    1e-9 * m.at("value").get<double>());
      }
    }
    EXPECT_GT(avg, 0.0);
    EXPECT_NEAR(bw, link_bandwidth_gbps(size, avg), 1e-9 * bw);
    EXPECT_EQ(c.at("series").at(0).at("name"), "transfer");
    EXPECT_EQ(c.at("series").at(0).at("samples").size(), iterations);
    size *= step;
  }
  return cases;
}

class LinkCommand : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!has_transport(GetParam())) GTEST_SKIP() << GetParam() << " is not built in";
  }
};

TEST_P(LinkCommand, LoopbackSweepWithDataCheckedInJson) {
  const auto r = link("--transport " + GetParam() + " -s 1K:64K --step 4 -i 3 -x 1 -M host:cuda --check --format json");
  if (r.exit_code == 3) GTEST_SKIP() << r.err;
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto cases = checked_cases(r.out, 1024, 4, 4, 3);
  ASSERT_FALSE(cases.empty());
  const auto& config = cases.at(0).at("config");
  EXPECT_EQ(config.at("memory"), "host:cuda");
  EXPECT_EQ(config.at("check"), true);
  EXPECT_EQ(config.at("transport").at("name"), GetParam());
  EXPECT_NE(config.at("peer").get<std::string>().find("loopback"), std::string::npos);
}

TEST_P(LinkCommand, AgainstASeparateListenServer) {
  TempDir dir;
  const auto ready = dir.path() / "ready";
  auto server = xbtest::start_binary(XB_BINARY, {"link", "--listen", "127.0.0.1:0", "--ready-file", ready.string(),
                                                 "--transport", GetParam(), "--wait", "60"});
  // The server writes its bound addresses once it listens.
  std::string control;
  for (int i = 0; i < 600 && control.empty(); ++i) {
    std::ifstream f(ready);
    std::string key, value;
    while (f >> key >> value) {
      if (key == "control") control = value;
    }
    if (control.empty()) {
      if (auto early = server.wait_for(std::chrono::milliseconds(50))) {
        if (early->exit_code == 3) GTEST_SKIP() << early->err;
        FAIL() << "the server ended before listening: " << early->describe();
      }
    }
  }
  ASSERT_FALSE(control.empty()) << "no ready file from the server";
  const auto r = link("--peer " + control + " --transport " + GetParam() +
                      " -s 4K:256K --step 8 -i 4 -x 1 -M cuda:cuda --check --format json");
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto cases = checked_cases(r.out, 4096, 8, 3, 4);
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(cases.at(0).at("config").at("peer"), control);
  EXPECT_EQ(cases.at(0).at("config").at("dst").at("description"), "cpu::device::0");
  const auto s = server.wait_for(std::chrono::seconds(30));
  ASSERT_TRUE(s.has_value()) << "the server did not end after its client finished";
  EXPECT_TRUE(s->exited && s->exit_code == 0) << s->describe();
  EXPECT_NE(s->err.find("served"), std::string::npos) << s->err;
  EXPECT_FALSE(std::filesystem::exists(ready)) << "the ready file goes with the server";
}

// --pingpong through the binary: half the round trip in the JSON under its own names, the table's
// columns naming it, never latency_avg beside it.
TEST_P(LinkCommand, PingPongNamesHalfTheRoundTrip) {
  const auto r = link("--pingpong --check --transport " + GetParam() + " -s 8:512 --step 8 -i 20 -x 2 --format json");
  if (r.exited && r.exit_code == 3) GTEST_SKIP() << r.err;
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto cases = nlohmann::json::parse(r.out).at("cases");
  ASSERT_EQ(cases.size(), 3u);
  for (const auto& c : cases) {
    std::vector<std::string> names;
    for (const auto& m : c.at("metrics")) names.push_back(m.at("name"));
    EXPECT_EQ(names, (std::vector<std::string>{"half_rtt_avg", "half_rtt_min", "half_rtt_max", "bandwidth",
                                               "iterations"}))
        << c.dump();
  }
  const auto table = link("--pingpong --transport " + GetParam() + " -s 8 -i 5 -x 0");
  ASSERT_TRUE(table.exited && table.exit_code == 0) << table.describe();
  EXPECT_NE(table.out.find("half_rtt_avg(us)"), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find("latency_avg"), std::string::npos) << table.out;
}

INSTANTIATE_TEST_SUITE_P(Transports, LinkCommand, ::testing::Values("tcp", "ucx"));

// UCX's own log lines go to stderr, never into a result on stdout (UCX prints them to stdout unless
// UCX_LOG_FILE is set; the transport routes them). A transport named in UCX_TLS that does not
// exist draws UCX's warning at every start.
TEST(LinkCommandUcxLog, UcxWarningsGoToStderrNotIntoTheResult) {
  if (!has_transport("ucx")) GTEST_SKIP() << "ucx is not built in";
  auto options = xbtest::default_options();
  options.env.push_back("UCX_TLS=tcp,no_such_tl");
  options.unset_env.push_back("UCX_LOG_FILE");
  const auto r =
      xbtest::run_binary(XB_BINARY, xbtest::split_words("link --transport ucx -s 4:4 -i 2 -x 1 --format json"), options);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  nlohmann::json doc;
  EXPECT_NO_THROW(doc = nlohmann::json::parse(r.out)) << r.out;
  EXPECT_TRUE(doc.contains("cases")) << r.out;
  EXPECT_EQ(r.out.find("WARN"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("[UCX WARN]"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'no_such_tl' is not available"), std::string::npos) << r.err;
}

TEST(LinkCommandServer, GivesUpWhenNoClientComes) {
  const auto r = link("--listen 127.0.0.1:0 --transport tcp --wait 1 --quiet");
  EXPECT_TRUE(r.exited && r.exit_code == 1) << r.describe();
  EXPECT_EQ(xbtest::split_lines(r.err).size(), 1u) << r.err;
}

TEST(LinkCommandBadInput, OneLineNamingTheFlag) {
  struct Case {
    const char* args;
    const char* flag;
  };
  const Case cases[] = {
      {"-s 8K:4K", "-s"},
      {"-s 0", "-s"},
      {"-s 4K:lots", "-s"},
      {"--step 1", "--step"},
      {"--step x", "--step"},
      {"-i 0", "-i"},
      {"-x -1", "-x"},
      {"-M gpu", "-M"},
      {"-M host:cuda:null", "-M"},
      {"-M null --check", "--check"},
      {"-M host:null --check", "--check"},
      {"--pingpong -M cuda", "--pingpong"},
      {"--pingpong -M host:null", "--pingpong"},
      {"--listen 127.0.0.1:0 --pingpong", "--pingpong"},
      {"--transport carrier-pigeon", "--transport"},
      {"--peer nowhere:port", "--peer"},
      {"--peer 127.0.0.1:70000", "--peer"},
      {"--peer 127.0.0.1:2000 --loopback", "--loopback"},
      {"--ready-file /tmp/x", "--ready-file"},
      {"--listen 127.0.0.1:0 -s 4K", "--size"},
      {"--listen 300.1.1.1:1", "--listen"},
      {"--format yaml", "--format"},
      {"--wait 0", "--wait"},
  };
  for (const auto& c : cases) {
    const auto r = link(c.args);
    EXPECT_TRUE(r.exited && r.exit_code == 2) << c.args << ": " << r.describe();
    const auto lines = xbtest::split_lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << c.args << ": " << r.err;
    EXPECT_NE(lines[0].find(c.flag), std::string::npos) << c.args << ": " << lines[0];
    EXPECT_TRUE(r.out.empty()) << c.args << ": " << r.out;
  }
}

}  // namespace
}  // namespace xb
