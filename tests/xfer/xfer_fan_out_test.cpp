// Many to one and one to many for real: `xfer server --clients 3` serving three client processes at
// once on its one control address, and one client moving to two servers at once (`--peer A,B`),
// over tcp and ucx on loopback with --verify: every client's every block size verified, every
// server case naming its own client, the cases of each server tagged with its index, the servers
// ending 0. A server that gets fewer clients than it waits for ends with the wait's error, and keeps
// the case of the client that came (each client's case goes to the sink as its session ends).
#include <gtest/gtest.h>

#include <algorithm>

#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <set>

#include "support/temp_dir.hpp"
#include "xfer_processes.hpp"

namespace xb {
namespace {

using test::Place;

class XferFanOut : public ::testing::TestWithParam<const char*> {};

std::vector<std::string> client(const std::string& transport, const std::string& peers) {
  return {XB_BINARY, "xfer", "client", "--peer", peers, "--transport", transport, "--block", "64K,1M", "--total",
          "2M", "--iters", "2", "--verify", "--format", "json", "-q"};
}

void expect_verified_blocks(const nlohmann::json& cases, std::size_t count) {
  ASSERT_EQ(cases.size(), count);
  for (const auto& c : cases) {
    EXPECT_EQ(c.at("status"), "ok") << c.dump();
    EXPECT_EQ(c.at("config").at("verified"), true) << c.dump();
  }
}

TEST_P(XferFanOut, ManyClientsToOneServer) {
  test::TempDir dir;
  auto server = test::start_xfer_server(Place{}, "127.0.0.1", dir.path(),
                                        {"--clients", "3", "--transport", GetParam(), "--wait", "30", "--format",
                                         "json", "-q"});
  std::vector<std::future<xbtest::RunResult>> clients;
  for (int i = 0; i < 3; ++i) {
    clients.push_back(std::async(std::launch::async, [&] { return test::run_in(Place{}, client(GetParam(), server.control)); }));
  }
  for (auto& f : clients) {
    const auto r = f.get();
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    expect_verified_blocks(nlohmann::json::parse(r.out).at("cases"), 2);
  }
  const auto served = server.process.wait_for(std::chrono::seconds(30));
  ASSERT_TRUE(served.has_value()) << "the server did not end after its clients were done";
  ASSERT_TRUE(served->exited && served->exit_code == 0) << served->describe();
  const auto cases = nlohmann::json::parse(served->out).at("cases");
  ASSERT_EQ(cases.size(), 3u) << served->out;
  std::set<std::string> seen;
  for (const auto& c : cases) {
    EXPECT_EQ(c.at("config").at("role"), "server");
    EXPECT_EQ(c.at("config").at("clients"), 3);
    EXPECT_EQ(c.at("config").at("listen"), server.control) << "one control address for all";
    seen.insert(c.at("config").at("client").get<std::string>());
  }
  EXPECT_EQ(seen.size(), 3u) << "each case names its own client";
}

TEST_P(XferFanOut, OneClientToManyServers) {
  test::TempDir a_dir, b_dir;
  auto a = test::start_xfer_server(Place{}, "127.0.0.1", a_dir.path(),
                                   {"--transport", GetParam(), "--wait", "30", "--format", "json", "-q"});
  auto b = test::start_xfer_server(Place{}, "127.0.0.1", b_dir.path(),
                                   {"--transport", GetParam(), "--wait", "30", "--format", "json", "-q"});
  const auto r = test::run_in(Place{}, client(GetParam(), a.control + "," + b.control));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto cases = nlohmann::json::parse(r.out).at("cases");
  expect_verified_blocks(cases, 4);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& config = cases[i].at("config");
    EXPECT_EQ(config.at("servers"), 2);
    EXPECT_EQ(config.at("server_index"), i / 2) << "server order, then block order";
    EXPECT_EQ(config.at("peer"), i / 2 == 0 ? a.control : b.control);
    // The server is a label too: the report's lines and compare's matching tell them apart by it.
    const auto& labels = cases[i].at("labels");
    const auto server = std::find_if(labels.begin(), labels.end(), [](const auto& l) { return l.at("key") == "server"; });
    ASSERT_NE(server, labels.end()) << labels.dump();
    EXPECT_EQ(server->at("value"), std::to_string(i / 2));
  }
  for (auto* s : {&a, &b}) {
    const auto served = s->process.wait_for(std::chrono::seconds(30));
    ASSERT_TRUE(served.has_value());
    EXPECT_TRUE(served->exited && served->exit_code == 0) << served->describe();
  }
}

INSTANTIATE_TEST_SUITE_P(Transports, XferFanOut, ::testing::Values("tcp", "ucx"));

TEST(XferFanOutServer, FewerClientsThanItWaitsForIsTheWaitsError) {
  test::TempDir dir;
  const std::string kept = (dir.path() / "kept.json").string();
  auto server = test::start_xfer_server(Place{}, "127.0.0.1", dir.path(),
                                        {"--clients", "2", "--transport", "tcp", "--wait", "3", "-q", "--output", kept});
  const auto r = test::run_in(Place{}, client("tcp", server.control));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto served = server.process.wait_for(std::chrono::seconds(30));
  ASSERT_TRUE(served.has_value());
  EXPECT_TRUE(served->exited && served->exit_code != 0) << served->describe();
  EXPECT_NE(served->err.find("no xferbench client came to " + server.control + " within 3 s"), std::string::npos)
      << served->err;
  std::ifstream in(kept);
  ASSERT_TRUE(in) << "no results file: " << served->describe();
  const auto doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc.at("partial").at("reason").get<std::string>().rfind("failed: ", 0), 0u) << doc.dump();
  ASSERT_EQ(doc.at("cases").size(), 1u) << doc.dump();
  EXPECT_EQ(doc.at("cases")[0].at("config").at("role"), "server");
  EXPECT_EQ(doc.at("cases")[0].at("config").at("client").get<std::string>().empty(), false);
  for (const char* bad : {"0", "65", "x"}) {
    const auto b = test::run_in(Place{}, {XB_BINARY, "xfer", "server", "--listen", "127.0.0.1:0", "--clients", bad});
    EXPECT_TRUE(b.exited && b.exit_code == 2) << bad << ": " << b.describe();
    EXPECT_NE(b.err.find("--clients"), std::string::npos) << b.err;
  }
  const auto misplaced = test::run_in(Place{}, {XB_BINARY, "xfer", "client", "--peer", "127.0.0.1:1", "--clients", "2"});
  EXPECT_TRUE(misplaced.exited && misplaced.exit_code == 2) << misplaced.describe();
}

}  // namespace
}  // namespace xb
