#include <gtest/gtest.h>

#include "backends/cuda/cuda_probe.hpp"

namespace xb::cuda {
namespace {

TEST(CudaProbeFormat, DevicesRoundTrip) {
  Probe p;
  p.devices.push_back({"NVIDIA H200", 150754820096ull, "0000:18:00.0", -1, 132});
  p.devices.push_back({"Tab\tand\nnewline", 1, "0000:3b:00.0", -1, 2});
  const Probe back = decode_probe(encode_probe(p));
  ASSERT_TRUE(back.support.ok) << back.support.reason;
  ASSERT_EQ(back.devices.size(), 2u);
  EXPECT_EQ(back.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(back.devices[0].memory_bytes, 150754820096ull);
  EXPECT_EQ(back.devices[0].pci_address, "0000:18:00.0");
  EXPECT_EQ(back.devices[0].sm_count, 132);
  EXPECT_EQ(back.devices[1].name, "Tab and newline");  // separators cannot break the format
}

TEST(CudaProbeFormat, ReasonRoundTrips) {
  const Probe back = decode_probe(encode_probe({Support::no("no NVIDIA driver: libcuda.so.1 cannot be loaded"), {}}));
  EXPECT_FALSE(back.support.ok);
  EXPECT_EQ(back.support.reason, "no NVIDIA driver: libcuda.so.1 cannot be loaded");
}

TEST(CudaProbeFormat, BrokenAnswersAreReasonsNotDevices) {
  for (const char* text : {"", "garbage\n", "ok\n", "ok\nname-only\n", "ok\nGPU\tnot-a-number\t0000:00:00.0\t1\n", "no\n"}) {
    const Probe p = decode_probe(text);
    EXPECT_FALSE(p.support.ok) << text;
    EXPECT_FALSE(p.support.reason.empty()) << text;
    EXPECT_TRUE(p.devices.empty()) << text;
  }
}

}  // namespace
}  // namespace xb::cuda
