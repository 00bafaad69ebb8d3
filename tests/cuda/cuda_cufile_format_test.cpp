// cuFile's status codes, IO return values and modes as the CUDA module words them, without cuFile
// or a GPU (backends/cuda/cuda_cufile_format.*).
#include <gtest/gtest.h>

#include <cerrno>

#include "backends/cuda/cuda_cufile_format.hpp"

namespace xb::cuda {
namespace {

TEST(CufileFormat, StatusCodesHaveTheirNames) {
  EXPECT_EQ(cufile_status_text(0), "CU_FILE_SUCCESS (0)");
  EXPECT_EQ(cufile_status_text(5001), "CU_FILE_DRIVER_NOT_INITIALIZED (5001)");
  EXPECT_EQ(cufile_status_text(5011), "CU_FILE_CUDA_DRIVER_ERROR (5011)");
  EXPECT_EQ(cufile_status_text(5034), "CU_FILE_IO_DISABLED (5034)");
  EXPECT_EQ(cufile_status_text(5021), "cuFile status 5021");  // a gap in cuFile's numbering
  EXPECT_EQ(cufile_status_text(5032), "cuFile status 5032");  // another
  // The batch and internal errors of the current cufile.h, to its last code.
  EXPECT_EQ(cufile_status_text(5035), "CU_FILE_BATCH_SUBMIT_FAILED (5035)");
  EXPECT_EQ(cufile_status_text(5038), "CU_FILE_ASYNC_NOT_SUPPORTED (5038)");
  EXPECT_EQ(cufile_status_text(5044), "CU_FILE_IO_ERROR (5044)");
  EXPECT_EQ(cufile_status_text(5049), "CU_FILE_BATCH_NOCOMPAT_ERROR (5049)");
  EXPECT_EQ(cufile_status_text(5050), "CU_FILE_IO_MAX_ERROR (5050)");
  EXPECT_EQ(cufile_status_text(5051), "cuFile status 5051");
  EXPECT_EQ(cufile_status_text(7), "cuFile status 7");
}

TEST(CufileFormat, NegativeIoReturnsAreErrnoOrStatus) {
  EXPECT_EQ(cufile_io_error_text(-1, EIO), "Input/output error (errno 5)");
  EXPECT_EQ(cufile_io_error_text(-5012, 0), "CU_FILE_CUDA_POINTER_INVALID (5012)");
  EXPECT_EQ(cufile_io_error_text(-5020, 0), "CU_FILE_DIO_NOT_SET (5020)");
}

TEST(CufileFormat, ModeIsGdsOnlyWithNvidiaFsAndNoForcedCompat) {
  const CufileMode gds = cufile_mode(true, nullptr);
  EXPECT_FALSE(gds.compat);
  EXPECT_EQ(gds.text.rfind("GPUDirect Storage (nvidia-fs loaded)", 0), 0u) << gds.text;

  const CufileMode no_module = cufile_mode(false, nullptr);
  EXPECT_TRUE(no_module.compat);
  EXPECT_NE(no_module.text.find("nvidia-fs kernel module is not loaded"), std::string::npos) << no_module.text;

  for (const char* yes : {"true", "TRUE", "True"}) {
    const CufileMode forced = cufile_mode(true, yes);
    EXPECT_TRUE(forced.compat) << yes;
    EXPECT_NE(forced.text.find("CUFILE_FORCE_COMPAT_MODE=true"), std::string::npos) << forced.text;
  }
  EXPECT_FALSE(cufile_mode(true, "false").compat);
  EXPECT_FALSE(cufile_mode(true, "").compat);
}

}  // namespace
}  // namespace xb::cuda
