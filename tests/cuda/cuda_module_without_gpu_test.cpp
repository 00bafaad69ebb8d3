// The real CUDA module, next to the real binary, on a machine without a GPU: found and loaded, it
// says plainly why it cannot run, and everything the cpu backend does still works.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>

#include "run_binary.hpp"

namespace {

using xbtest::run_binary;

class CudaModuleWithoutGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    // On a machine with the NVIDIA driver this suite has nothing to say: scripts/gpu_check.sh
    // checks the module there.
    if (void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL); h != nullptr) {
      dlclose(h);
      GTEST_SKIP() << "this machine has the NVIDIA driver; the GPU check script covers the module here";
    }
  }
};

TEST_F(CudaModuleWithoutGpu, DevicesSaysTheModuleIsThereAndWhyItCannotRun) {
  const auto r = run_binary(XB_BINARY, {"devices"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("backend cpu (built in)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("backend cuda ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("libxferbench-backend-cuda.so"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not available: no NVIDIA driver: libcuda.so.1 cannot be loaded"), std::string::npos) << r.out;
}

TEST_F(CudaModuleWithoutGpu, AskingForCudaIsNotAvailableWithTheReasonOnOneLine) {
  const auto r = run_binary(XB_BINARY, {"copy", "--backend", "cuda", "-s", "1M", "-n", "1", "-i", "1"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(r.err, "xferbench copy: not available on this machine: the cuda backend: no NVIDIA driver: libcuda.so.1 "
                   "cannot be loaded (libcuda.so.1: cannot open shared object file: No such file or directory)\n");
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(CudaModuleWithoutGpu, TheDefaultRunFallsBackToCpuAndSaysWhy) {
  const auto r = run_binary(XB_BINARY, {"copy", "-s", "1M", "-n", "2", "-i", "2", "--warmup", "1", "--verify"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  // Every accelerator module says why it was passed over (acl, on a machine without CANN, first).
  EXPECT_NE(r.err.find("running on the cpu backend ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cuda: no NVIDIA driver"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("cpu"), std::string::npos) << r.out;
}

}  // namespace
