// The NVLink reader (backends/cuda/cuda_nvlink) against the stand-in NVML (nvml_standin.cpp), which
// enforces the real library's contract and counts every breach: an NVSwitch fabric with links down,
// links straight between GPUs rated by their version, a link to a CPU, a device without NVLink or
// unknown to NVML, the library absent or lacking a function, and each call failing in turn. After
// every test no breach was counted and every nvmlInit_v2 had its nvmlShutdown. Then what was read
// bounds p2p through the judge (judge/peer_link_ceiling), as it will on a GPU machine.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "backends/cuda/cuda_nvlink.hpp"
#include "judge/peer_link_ceiling.hpp"
#include "support/text_checks.hpp"

namespace xb::cuda {
namespace {

// A probed H100 at `pci`, as the probe reports it before its NVLinks are read.
ProbedDevice gpu_at(const std::string& pci) {
  ProbedDevice d;
  d.name = "NVIDIA H100";
  d.pci_address = pci;
  return d;
}

using test::has;

constexpr const char* kA = "0000:18:00.0";
constexpr const char* kB = "0000:2a:00.0";
constexpr const char* kC = "0000:3b:00.0";

class Nvlinks : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : {"XB_NVML_STANDIN_DEVICES", "XB_NVML_STANDIN_SPEED_MBPS", "XB_NVML_STANDIN_VERSION",
                          "XB_NVML_STANDIN_FAIL"}) {
      unsetenv(v);
    }
    // Held open across the test, so the reader's dlopen and dlclose share this one copy's state.
    standin_ = dlopen(XB_NVML_STANDIN, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(standin_, nullptr) << dlerror();
    violations_ = reinterpret_cast<int (*)()>(dlsym(standin_, "xb_nvml_standin_violations"));
    open_sessions_ = reinterpret_cast<int (*)()>(dlsym(standin_, "xb_nvml_standin_open_sessions"));
    calls_ = reinterpret_cast<int (*)(const char*)>(dlsym(standin_, "xb_nvml_standin_calls"));
    auto reset = reinterpret_cast<void (*)()>(dlsym(standin_, "xb_nvml_standin_reset"));
    ASSERT_TRUE(violations_ && open_sessions_ && calls_ && reset);
    reset();
  }
  void TearDown() override {
    if (standin_ == nullptr) return;
    EXPECT_EQ(violations_(), 0) << "the reader broke NVML's contract";
    EXPECT_EQ(open_sessions_(), 0) << "an nvmlInit_v2 without its nvmlShutdown";
    dlclose(standin_);
  }

  static std::vector<ProbedDevice> read(std::initializer_list<const char*> pci) {
    std::vector<ProbedDevice> devices;
    for (const char* p : pci) devices.push_back(gpu_at(p));
    read_nvlinks(devices, XB_NVML_STANDIN);
    return devices;
  }

  static DeviceInfo info_of(const ProbedDevice& d) {
    DeviceInfo i;
    i.pci_address = d.pci_address;
    i.peer_links = d.peer_links;
    i.peer_links_down = d.peer_links_down;
    i.peer_links_note = d.peer_links_note;
    return i;
  }

  void* standin_ = nullptr;
  int (*violations_)() = nullptr;
  int (*open_sessions_)() = nullptr;
  int (*calls_)(const char*) = nullptr;
};

TEST_F(Nvlinks, AnNvswitchFabricIsOneEntryPerDeviceAndItsDownLinksCount) {
  setenv("XB_NVML_STANDIN_DEVICES", "0000:18:00.0=16*switch,2*down;0000:2a:00.0=18*switch", 1);
  setenv("XB_NVML_STANDIN_SPEED_MBPS", "26562", 1);
  const auto d = read({kA, kB});
  ASSERT_EQ(d[0].peer_links.size(), 1u) << d[0].peer_links_note;
  EXPECT_EQ(d[0].peer_links[0].technology, "NVLink 4.0");
  EXPECT_TRUE(d[0].peer_links[0].through_switch);
  EXPECT_EQ(d[0].peer_links[0].peer_pci_address, "");
  EXPECT_EQ(d[0].peer_links[0].links, 16);
  EXPECT_DOUBLE_EQ(d[0].peer_links[0].bytes_per_second_each, 26562e6);
  EXPECT_EQ(d[0].peer_links_down, 2);
  EXPECT_EQ(d[0].peer_links_note, "NVML: 16 active NVLink(s), 2 not active; rate from NVML's speed field");
  EXPECT_EQ(d[1].peer_links[0].links, 18);
  EXPECT_EQ(d[1].peer_links_down, 0);
  // Each device's speed read once, every link's state asked, no far end asked of a link that is down.
  EXPECT_EQ(calls_("nvmlDeviceGetFieldValues"), 2);
  EXPECT_EQ(calls_("nvmlDeviceGetNvLinkRemoteDeviceType"), 34);

  // The judge: the fewer of the two devices' switch links, and a warning for the links down.
  const auto c = peer_link_ceiling(info_of(d[0]), info_of(d[1]));
  ASSERT_TRUE(c && c->bytes_per_second);
  EXPECT_DOUBLE_EQ(*c->bytes_per_second, 16 * 26562e6);
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_EQ(c->warnings[0], "0000:18:00.0: 2 of its 18 peer links are not active");
}

TEST_F(Nvlinks, StraightLinksAreGroupedByTheirFarGpuAndRatedByTheirVersionWithoutTheSpeedField) {
  // A DGX-1-like corner: A has two links to B, one to C and one to a CPU; the speed field unsupported.
  setenv("XB_NVML_STANDIN_DEVICES",
         "0000:18:00.0=2*gpu@0000:2a:00.0,1*gpu@0000:3b:00.0,1*cpu;0000:2a:00.0=2*gpu@0000:18:00.0;"
         "0000:3b:00.0=1*gpu@0000:18:00.0",
         1);
  setenv("XB_NVML_STANDIN_VERSION", "2", 1);
  const auto d = read({kA, kB, kC});
  ASSERT_EQ(d[0].peer_links.size(), 2u) << d[0].peer_links_note;
  EXPECT_EQ(d[0].peer_links[0].peer_pci_address, kB);
  EXPECT_EQ(d[0].peer_links[0].links, 2);
  EXPECT_FALSE(d[0].peer_links[0].through_switch);
  EXPECT_EQ(d[0].peer_links[0].technology, "NVLink 2.0");
  EXPECT_DOUBLE_EQ(d[0].peer_links[0].bytes_per_second_each, 25e9);
  EXPECT_EQ(d[0].peer_links[1].peer_pci_address, kC);
  EXPECT_EQ(d[0].peer_links[1].links, 1);
  EXPECT_TRUE(has(d[0].peer_links_note, "3 active NVLink(s), 0 not active, 1 to a CPU or an unnamed end")) << d[0].peer_links_note;
  EXPECT_TRUE(has(d[0].peer_links_note, "rate from the NVLink version")) << d[0].peer_links_note;

  const auto ab = peer_link_ceiling(info_of(d[0]), info_of(d[1]));
  ASSERT_TRUE(ab && ab->bytes_per_second);
  EXPECT_DOUBLE_EQ(*ab->bytes_per_second, 50e9);
  EXPECT_FALSE(peer_link_ceiling(info_of(d[1]), info_of(d[2])));  // B and C share no link: PCIe
}

TEST_F(Nvlinks, EveryVersionHasItsRateAndName) {
  EXPECT_DOUBLE_EQ(nvlink_version_bytes_per_second(1), 20e9);
  for (unsigned v = 2; v <= 6; ++v) EXPECT_DOUBLE_EQ(nvlink_version_bytes_per_second(v), 25e9) << v;
  EXPECT_DOUBLE_EQ(nvlink_version_bytes_per_second(7), 50e9);
  EXPECT_DOUBLE_EQ(nvlink_version_bytes_per_second(0), 0);
  EXPECT_DOUBLE_EQ(nvlink_version_bytes_per_second(8), 0);
  EXPECT_EQ(nvlink_version_name(3), "NVLink 2.2");
  EXPECT_EQ(nvlink_version_name(7), "NVLink 5.0");
  EXPECT_EQ(nvlink_version_name(8), "NVLink");
}

TEST_F(Nvlinks, ADeviceWithoutNvlinkOrUnknownToNvmlSaysSo) {
  setenv("XB_NVML_STANDIN_DEVICES", "0000:18:00.0=none", 1);
  const auto d = read({kA, kB});
  EXPECT_TRUE(d[0].peer_links.empty());
  EXPECT_EQ(d[0].peer_links_note, "no NVLink on this device (NVML: not supported)");
  EXPECT_TRUE(d[1].peer_links.empty());
  EXPECT_EQ(d[1].peer_links_note,
            "nvmlDeviceGetHandleByPciBusId_v2(0000:2a:00.0) failed: Not Found (NVML error 6): NVLinks not read");
}

TEST_F(Nvlinks, AnAbsentLibraryOrOneWithoutTheCallsIsOneNote) {
  std::vector<ProbedDevice> d{gpu_at(kA)};
  read_nvlinks(d, "/nonexistent/libnvidia-ml.so.1");
  EXPECT_TRUE(has(d[0].peer_links_note, "/nonexistent/libnvidia-ml.so.1 cannot be loaded (")) << d[0].peer_links_note;
  EXPECT_TRUE(has(d[0].peer_links_note, "NVLinks not read")) << d[0].peer_links_note;
  read_nvlinks(d, "libc.so.6");  // a library, but no NVML in it
  EXPECT_EQ(d[0].peer_links_note, "this NVML has no nvmlInit_v2: NVLinks not read");
}

TEST_F(Nvlinks, EachCallFailingIsNamedAndLeavesNoLinksNorAnOpenSession) {
  setenv("XB_NVML_STANDIN_DEVICES", "0000:18:00.0=1*gpu@0000:2a:00.0,2*switch", 1);
  const std::pair<const char*, const char*> cases[] = {
      {"nvmlInit_v2", "nvmlInit_v2 failed: Unknown Error (NVML error 999): NVLinks not read"},
      {"nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId_v2(0000:18:00.0) failed: Unknown Error (NVML error 999)"},
      {"nvmlDeviceGetNvLinkState", "nvmlDeviceGetNvLinkState(0000:18:00.0, link 0) failed: Unknown Error (NVML error 999)"},
      {"nvmlDeviceGetNvLinkRemoteDeviceType", "nvmlDeviceGetNvLinkRemoteDeviceType(0000:18:00.0, link 0) failed: Unknown"},
      {"nvmlDeviceGetNvLinkRemotePciInfo_v2", "nvmlDeviceGetNvLinkRemotePciInfo_v2(0000:18:00.0, link 0) failed: Unknown"},
  };
  for (const auto& [call, note] : cases) {
    setenv("XB_NVML_STANDIN_FAIL", call, 1);
    const auto d = read({kA});
    EXPECT_TRUE(d[0].peer_links.empty()) << call;
    EXPECT_TRUE(has(d[0].peer_links_note, note)) << call << ": " << d[0].peer_links_note;
    EXPECT_EQ(open_sessions_(), 0) << call;
  }
  // The speed field failing: the version rates the links. The version failing too: neither is
  // known, and the reader says so rather than guess.
  setenv("XB_NVML_STANDIN_FAIL", "nvmlDeviceGetFieldValues", 1);
  auto d = read({kA});
  ASSERT_EQ(d[0].peer_links.size(), 2u) << d[0].peer_links_note;
  EXPECT_DOUBLE_EQ(d[0].peer_links[0].bytes_per_second_each, 25e9);
  setenv("XB_NVML_STANDIN_FAIL", "nvmlDeviceGetNvLinkVersion", 1);
  d = read({kA});
  EXPECT_TRUE(d[0].peer_links.empty());
  EXPECT_TRUE(has(d[0].peer_links_note, "0000:18:00.0 link 0: NVML reports neither its speed nor a version")) << d[0].peer_links_note;
  // With the speed field, a link whose version cannot be read is still rated, named plainly.
  setenv("XB_NVML_STANDIN_SPEED_MBPS", "25000", 1);
  d = read({kA});
  ASSERT_EQ(d[0].peer_links.size(), 2u) << d[0].peer_links_note;
  EXPECT_EQ(d[0].peer_links[0].technology, "NVLink");
  EXPECT_DOUBLE_EQ(d[0].peer_links[0].bytes_per_second_each, 25e9);
}

}  // namespace
}  // namespace xb::cuda
