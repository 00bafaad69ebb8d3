// sharp_coll_test's HCA-to-TOR test against a real far end: a separate `xferbench link --listen`
// server process named by --peer or $XFERBENCH_SHARP_PEER, and the next rank under `mpirun -n 2`
// (and 3: a rank without a partner waits). Each run's table parsed (the seed's header and widths,
// sizes following the factor, bandwidth = size / avg latency), and the line after it that says
// what the far end was; loopback stays the default and says so; -M null below 16K is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dialects/sharp_coll_test.hpp"
#include "run_binary.hpp"
#include "support/mpi_run.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using xbtest::beside_binary;

// The table of one run: the blank line, the title, the column header, one row per size.
void expect_table(const std::string& out, std::vector<std::uint64_t> sizes, std::uint64_t iters) {
  const auto lines = xbtest::split_lines(out);
  ASSERT_EQ(lines.size(), 3 + sizes.size()) << out;
  EXPECT_EQ(lines[0], "");
  EXPECT_EQ(lines[1], "HCA < -- > TOR Bandwidth test. mem_type: HOST:HOST");
  EXPECT_EQ(lines[2], "   #size(bytes)     Avg lat(us)     Min lat(us)     Max lat(us)    Avg BW(Gb/s)      iters");
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::string& row = lines[3 + i];
    EXPECT_EQ(row.size(), 15u + 4 * 16 + 11) << row;
    std::istringstream in(row);
    std::uint64_t size = 0, n = 0;
    double avg = 0, min = 0, max = 0, bw = 0;
    in >> size >> avg >> min >> max >> bw >> n;
    EXPECT_EQ(size, sizes[i]) << row;
    EXPECT_EQ(n, iters) << row;
    EXPECT_LE(min, avg + 0.01) << row;
    EXPECT_GE(max + 0.01, avg) << row;
    const double expected = static_cast<double>(size) * 8 / avg / 1e3;
    EXPECT_NEAR(bw, expected, 0.006 + expected * 0.0051 / avg) << row;
  }
}

// A `link --listen` server on 127.0.0.1 (its ready file gives the control address).
struct ListenServer {
  test::TempDir dir;
  xbtest::Process process;
  std::string control;

  ListenServer()
      : process(xbtest::start_binary(XB_BINARY, {"link", "--listen", "127.0.0.1:0", "--ready-file",
                                                 (dir.path() / "ready").string(), "--transport", "ucx", "--wait", "60"},
                                     with_tcp())) {
    for (int i = 0; i < 600 && control.empty(); ++i) {
      std::ifstream f(dir.path() / "ready");
      std::string key, value;
      while (f >> key >> value) {
        if (key == "control") control = value;
      }
      if (control.empty() && process.wait_for(std::chrono::milliseconds(50))) break;
    }
  }
  static xbtest::RunOptions with_tcp() {
    auto o = xbtest::default_options();
    o.env.push_back("UCX_TLS=tcp");
    return o;
  }
};

TEST(SharpCollFarEnd, APeerServerNamedByFlagOrEnvironment) {
  for (const bool by_environment : {false, true}) {
    SCOPED_TRACE(by_environment ? "environment" : "--peer");
    ListenServer server;
    ASSERT_FALSE(server.control.empty()) << "no ready file from the server";
    auto options = xbtest::default_options();
    std::vector<std::string> args = {"-d", "lo", "-s", "4K:64K", "-f", "4", "-i", "5", "-x", "1"};
    if (by_environment) {
      options.env.push_back(std::string(kSharpPeerVariable) + "=" + server.control);
    } else {
      args.push_back("--peer");
      args.push_back(server.control);
    }
    const auto r = xbtest::run_binary(beside_binary("sharp_coll_test"), args, options);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    expect_table(r.out, {4096, 16384, 65536}, 5);
    EXPECT_EQ(r.err, "sharp_coll_test: far end: " + server.control + "\n");
    const auto s = server.process.wait_for(std::chrono::seconds(30));
    ASSERT_TRUE(s.has_value()) << "the server did not end after its client finished";
    EXPECT_TRUE(s->exited && s->exit_code == 0) << s->describe();
  }
}

TEST(SharpCollFarEnd, LoopbackStaysTheDefaultAndSaysSo) {
  const auto r = xbtest::run_binary(beside_binary("sharp_coll_test"), {"-s", "4:16", "-i", "3", "-x", "1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  expect_table(r.out, {4, 8, 16}, 3);
  EXPECT_EQ(r.err.rfind("sharp_coll_test: far end: loopback: a server thread of this process on 127.0.0.1:", 0), 0u)
      << r.err;
  EXPECT_NE(r.err.find("--peer HOST:PORT"), std::string::npos) << r.err;
}

TEST(SharpCollFarEnd, TheNextRankUnderMpirun) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  for (const char* ranks : {"2", "3"}) {
    SCOPED_TRACE(ranks);
    const auto r = test::run_mpirun({"-n", ranks, beside_binary("sharp_coll_test_mpi"), "-d", "lo", "-s", "1K:4K", "-i",
                                     "4", "-x", "1"});
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    expect_table(r.out, {1024, 2048, 4096}, 4);  // rank 0 alone prints
    // The far end: rank 1, serving on the address of the interface -d names.
    EXPECT_EQ(r.err.rfind("sharp_coll_test: far end: rank 1 on ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("(127.0.0.1:"), std::string::npos) << r.err;
  }
}

TEST(SharpCollFarEnd, NullMemoryBelow16KIsRefused) {
  for (const char* args : {"-M null", "-M null -s 8K:64K", "--mem_type host:null -s 4:32M"}) {
    const auto r = xbtest::run_binary(beside_binary("sharp_coll_test"), xbtest::split_words(args));
    EXPECT_TRUE(r.exited && r.exit_code == 2) << args << ": " << r.describe();
    const auto lines = xbtest::split_lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_NE(lines[0].find("with null memory the message size must be at least 16K"), std::string::npos) << lines[0];
    EXPECT_TRUE(r.out.empty());
  }
  const auto ok = xbtest::run_binary(beside_binary("sharp_coll_test"), xbtest::split_words("-M null -s 16K:32K -i 2 -x 1"));
  EXPECT_TRUE(ok.exited && ok.exit_code == 0) << ok.describe();
  for (const char* args : {"--peer 127.0.0.1", "--peer nowhere:x", "-c allreduce --peer 127.0.0.1:5"}) {
    const auto r = xbtest::run_binary(beside_binary("sharp_coll_test"), xbtest::split_words(args));
    EXPECT_TRUE(r.exited && r.exit_code == 2) << args << ": " << r.describe();
    EXPECT_NE(r.err.find("--peer"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace xb
