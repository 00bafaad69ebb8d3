// UCM dev-sandbox's trans module (src/dialects/dev_sandbox_trans.hpp): its options onto the filters,
// and the matrix onto copy plans for each backend's methods (cpu: memcpy; CUDA: ce, batch_ce, sm;
// Ascend: ce, batch_ce, ms_48), with the host types' memory and the ends the table names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "dialects/dev_sandbox_trans.hpp"

namespace xb {
namespace {

const TransBackend kCpu{"cpu", {"memcpy", "nt"}, false};
const TransBackend kCuda{"cuda", {"ce", "batch", "sm"}, true};
const TransBackend kAcl{"acl", {"ce"}, true};

std::vector<std::string> names(const std::vector<DevSandboxRequest>& cases) {
  std::vector<std::string> n;
  for (const auto& c : cases) n.push_back(c.which.name);
  return n;
}

TEST(DevSandboxTransParse, UcmDefaultsAndRepeatedFilters) {
  const TransFilters d = parse_dev_sandbox_trans({});
  EXPECT_EQ(d.size, 32768u);
  EXPECT_EQ(d.number, 1024u);
  EXPECT_EQ(d.devices, 8);
  EXPECT_EQ(d.iterations, 1024u);
  EXPECT_TRUE(d.host.empty() && d.device.empty() && d.methods.empty() && d.direction.empty());

  const TransFilters f = parse_dev_sandbox_trans(
      {"-t", "H2D", "-H", "normal", "-H", "registered", "-D", "normal", "-M", "ce", "-M", "batch_ce", "-s", "16K", "-n",
       "3", "-d", "2", "-i", "5"});
  EXPECT_EQ(f.direction, (std::vector<std::string>{"H2D"}));
  EXPECT_EQ(f.host, (std::vector<std::string>{"normal", "registered"}));
  EXPECT_EQ(f.methods, (std::vector<std::string>{"ce", "batch_ce"}));
  EXPECT_EQ(f.size, 16384u);
  EXPECT_EQ(f.number, 3u);
  EXPECT_EQ(f.devices, 2);
  EXPECT_EQ(f.iterations, 5u);
  // ANY is both directions: no filter.
  EXPECT_TRUE(parse_dev_sandbox_trans({"-t", "ANY"}).direction.empty());
  EXPECT_THROW(parse_dev_sandbox_trans({"-H", "pinned"}), UsageError);
  EXPECT_THROW(parse_dev_sandbox_trans({"-D", "hbm"}), UsageError);
  EXPECT_THROW(parse_dev_sandbox_trans({"-M", "dma"}), UsageError);
  EXPECT_THROW(parse_dev_sandbox_trans({"-t", "D2D"}), UsageError);
  EXPECT_THROW(parse_dev_sandbox_trans({"-n", "0"}), UsageError);
}

TEST(DevSandboxTransMatrix, EachBackendsMethodsInMatrixOrder) {
  std::vector<std::string> skipped;
  const auto cpu = dev_sandbox_trans_cases(parse_dev_sandbox_trans({"-H", "normal"}), kCpu, skipped);
  EXPECT_EQ(names(cpu), (std::vector<std::string>{"h2d_normal_host_normal_device_memcpy",
                                                  "d2h_normal_host_normal_device_memcpy"}));
  const auto cuda = dev_sandbox_trans_cases(parse_dev_sandbox_trans({"-t", "H2D", "-H", "registered"}), kCuda, skipped);
  EXPECT_EQ(names(cuda), (std::vector<std::string>{"h2d_registered_host_normal_device_ce",
                                                   "h2d_registered_host_normal_device_batch_ce",
                                                   "h2d_registered_host_normal_device_sm"}));
  const auto acl = dev_sandbox_trans_cases(parse_dev_sandbox_trans({"-t", "D2H", "-H", "anonymous"}), kAcl, skipped);
  EXPECT_EQ(names(acl), (std::vector<std::string>{"d2h_anonymous_host_normal_device_ce",
                                                  "d2h_anonymous_host_normal_device_batch_ce",
                                                  "d2h_anonymous_host_normal_device_ms_48"}));
  EXPECT_TRUE(skipped.empty());
  // Unfiltered: 2 directions x 3 host types x 1 device type x the backend's methods.
  EXPECT_EQ(dev_sandbox_trans_cases(parse_dev_sandbox_trans({}), kCuda, skipped).size(), 18u);
}

TEST(DevSandboxTransMatrix, PlansCarryTheHostTypeMethodAndSizes) {
  std::vector<std::string> skipped;
  const auto cases = dev_sandbox_trans_cases(
      parse_dev_sandbox_trans({"-s", "8K", "-n", "6", "-d", "3", "-i", "7"}), kAcl, skipped);
  ASSERT_EQ(cases.size(), 18u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.which.name);
    const CopyPlan& p = c.plan;
    EXPECT_EQ(p.topology, CopyTopology::per_device);
    EXPECT_EQ(p.block_bytes, 8192u);
    EXPECT_EQ(p.blocks, 6u);
    EXPECT_EQ(p.devices, 3);
    EXPECT_EQ(p.iterations, 7u);
    const bool h2d = c.which.name.starts_with("h2d_");
    EXPECT_EQ(p.direction, h2d ? CopyDirection::h2d : CopyDirection::d2h);
    // Registered host memory is locked and registered with the device; normal and anonymous are pageable.
    const bool registered = c.which.name.find("_registered_") != std::string::npos;
    EXPECT_EQ(p.host_kind, registered ? HostMemoryKind::pinned : HostMemoryKind::pageable);
    const std::string host_type = c.which.name.substr(4, c.which.name.find("_host_") - 4);
    EXPECT_EQ(h2d ? c.which.from : c.which.to, "acl::" + host_type);
    EXPECT_EQ(h2d ? c.which.to : c.which.from, "acl::device::all");
    EXPECT_EQ(p.engine, "ce");
    EXPECT_EQ(c.which.method, c.which.name.substr(c.which.name.find("_device_") + 8));
    if (c.which.method == "batch_ce") {
      EXPECT_TRUE(p.batch);
      EXPECT_EQ(p.streams, 1);
    } else if (c.which.method == "ms_48") {
      EXPECT_FALSE(p.batch);
      EXPECT_EQ(p.streams, 48);
    } else {
      EXPECT_EQ(c.which.method, "ce");
      EXPECT_FALSE(p.batch);
      EXPECT_EQ(p.streams, 1);
    }
  }
}

TEST(DevSandboxTransMatrix, AbsentMethodsAreSkippedOrUnavailable) {
  std::vector<std::string> skipped;
  const auto cases = dev_sandbox_trans_cases(parse_dev_sandbox_trans({"-M", "memcpy", "-M", "ms_48"}), kCpu, skipped);
  EXPECT_EQ(cases.size(), 6u);
  EXPECT_EQ(skipped, (std::vector<std::string>{"ms_48"}));
  skipped.clear();
  try {
    (void)dev_sandbox_trans_cases(parse_dev_sandbox_trans({"-M", "sm"}), kAcl, skipped);
    ADD_FAILURE() << "sm on acl ran";
  } catch (const Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("no case matches on the acl backend (sm needs another backend); its cases are "
                                         "h2d_normal_host_normal_device_ce, "),
              std::string::npos)
        << e.what();
  }
  // batch_ce needs a backend that batches: not one whose CE engine submits one copy at a time.
  skipped.clear();
  const auto no_batch = dev_sandbox_trans_cases(parse_dev_sandbox_trans({"-M", "ce", "-M", "batch_ce"}),
                                                TransBackend{"cuda", {"ce"}, false}, skipped);
  EXPECT_EQ(no_batch.size(), 6u);
  EXPECT_EQ(skipped, (std::vector<std::string>{"batch_ce"}));
}

}  // namespace
}  // namespace xb
