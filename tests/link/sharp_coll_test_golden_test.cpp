// The sharp_coll_test dialect against its seed (001_8cd62949dc6f385d.txt): the three example runs'
// header and row rendered byte for byte from their raw figures, the bandwidth computed by the link
// job's own function; the seed's command lines parsed onto the plan; -h prints the seed's usage.
#include <gtest/gtest.h>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "dialects/sharp_coll_test.hpp"
#include "jobs/link/link_config.hpp"

namespace xb {
namespace {

bool any_device(std::string_view) { return true; }

struct SeedExample {
  const char* mem;
  double avg, min, max;
  const char* text;  // the seed's lines after the command, the blank line included
};

// Copied from the seed document: the blank line, the title, the column header and the row.
const SeedExample kExamples[] = {
    {"host", 1510.23, 1466.12, 1570.44,
     "\n"
     "HCA < -- > TOR Bandwidth test. mem_type: HOST:HOST\n"
     "   #size(bytes)     Avg lat(us)     Min lat(us)     Max lat(us)    Avg BW(Gb/s)      iters\n"
     "       67108864         1510.23         1466.12         1570.44          355.49        100\n"},
    {"cuda", 1489.44, 1431.78, 1533.91,
     "\n"
     "HCA < -- > TOR Bandwidth test. mem_type: CUDA:CUDA\n"
     "   #size(bytes)     Avg lat(us)     Min lat(us)     Max lat(us)    Avg BW(Gb/s)      iters\n"
     "       67108864         1489.44         1431.78         1533.91          360.45        100\n"},
    {"null", 1409.41, 1392.64, 1432.58,
     "\n"
     "HCA < -- > TOR Bandwidth test. mem_type: HCA:HCA\n"
     "   #size(bytes)     Avg lat(us)     Min lat(us)     Max lat(us)    Avg BW(Gb/s)      iters\n"
     "       67108864         1409.41         1392.64         1432.58          380.92        100\n"},
};

TEST(SharpCollTestGolden, SeedExamplesByteForByte) {
  for (const auto& e : kExamples) {
    // The seed's own command line: sharp_coll_test -M MEM -d mlx5_0 -s 64M:64M
    const auto req = parse_sharp_coll_test({"-M", e.mem, "-d", "mlx5_0", "-s", "64M:64M"}, any_device);
    ASSERT_EQ(req.plan.min_bytes, 67108864u);
    ASSERT_EQ(req.plan.max_bytes, 67108864u);
    ASSERT_EQ(req.plan.iterations, 100u) << "the seed's iters column";
    const std::string text =
        render_sharp_coll_test_header(req.plan) +
        render_sharp_coll_test_row(67108864, e.avg, e.min, e.max, link_bandwidth_gbps(67108864, e.avg),
                                   req.plan.iterations);
    EXPECT_EQ(text, e.text) << e.mem;
  }
}

TEST(SharpCollTestGolden, RowOfALinkResult) {
  CaseResult r;
  LinkConfig config;
  config.size = 67108864;
  r.config = config;
  r.metrics = {{"latency_avg", 1510.23, "us", ""},
               {"latency_min", 1466.12, "us", ""},
               {"latency_max", 1570.44, "us", ""},
               {"bandwidth", link_bandwidth_gbps(67108864, 1510.23), "Gb/s", ""},
               {"iterations", 100, "transfers", ""}};
  EXPECT_EQ(render_sharp_coll_test_row(r),
            "       67108864         1510.23         1466.12         1570.44          355.49        100\n");
}

TEST(SharpCollTestGolden, SeedCommandLinesAndDefaults) {
  const auto defaults = parse_sharp_coll_test({}, any_device);
  EXPECT_EQ(defaults.plan.min_bytes, 4u);
  EXPECT_EQ(defaults.plan.max_bytes, 32u << 20);
  EXPECT_EQ(defaults.plan.step, 2u);
  EXPECT_EQ(defaults.plan.iterations, 100u);
  EXPECT_EQ(defaults.plan.warmup, 10u);
  EXPECT_EQ(defaults.plan.src, RegionPlace::host);
  EXPECT_EQ(defaults.plan.dst, RegionPlace::host);
  EXPECT_TRUE(defaults.net_devices.empty());
  EXPECT_FALSE(defaults.plan.peer.has_value()) << "a loopback link";

  const auto longs = parse_sharp_coll_test({"--ib-dev", "mlx5_0:1", "--iters", "7", "--skips", "3", "--mem_type",
                                            "host:cuda", "--size", "1K:1M", "--stepfactor", "4", "--jobid", "42"},
                                           any_device);
  EXPECT_EQ(longs.plan.iterations, 7u);
  EXPECT_EQ(longs.plan.warmup, 3u);
  EXPECT_EQ(longs.plan.src, RegionPlace::host);
  EXPECT_EQ(longs.plan.dst, RegionPlace::device);
  EXPECT_EQ(longs.plan.min_bytes, 1024u);
  EXPECT_EQ(longs.plan.max_bytes, 1u << 20);
  EXPECT_EQ(longs.plan.step, 4u);
  EXPECT_EQ(longs.job_id, "42");
  EXPECT_EQ(longs.ib_device, "mlx5_0:1");

  // [MIN:]MAX: MAX alone keeps the default minimum of 4 (or is the only size when smaller).
  EXPECT_EQ(parse_sharp_coll_test({"-s", "1M"}, any_device).plan.min_bytes, 4u);
  EXPECT_EQ(parse_sharp_coll_test({"-s", "2"}, any_device).plan.min_bytes, 2u);
  EXPECT_NE(render_sharp_coll_test_header(parse_sharp_coll_test({"-M", "null:host", "-s", "16K:1M"}, any_device).plan)
                .find("\nHCA < -- > TOR Bandwidth test. mem_type: HCA:HOST\n"),
            std::string::npos);
}

TEST(SharpCollTestGolden, DeviceSetsTheUcxEnvironment) {
  const auto lo = parse_sharp_coll_test({"-d", "lo:1"}, net_device_exists_here);
  EXPECT_EQ(lo.ib_device, "lo:1");
  EXPECT_EQ(lo.net_devices, "lo") << "a network interface is named without its port in UCX_NET_DEVICES";
  const auto env = sharp_coll_test_ucx_environment(lo);
  ASSERT_EQ(env.size(), 2u);
  EXPECT_EQ(env[0].name, "UCX_NET_DEVICES");
  EXPECT_EQ(env[0].value, "lo");
  EXPECT_TRUE(env[0].overwrite) << "-d is explicit";
  EXPECT_EQ(env[1].name, "UCX_TLS");
  EXPECT_EQ(env[1].value, "tcp") << "a network interface is reached through UCX's tcp transport";
  EXPECT_FALSE(env[1].overwrite) << "a user's UCX_TLS wins";
  // Without -d, UCX chooses the device of the link's kind; shared memory stays excluded.
  const auto none = sharp_coll_test_ucx_environment(parse_sharp_coll_test({}, net_device_exists_here, false));
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].name, "UCX_TLS");
  EXPECT_EQ(none[0].value, "tcp");
  const auto ib = parse_sharp_coll_test({}, net_device_exists_here, true);
  EXPECT_TRUE(ib.rdma) << "sharp_coll_test takes the first RDMA device found";
  EXPECT_EQ(sharp_coll_test_ucx_environment(ib).at(0).value, "rc,ud");
  // An RDMA device named by -d: verbs transports, the device with its port.
  SharpCollTestRequest rdma;
  rdma.net_devices = "mlx5_0:1";
  rdma.rdma = true;
  const auto rdma_env = sharp_coll_test_ucx_environment(rdma);
  ASSERT_EQ(rdma_env.size(), 2u);
  EXPECT_EQ(rdma_env[0].value, "mlx5_0:1");
  EXPECT_EQ(rdma_env[1].value, "rc,ud");
  EXPECT_THROW(parse_sharp_coll_test({"-d", "../lo"}, net_device_exists_here), UsageError);
  EXPECT_THROW(parse_sharp_coll_test({"-d", "no_such_dev0"}, net_device_exists_here), Unavailable);
}

TEST(SharpCollTestGolden, HelpIsTheSeedsUsage) {
  for (const char* flag : {"-h", "--help"}) {
    try {
      parse_sharp_coll_test({"-i", "3", flag}, any_device);
      ADD_FAILURE() << flag << " did not ask for help";
    } catch (const HelpRequested& h) {
      const std::string text = h.what();
      EXPECT_EQ(text.rfind("Usage:   sharp_coll_test[_mpi]  [OPTIONS]\nOptions:\n", 0), 0u) << text;
      EXPECT_NE(text.find("-s, --size              Set the minimum and/or the maximum message size. format:[MIN:]MAX "
                          "Default:<4:32M>\n"),
                std::string::npos)
          << text;
    }
  }
}

}  // namespace
}  // namespace xb
