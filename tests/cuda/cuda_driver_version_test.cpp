// Which drivers the module runs on, decided before any runtime call: the version logic as a pure
// function over the driver branches people run (R535 … R580), then the real module and binary
// against a stand-in libcuda.so.1 that reports a chosen driver version.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <cuda_runtime_api.h>

#include "backends/cuda/cuda_driver_version.hpp"
#include "run_binary.hpp"

namespace {

using xb::cuda::cuda_version_text;
using xb::cuda::driver_runs_runtime;

// The CUDA version each driver branch reports (cuDriverGetVersion): R535 12.2, R550 12.4,
// R570 12.8, R580 13.0.
constexpr int kR535 = 12020, kR550 = 12040, kR570 = 12080, kR580 = 13000;

TEST(CudaDriverVersion, VersionsAreWrittenAsCudaWritesThem) {
  EXPECT_EQ(cuda_version_text(12040), "12.4");
  EXPECT_EQ(cuda_version_text(13000), "13.0");
  EXPECT_EQ(cuda_version_text(12090), "12.9");
}

TEST(CudaDriverVersion, ACuda12RuntimeRunsOnEveryCuda12DriverAndNewer) {
  for (const int driver : {kR535, kR550, kR570, kR580, 13010}) {
    EXPECT_TRUE(driver_runs_runtime(driver, 12090).ok) << driver;  // minor version compatibility
    EXPECT_TRUE(driver_runs_runtime(driver, 12000).ok) << driver;
  }
  EXPECT_FALSE(driver_runs_runtime(11080, 12000).ok);
}

TEST(CudaDriverVersion, ACuda13RuntimeNeedsAnR580DriverAndSaysSoNamingBoth) {
  for (const int driver : {kR535, kR550, kR570}) {
    const auto s = driver_runs_runtime(driver, 13000);
    EXPECT_FALSE(s.ok) << driver;
    EXPECT_EQ(s.reason, "the NVIDIA driver supports CUDA " + cuda_version_text(driver) +
                            "; this module was built with CUDA 13.0, which needs a driver for CUDA 13.0 or newer "
                            "(R580 or later)");
  }
  EXPECT_TRUE(driver_runs_runtime(kR580, 13000).ok);
  EXPECT_TRUE(driver_runs_runtime(13010, 13000).ok);  // a driver newer than the toolkit
}

// The real binary and module, the driver a stand-in (LD_LIBRARY_PATH before the system's).
xbtest::RunResult copy_on_cuda_with_driver(const std::string& version) {
  xbtest::RunOptions o = xbtest::default_options();
  o.env.push_back("LD_LIBRARY_PATH=" + std::filesystem::path(XB_DRIVER_STANDIN).parent_path().string());
  o.env.push_back("XB_STANDIN_CUDA_DRIVER_VERSION=" + version);
  return xbtest::run_binary(XB_BINARY, {"copy", "--backend", "cuda", "-s", "1M", "-n", "1", "-i", "1"}, o);
}

TEST(CudaDriverVersion, ADriverTooOldForTheModuleIsExit3NamingBothNeverACrash) {
  if (CUDART_VERSION < 13000) GTEST_SKIP() << "this module is built with CUDA 12, which every CUDA 12 driver runs";
  const auto r = copy_on_cuda_with_driver(std::to_string(kR570));
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(r.err, "xferbench copy: not available on this machine: the cuda backend: the NVIDIA driver supports CUDA "
                   "12.8; this module was built with CUDA " + cuda_version_text(CUDART_VERSION) +
                   ", which needs a driver for CUDA 13.0 or newer (R580 or later)\n");
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CudaDriverVersion, ADriverNewEnoughGetsPastTheVersionCheck) {
  // The stand-in has nothing past cuDriverGetVersion: the runtime then fails in its own words.
  const auto r = copy_on_cuda_with_driver(std::to_string(kR580 + 10));
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(r.err.find("which needs a driver"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the cuda backend: "), std::string::npos) << r.err;
}

}  // namespace
