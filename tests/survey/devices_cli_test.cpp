// `xferbench devices` through the real binary: the cpu backend and its device, hwloc's NUMA nodes,
// the storage under a temporary directory, UCX's transports; and the --json form.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/temp_dir.hpp"
#include "survey_test_support.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;
using test::run_xferbench;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(DevicesCli, ListsBackendPlacementStorageAndTransports) {
  test::TempDir dir;
  const auto r = run_xferbench({"devices", "--dir", dir.path().string()});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(r.err, "");
  const std::string& o = r.out;
  EXPECT_TRUE(has(o, "backend cpu (built in): ")) << o;
  EXPECT_TRUE(has(o, "cpu::device::0  cpu arena 0")) << o;
  EXPECT_TRUE(has(o, ", NUMA node 0")) << o;
  EXPECT_TRUE(has(o, "\n  NUMA node 0: memory ")) << o;
  EXPECT_TRUE(has(o, "core(s), CPUs ")) << o;
  EXPECT_TRUE(has(o, "storage under " + fs::canonical(dir.path()).string() + ":\n  file system ")) << o;
  EXPECT_TRUE(has(o, " free of ")) << o;
  EXPECT_TRUE(has(o, "\ntransports: ")) << o;
  EXPECT_TRUE(has(o, "\n  tcp  network\n")) << o;  // the plain TCP transport, always
#ifdef XB_HAVE_UCX
  EXPECT_TRUE(has(o, "\n  ucx/tcp/lo  network\n")) << o;
  EXPECT_TRUE(has(o, "\n  ucx/self/")) << o;
  EXPECT_TRUE(has(o, "(UCX 1.")) << o;
#endif
  EXPECT_EQ(dir.entries(), std::vector<std::string>{});  // looking leaves nothing
}

TEST(DevicesCli, JsonHasTheSameFacts) {
  test::TempDir dir;
  // --format json, the word every command takes; --json is its older spelling, the same object.
  const auto r = run_xferbench({"devices", "--dir", dir.path().string(), "--format", "json"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto j = nlohmann::json::parse(r.out);
  const auto old = run_xferbench({"devices", "--dir", dir.path().string(), "--json"});
  ASSERT_TRUE(old.exited && old.exit_code == 0) << old.describe();
  EXPECT_EQ(nlohmann::json::parse(old.out).at("backends").size(), j.at("backends").size());
  ASSERT_FALSE(j.at("backends").empty());
  EXPECT_EQ(j["backends"][0]["name"], "cpu");
  EXPECT_EQ(j["backends"][0]["devices"][0]["name"], "cpu::device::0");
  EXPECT_GE(j["backends"][0]["devices"][0]["numa_node"].get<int>(), 0);
  EXPECT_GT(j["backends"][0]["devices"][0]["memory_bytes"].get<std::uint64_t>(), 0u);
  ASSERT_FALSE(j.at("host").at("numa_nodes").empty());
  EXPECT_GT(j["host"]["numa_nodes"][0]["memory_bytes"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(j.at("storage").at("directory"), fs::canonical(dir.path()).string());
  EXPECT_FALSE(j["storage"]["fs_type"].get<std::string>().empty());
  bool tcp_lo = false, self = false;
  for (const auto& row : j.at("transports").at("resources")) {
    tcp_lo |= row["transport"] == "ucx/tcp" && row["device"] == "lo";
    self |= row["transport"] == "ucx/self";
  }
#ifdef XB_HAVE_UCX
  EXPECT_TRUE(tcp_lo && self) << j["transports"].dump();
#endif
}

TEST(DevicesCli, StorageOnTmpfsSaysThereIsNoBlockDevice) {
  const auto r = run_xferbench({"devices", "--dir", "/dev/shm"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(has(r.out, "storage under /dev/shm:\n  file system tmpfs ")) << r.out;
  EXPECT_TRUE(has(r.out, "\n  no block device\n")) << r.out;
}

// Issue 17's ceilings: every PCI device hwloc lists and every network interface carries one, with
// its derivation, the same in text and JSON (this machine's own /sys: virtio devices report no
// link, so "unknown" with the reason is what a VM shows).
TEST(DevicesCli, EveryPciDeviceAndInterfaceHasACeilingWithItsDerivation) {
  test::TempDir dir;
  const auto r = run_xferbench({"devices", "--dir", dir.path().string(), "--json"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto j = nlohmann::json::parse(r.out);
  const auto text = run_xferbench({"devices", "--dir", dir.path().string()});
  ASSERT_TRUE(text.exited && text.exit_code == 0) << text.describe();
  for (const auto& p : j.at("host").at("pci_devices")) {
    const auto& c = p.at("ceiling");
    const std::string derivation = c.at("derivation");
    EXPECT_FALSE(derivation.empty()) << p.dump();
    EXPECT_EQ(c.at("bytes_per_second").is_null(), derivation.find("PCIe Gen") == std::string::npos) << p.dump();
    EXPECT_TRUE(has(text.out, derivation)) << derivation << "\n" << text.out;
  }
  EXPECT_TRUE(has(text.out, "\nnetwork:\n")) << text.out;
  const auto& storage = j.at("storage");
  if (!storage.at("block_device").get<std::string>().empty()) {  // the disk's controller and link
    const std::string derivation = storage.at("ceiling").at("derivation");
    EXPECT_EQ(derivation.rfind(storage.at("block_device").get<std::string>() + ": ", 0), 0u) << derivation;
    EXPECT_TRUE(has(text.out, "    ceiling ")) << text.out;
  } else {
    EXPECT_TRUE(storage.at("ceiling").is_null()) << storage.dump();
  }
  for (const auto& n : j.at("network_interfaces")) {
    EXPECT_NE(n.at("name"), "lo");
    const std::string derivation = n.at("ceiling").at("derivation");
    EXPECT_EQ(derivation.rfind(n.at("name").get<std::string>() + ": ", 0), 0u) << n.dump();
    EXPECT_TRUE(has(text.out, "\n  " + n.at("name").get<std::string>())) << text.out;
  }
}

// Issue 17's expectation layers as devices shows them: a command-line rule over a site file over
// the built-in shares; a malformed file is one line naming file, line and rule, exit 2, nothing
// printed or left; a machine no SKU entry names says it has no SKU layer.
TEST(DevicesCli, ExpectationsShowTheLayerAndRuleThatDecide) {
  test::TempDir dir;
  const auto site = dir.path() / "site.yaml";
  std::ofstream(site) << "schema: xferbench.expectations\nschema_version: 1\nrules:\n"
                         "  - {path: io.read, expect: 3 GB/s, source: our array}\n";
  auto r = run_xferbench({"devices", "--dir", "/var/tmp", "--json", "--expect", site.string()});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  auto j = nlohmann::json::parse(r.out);
  const std::string sku = j.at("expectations").at("sku");
  EXPECT_TRUE(sku.rfind("nothing for this machine (server ", 0) == 0 || sku.find(" rule(s) for this machine") != std::string::npos) << sku;
  EXPECT_EQ(j["expectations"]["site_file"], site.string());
  if (j.at("storage").at("block_device").get<std::string>().empty()) GTEST_SKIP() << "/var/tmp is on no block device";
  auto read = j["storage"]["expectations"].at(0);
  EXPECT_EQ(read.at("path"), "io.read");
  EXPECT_EQ(read.at("layer"), "site file");
  EXPECT_EQ(read.at("origin"), site.string() + ":4");
  EXPECT_DOUBLE_EQ(read.at("expected_bytes_per_second").get<double>(), 3e9);
  EXPECT_EQ(read.at("source"), "our array");

  r = run_xferbench({"devices", "--dir", "/var/tmp", "--expect", site.string(), "--expect-rule", "io.*=1 GB/s"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(has(r.out, "      expect io.read ≥ 1.0 GB/s (command line: io.* bandwidth ≥ 1 GB/s, --expect-rule 1)\n")) << r.out;
  EXPECT_TRUE(has(r.out, "      expect io.write ≥ 1.0 GB/s (command line: ")) << r.out;
  EXPECT_TRUE(has(r.out, "; site file " + site.string() + "; 1 command-line rule(s)\n")) << r.out;
}

TEST(DevicesCli, AMalformedExpectationFileIsOneLineAndExitTwo) {
  test::TempDir dir;
  const auto site = dir.path() / "site.yaml";
  std::ofstream(site) << "schema: xferbench.expectations\nschema_version: 1\nrules:\n"
                         "  - {path: io.read, expect: 3 GB/s}\n  - {path: io.write, ceiling_fraction: 2}\n";
  const auto before = dir.tree();
  auto r = run_xferbench({"devices", "--dir", dir.path().string(), "--expect", site.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "xferbench devices: " + site.string() + ":5: ceiling_fraction: 2 must be above 0 and at most 1\n");
  EXPECT_EQ(dir.tree(), before);
  r = run_xferbench({"devices", "--dir", dir.path().string(), "--expect-rule", "io.read"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("xferbench devices: --expect-rule 'io.read': a rule is PATH=BANDWIDTH", 0), 0u) << r.err;
}

}  // namespace
}  // namespace xb
