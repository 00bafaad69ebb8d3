// The io job's GPUD transfer type (IoTransfer::gpu_direct) through its real loop, data path and
// engine, on a machine without a GPU. What this machine lacks is cuFile and GPU memory, so the
// device's direct storage is a stand-in (the one fake here): the cpu backend's device, whose memory
// is host RAM, with a DirectStorage that moves data with pread/pwrite straight into that memory and
// counts what the io job asks of it (buffer registrations, files, short transfers, EINTR). The
// CUDA module's real cuFile path is built in CI and run by scripts/gpu_check.sh on a GPU.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include "core/error.hpp"
#include "jobs/io/io_config.hpp"
#include "jobs/io/io_job.hpp"
#include "support/job_helpers.hpp"
#include "support/temp_dir.hpp"
#include "support/wrapped_cpu_backend.hpp"
#include "support/run_job.hpp"

namespace xb {
namespace {

using test::TempDir;
using test::error_of;
using test::metric;

// What the io job asked of the stand-in, and how the stand-in should misbehave.
struct DirectLog {
  std::atomic<int> buffers_registered{0}, buffers_live{0}, files_open{0}, files_live{0};
  std::atomic<long> calls{0};
  bool short_transfers = false;  // move at most half of what is asked each call
  bool eintr_first = false;      // the first call of each file fails with EINTR
  bool refuse_open = false;      // open_direct_storage: Unavailable, as without libcufile
  bool read_nothing = false;     // reads return 0 bytes, as at the end of a file
};

class FakeRegistration final : public Registration {
 public:
  explicit FakeRegistration(DirectLog& log) : log_(log) {
    ++log_.buffers_registered;
    ++log_.buffers_live;
  }
  ~FakeRegistration() override { --log_.buffers_live; }

 private:
  DirectLog& log_;
};

class FakeDirectFile final : public DirectFile {
 public:
  FakeDirectFile(DirectLog& log, int fd) : log_(log), fd_(fd) {
    ++log_.files_open;
    ++log_.files_live;
  }
  ~FakeDirectFile() override { --log_.files_live; }
  std::size_t read(void* base, std::size_t off, std::size_t bytes, std::uint64_t at) override {
    return io(true, static_cast<std::byte*>(base) + off, bytes, at);
  }
  std::size_t write(const void* base, std::size_t off, std::size_t bytes, std::uint64_t at) override {
    return io(false, const_cast<std::byte*>(static_cast<const std::byte*>(base)) + off, bytes, at);
  }

 private:
  std::size_t io(bool read, std::byte* p, std::size_t bytes, std::uint64_t at) {
    ++log_.calls;
    if (log_.eintr_first && !interrupted_) {
      interrupted_ = true;
      throw std::system_error(EINTR, std::generic_category(), "fake direct IO");
    }
    if (read && log_.read_nothing) return 0;
    // O_DIRECT needs whole blocks: a short transfer is half the request, rounded to 4 KiB.
    if (log_.short_transfers && bytes >= 8192) bytes = bytes / 2 / 4096 * 4096;
    const ssize_t n = read ? pread(fd_, p, bytes, static_cast<off_t>(at)) : pwrite(fd_, p, bytes, static_cast<off_t>(at));
    if (n < 0) throw std::system_error(errno, std::generic_category(), "fake direct IO");
    return static_cast<std::size_t>(n);
  }

  DirectLog& log_;
  int fd_;
  bool interrupted_ = false;
};

class FakeDirectStorage final : public DirectStorage {
 public:
  explicit FakeDirectStorage(DirectLog& log) : log_(log) {}
  std::string_view name() const override { return "fake-direct"; }
  std::string mode() const override { return "compat mode (a test stand-in: pread/pwrite into host-RAM device memory)"; }
  std::unique_ptr<DirectFile> open_file(int fd, std::string_view) override {
    return std::make_unique<FakeDirectFile>(log_, fd);
  }
  std::unique_ptr<Registration> register_buffer(void*, std::size_t) override {
    return std::make_unique<FakeRegistration>(log_);
  }

 private:
  DirectLog& log_;
};

// The cpu backend with the stand-in as its direct storage; everything else is real.
std::unique_ptr<Backend> direct_backend(DirectLog& log) {
  test::CpuWrap wrap;
  wrap.direct_storage = [&log]() -> std::unique_ptr<DirectStorage> {
    if (log.refuse_open) throw Unavailable("GPUD needs NVIDIA GPUDirect Storage's cuFile library (stand-in refusal)");
    return std::make_unique<FakeDirectStorage>(log);
  };
  return test::make_wrapped_cpu_backend(std::move(wrap));
}

IoPlan direct_plan(const std::filesystem::path& dir, IoPattern pattern) {
  IoPlan p;
  p.directory = dir;
  p.threads = 2;
  p.pattern = pattern;
  p.file_bytes = 512u << 10;
  p.io_bytes = 64u << 10;
  p.engine = "io_uring";  // not used by GPUD: the direct path is its engine
  p.queue_depth = 8;      // GPUD runs one synchronous IO at a time per thread
  p.transfer = IoTransfer::gpu_direct;
  return p;
}

TEST(IoDirect, WritesThenReadsBackVerifiedThroughTheDirectPath) {
  for (auto [write, read] : {std::pair{IoPattern::write, IoPattern::read}, std::pair{IoPattern::randwrite, IoPattern::randread}}) {
    DirectLog log;
    const auto backend = direct_backend(log);
    TempDir dir;
    const CaseResult w = test::run_one(direct_plan(dir.path(), write), backend.get());
    EXPECT_EQ(metric(w, "ops"), 2 * 8);
    EXPECT_EQ(metric(w, "bytes"), 2.0 * (512 << 10));
    EXPECT_EQ(w.label("engine"), "fake-direct");
    EXPECT_EQ(w.label("qd"), "1");
    EXPECT_EQ(w.label("xfer"), "gpu-direct");
    EXPECT_EQ(w.config.at("direct_storage"), "fake-direct");
    EXPECT_EQ(nlohmann::json(w.config.get<IoConfig>()), w.config) << w.config.dump();  // the typed record, exactly
    EXPECT_EQ(w.config.at("direct_storage_mode").get<std::string>().rfind("compat mode", 0), 0u);
    EXPECT_NE(w.title.find("straight into and out of cpu arena"), std::string::npos) << w.title;
    EXPECT_EQ(log.files_open, 2);         // one per thread
    EXPECT_EQ(log.buffers_registered, 2);  // one slot per thread at depth 1
    EXPECT_EQ(log.calls, 16);              // whole IOs: no short transfers asked for
    EXPECT_EQ(log.buffers_live, 0);        // deregistered at the end
    EXPECT_EQ(log.files_live, 0);

    IoPlan r = direct_plan(dir.path(), read);
    r.verify = true;
    const CaseResult rr = test::run_one(r, backend.get());
    EXPECT_EQ(metric(rr, "ops"), 2 * 8);
    // The data is the pattern: the same run through the CPU path verifies it too.
    IoPlan cpu = r;
    cpu.transfer = IoTransfer::cpu;
    cpu.engine = "psync";
    EXPECT_EQ(metric(test::run_one(cpu, backend.get()), "ops"), 2 * 8);
  }
}

TEST(IoDirect, BuffersGoUnregisteredWhenThePlanSaysSo) {
  // gdsio -b (skip cuFileBufRegister): the same IOs, no registration; cuFile bounces them itself.
  DirectLog log;
  const auto backend = direct_backend(log);
  TempDir dir;
  IoPlan w = direct_plan(dir.path(), IoPattern::write);
  w.register_buffers = false;
  const CaseResult r = test::run_one(w, backend.get());
  EXPECT_EQ(metric(r, "ops"), 2 * 8);
  EXPECT_EQ(log.buffers_registered, 0);
  EXPECT_EQ(r.config.at("registered_buffers"), false);
  IoPlan back = direct_plan(dir.path(), IoPattern::read);
  back.verify = true;
  back.register_buffers = false;
  EXPECT_EQ(metric(test::run_one(back, backend.get()), "ops"), 2 * 8);
  EXPECT_EQ(log.buffers_registered, 0);
}

TEST(IoDirect, TheAsyncAndBatchTypesNeedApisNoBackendDrivesYet) {
  DirectLog log;
  const auto backend = direct_backend(log);
  TempDir dir;
  for (IoTransfer t : {IoTransfer::gpu_direct_async, IoTransfer::gpu_batch, IoTransfer::gpu_batch_stream}) {
    IoPlan p = direct_plan(dir.path(), IoPattern::write);
    p.transfer = t;
    try {
      test::run_one(p, backend.get());
      ADD_FAILURE() << to_string(t) << " ran";
    } catch (const Unavailable& e) {
      EXPECT_NE(std::string(e.what()).find("needs cuFile's"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(dir.entries().empty());
  }
}

TEST(IoDirect, ShortTransfersAndEintrAreResumed) {
  DirectLog log;
  log.short_transfers = true;
  log.eintr_first = true;
  const auto backend = direct_backend(log);
  TempDir dir;
  test::run_one(direct_plan(dir.path(), IoPattern::write), backend.get());
  // 64 KiB IOs moved 32, 16, 8, 4, 4 KiB at a time: five calls each, plus one EINTR per file.
  EXPECT_EQ(log.calls, 2 * (8 * 5 + 1));
  IoPlan r = direct_plan(dir.path(), IoPattern::read);
  r.verify = true;
  EXPECT_EQ(metric(test::run_one(r, backend.get()), "bytes"), 2.0 * (512 << 10));
}

TEST(IoDirect, VerifyFindsAFlippedByteAsItArrivedInDeviceMemory) {
  DirectLog log;
  const auto backend = direct_backend(log);
  TempDir dir;
  test::run_one(direct_plan(dir.path(), IoPattern::write), backend.get());
  const auto victim = dir.path() / "xferbench-io.1";
  test::flip_byte(victim, 200'000);
  IoPlan r = direct_plan(dir.path(), IoPattern::randread);
  r.verify = true;
  const std::string what = error_of([&] { test::run_one(r, backend.get()); });
  EXPECT_NE(what.find(victim.string() + " byte at offset 200000 "), std::string::npos) << what;
  EXPECT_NE(what.find("in the 65536-byte IO at offset 196608, as it arrived in device memory"), std::string::npos) << what;
}

TEST(IoDirect, AReadThatMovesNothingIsTheEndOfTheFileWithItsOffset) {
  DirectLog log;
  const auto backend = direct_backend(log);
  TempDir dir;
  test::run_one(direct_plan(dir.path(), IoPattern::write), backend.get());
  log.read_nothing = true;
  const std::string what = error_of([&] { test::run_one(direct_plan(dir.path(), IoPattern::read), backend.get()); });
  EXPECT_NE(what.find("direct read("), std::string::npos) << what;
  EXPECT_NE(what.find("xferbench-io."), std::string::npos) << what;
  EXPECT_NE(what.find("offset 0"), std::string::npos) << what;
  EXPECT_EQ(log.buffers_live, 0);
  EXPECT_EQ(log.files_live, 0);
}

TEST(IoDirect, AMissingDirectPathLeavesNothingBehind) {
  DirectLog log;
  log.refuse_open = true;
  const auto backend = direct_backend(log);
  TempDir dir;
  try {
    test::run_one(direct_plan(dir.path(), IoPattern::write), backend.get());
    ADD_FAILURE() << "GPUD ran without its direct path";
  } catch (const Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("cuFile"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace xb
