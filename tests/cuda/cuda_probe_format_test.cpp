#include <gtest/gtest.h>

#include "backends/cuda/cuda_probe.hpp"

namespace xb::cuda {
namespace {

// A probed device as the probe reports one, before its NVLinks are read.
ProbedDevice probed(const std::string& name, std::uint64_t memory, const std::string& pci, int sms) {
  ProbedDevice d;
  d.name = name;
  d.memory_bytes = memory;
  d.pci_address = pci;
  d.sm_count = sms;
  return d;
}

TEST(CudaProbeFormat, DevicesRoundTrip) {
  Probe p;
  p.devices.push_back(probed("NVIDIA H200", 150754820096ull, "0000:18:00.0", 132));
  p.devices.push_back(probed("Tab\tand\nnewline", 1, "0000:3b:00.0", 2));
  const Probe back = decode_probe(encode_probe(p));
  ASSERT_TRUE(back.support.ok) << back.support.reason;
  ASSERT_EQ(back.devices.size(), 2u);
  EXPECT_EQ(back.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(back.devices[0].memory_bytes, 150754820096ull);
  EXPECT_EQ(back.devices[0].pci_address, "0000:18:00.0");
  EXPECT_EQ(back.devices[0].sm_count, 132);
  EXPECT_EQ(back.devices[1].name, "Tab and newline");  // separators cannot break the format
  EXPECT_TRUE(back.devices[0].peer_links.empty());
  EXPECT_EQ(back.devices[0].peer_links_note, "");
}

TEST(CudaProbeFormat, PeerLinksAndTheirNoteRoundTrip) {
  Probe p;
  ProbedDevice d = probed("NVIDIA H200", 1, "0000:18:00.0", 132);
  d.peer_links = {PeerLink{"NVLink 4.0", "", true, 16, 26562e6}, PeerLink{"NVLink, odd;name", "0000:2a:00.0", false, 2, 25e9}};
  d.peer_links_down = 2;
  d.peer_links_note = "NVML: 16 active NVLink(s), 2 not active; rate from NVML's speed field";  // the reader's own words
  p.devices.push_back(d);
  const Probe back = decode_probe(encode_probe(p));
  ASSERT_TRUE(back.support.ok) << back.support.reason;
  ASSERT_EQ(back.devices.size(), 1u);
  const ProbedDevice& b = back.devices[0];
  ASSERT_EQ(b.peer_links.size(), 2u);
  EXPECT_EQ(b.peer_links[0].technology, "NVLink 4.0");
  EXPECT_TRUE(b.peer_links[0].through_switch);
  EXPECT_EQ(b.peer_links[0].peer_pci_address, "");
  EXPECT_EQ(b.peer_links[0].links, 16);
  EXPECT_DOUBLE_EQ(b.peer_links[0].bytes_per_second_each, 26562e6);
  EXPECT_EQ(b.peer_links[1].technology, "NVLink  odd name");  // separators cannot break the format
  EXPECT_FALSE(b.peer_links[1].through_switch);
  EXPECT_EQ(b.peer_links[1].peer_pci_address, "0000:2a:00.0");
  EXPECT_DOUBLE_EQ(b.peer_links[1].bytes_per_second_each, 25e9);
  EXPECT_EQ(b.peer_links_down, 2);
  EXPECT_EQ(b.peer_links_note, "NVML: 16 active NVLink(s), 2 not active; rate from NVML's speed field");
}

TEST(CudaProbeFormat, ReasonRoundTrips) {
  const Probe back = decode_probe(encode_probe({Support::no("no NVIDIA driver: libcuda.so.1 cannot be loaded"), {}}));
  EXPECT_FALSE(back.support.ok);
  EXPECT_EQ(back.support.reason, "no NVIDIA driver: libcuda.so.1 cannot be loaded");
}

TEST(CudaProbeFormat, BrokenAnswersAreReasonsNotDevices) {
  for (const char* text : {"", "garbage\n", "ok\n", "ok\nname-only\n", "ok\nGPU\tnot-a-number\t0000:00:00.0\t1\n", "no\n",
                           "ok\nGPU\t1\t0000:00:00.0\t1\n",                            // no peer-link fields
                           "ok\nGPU\t1\t0000:00:00.0\t1\t0\tNVLink,,2,18,1e9\tnote\n",  // switch neither 0 nor 1
                           "ok\nGPU\t1\t0000:00:00.0\t1\t0\tNVLink,,1,18\tnote\n",      // a field short
                           "ok\nGPU\t1\t0000:00:00.0\t1\tx\t\tnote\n"}) {               // links down not a number
    const Probe p = decode_probe(text);
    EXPECT_FALSE(p.support.ok) << text;
    EXPECT_FALSE(p.support.reason.empty()) << text;
    EXPECT_TRUE(p.devices.empty()) << text;
  }
}

}  // namespace
}  // namespace xb::cuda
