// The device-path decision (jobs/endpoint/device_path.hpp): which device memory a transport is
// handed to register, and the words the result carries otherwise. Pure, so every case a GPU
// machine would meet is checked here: a cuda backend with UCX with and without CUDA support, the
// TCP transport, and the cpu backend (whose device memory is host RAM).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "jobs/endpoint/device_path.hpp"

namespace xb {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(XferDevicePath, TheCpuBackendsDeviceMemoryIsHostRamAndAlwaysRegistered) {
  for (const char* transport : {"ucx", "tcp"}) {
    const DevicePath path = choose_device_path({"cpu", true, transport, {}});
    EXPECT_TRUE(path.registered) << transport;
    EXPECT_EQ(path.text, "registered");
  }
}

TEST(XferDevicePath, CudaMemoryIsRegisteredWithAUcxThatListsCuda) {
  const DevicePath path = choose_device_path({"cuda", false, "ucx", {"cuda", "cuda-managed"}});
  EXPECT_TRUE(path.registered);
  EXPECT_EQ(path.text, "registered");
}

TEST(XferDevicePath, CudaMemoryIsStagedWithAUcxBuiltWithoutCuda) {
  const DevicePath path = choose_device_path({"cuda", false, "ucx", {}});
  EXPECT_FALSE(path.registered);
  EXPECT_THAT(path.text, StartsWith("staged through the pinned pool: "));
  EXPECT_THAT(path.text, HasSubstr("this UCX cannot register cuda memory"));
}

TEST(XferDevicePath, CudaMemoryIsNeverHandedToTheTcpTransport) {
  const DevicePath path = choose_device_path({"cuda", false, "tcp", {}});
  EXPECT_FALSE(path.registered);
  EXPECT_EQ(path.text, "staged through the pinned pool: the tcp transport reaches host memory only");
}

TEST(XferDevicePath, AnotherGpusMemoryTypeDoesNotCount) {
  const DevicePath path = choose_device_path({"cuda", false, "ucx", {"rocm"}});
  EXPECT_FALSE(path.registered);
  EXPECT_THAT(path.text, HasSubstr("the ucx transport registers rocm memory, not cuda"));
  EXPECT_TRUE(choose_device_path({"hip", false, "ucx", {"rocm"}}).registered);
  EXPECT_EQ(device_memory_type("hip"), "rocm");
  EXPECT_EQ(device_memory_type("cuda"), "cuda");
}

}  // namespace
}  // namespace xb
