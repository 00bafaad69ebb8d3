// The CUDA gate (cuda_gate.hpp) on a real GPU: a held stream does nothing until the gate opens,
// for every engine; windows come and go by generation; a wait never opened gives up after its
// bound and confirm_held says so; a gated window's events leave the enqueuing out. Each test is
// skipped, saying why, where the machine has no CUDA device: scripts/gpu_check.sh runs this binary
// on a GPU machine.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "backends/cuda/cuda_gate.hpp"
#include "backends/cuda/cuda_memory.hpp"
#include "backends/cuda/cuda_stream.hpp"

namespace xb::cuda {
namespace {

using namespace std::chrono_literals;

constexpr std::size_t kBytes = 1 << 20;

class CudaGateOnGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
      GTEST_SKIP() << "no CUDA device here (" << (e != cudaSuccess ? cudaGetErrorName(e) : "0 devices")
                   << "): scripts/gpu_check.sh runs these on a GPU machine";
    }
    cudaDeviceProp prop{};
    ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    sms_ = prop.multiProcessorCount;
    src_ = allocate_device(0, kBytes);
    dst_ = allocate_device(0, kBytes);
  }

  // Source bytes `value`, destination zero.
  void fill(int value) {
    ASSERT_EQ(cudaMemset(src_->data(), value, kBytes), cudaSuccess);
    ASSERT_EQ(cudaMemset(dst_->data(), 0, kBytes), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  // Whether every destination byte is `value`.
  bool destination_is(int value) {
    std::vector<unsigned char> host(kBytes);
    if (cudaMemcpy(host.data(), dst_->data(), kBytes, cudaMemcpyDeviceToHost) != cudaSuccess) return false;
    for (unsigned char b : host) {
      if (b != static_cast<unsigned char>(value)) return false;
    }
    return true;
  }
  CopyOp copy() const { return {dst_->data(), src_->data(), kBytes}; }

  int sms_ = 0;
  std::unique_ptr<Allocation> src_, dst_;
};

TEST_F(CudaGateOnGpu, AHeldStreamOfEveryEngineCopiesNothingUntilTheGateOpens) {
  for (const std::string& engine : engine_names()) {
    SCOPED_TRACE(engine);
    fill(0x5a);
    auto stream = make_stream(0, engine, sms_);
    auto done = make_event(0);
    auto gate = make_gate(0);
    gate->hold(*stream);
    stream->copy(copy());
    stream->record(*done);  // sends what the batch engine holds: queued, behind the wait
    std::this_thread::sleep_for(100ms);
    EXPECT_FALSE(done->ready()) << "the copy ran while the gate was closed";
    EXPECT_TRUE(destination_is(0)) << "the destination changed while the gate was closed";
    gate->open();
    done->synchronize();
    EXPECT_NO_THROW(gate->confirm_held());
    EXPECT_TRUE(destination_is(0x5a));
  }
}

TEST_F(CudaGateOnGpu, EachWindowHoldsUntilItsOwnOpenAndAnOpenGateHoldsNothing) {
  auto stream = make_stream(0, "ce", sms_);
  auto done = make_event(0);
  auto gate = make_gate(0);
  for (int window = 0; window < 200; ++window) {
    gate->close();
    gate->hold(*stream);
    stream->copy(copy());
    stream->record(*done);
    if (window % 50 == 0) {  // now and then, look that this window is really held
      std::this_thread::sleep_for(20ms);
      ASSERT_FALSE(done->ready()) << "window " << window;
    }
    gate->open();
    done->synchronize();
  }
  // Open: a wait queued now is of the generation already published and holds nothing.
  gate->hold(*stream);
  stream->record(*done);
  done->synchronize();
  EXPECT_NO_THROW(gate->confirm_held());
}

TEST_F(CudaGateOnGpu, AWaitNeverOpenedGivesUpAfterItsBoundAndConfirmHeldSaysSo) {
  auto stream = make_stream(0, "ce", sms_);
  auto done = make_event(0);
  auto gate = make_gate(0, 50ms);
  gate->hold(*stream);
  stream->record(*done);
  done->synchronize();  // returns only because the wait gave up
  try {
    gate->confirm_held();
    FAIL() << "confirm_held did not report the wait that gave up";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the gate of cuda device 0 was not opened within 50 ms"), std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(gate->confirm_held());  // said once
}

// The point of the gate: with host time between enqueues, the window's events span that time when
// the stream runs as it is fed, and only the copies when it is held until everything is queued.
TEST_F(CudaGateOnGpu, AGatedWindowsEventsLeaveTheEnqueuingOut) {
  constexpr auto kPause = 20ms;
  constexpr int kCopies = 5;
  auto window_ms = [&](bool gated) {
    auto stream = make_stream(0, "ce", sms_);
    auto start = make_event(0);
    auto end = make_event(0);
    auto gate = make_gate(0);
    if (gated) gate->hold(*stream);
    stream->record(*start);
    for (int i = 0; i < kCopies; ++i) {
      stream->copy(copy());
      std::this_thread::sleep_for(kPause);
    }
    stream->record(*end);
    if (gated) gate->open();
    end->synchronize();
    if (gated) gate->confirm_held();
    return elapsed_us(*start, *end) / 1000.0;
  };
  const double pauses_ms = std::chrono::duration<double, std::milli>(kPause * (kCopies - 1)).count();
  // Not a timing figure: the ungated window contains the host's pauses by construction, the gated
  // one cannot (five 1 MiB device copies take microseconds).
  EXPECT_GT(window_ms(false), 0.5 * pauses_ms);
  EXPECT_LT(window_ms(true), 0.5 * pauses_ms);
}

}  // namespace
}  // namespace xb::cuda
