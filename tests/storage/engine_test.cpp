// The engines directly, through the registry: short transfers at the end of a file and failing
// calls throw with the call, the file and the offset.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "memory/host_buffer.hpp"
#include "storage/io_engine.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using test::TempDir;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { if (fd_ >= 0) close(fd_); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Runs one IO through a fresh engine and returns what it threw ("" when nothing).
std::string one_io(const IoEngineInfo& engine, int fd, const std::string& path, IoOp op, std::uint64_t offset,
                   std::size_t length) {
  auto pool = make_host_buffer(HostMemoryKind::pageable, 8192);
  std::memset(pool->data(), 'x', pool->size());
  const std::vector<std::span<std::byte>> slots{pool->bytes()};
  const std::vector<IoFile> files{{fd, path}};
  auto e = engine.make({files, slots, IoEngineOptions{1, true, true}});
  IoUnit u;
  u.buffer = pool->data();
  u.length = length;
  u.offset = offset;
  u.op = op;
  try {
    e->queue(u);
    e->submit();
    IoUnit* done[1];
    std::size_t n = 0;
    while (n == 0) n = e->reap(1, done);
    EXPECT_EQ(done[0], &u);
    EXPECT_EQ(u.done, length);
  } catch (const std::exception& ex) {
    return ex.what();
  }
  return "";
}

TEST(Engines, RegistryListsThreeEngines) {
  EXPECT_EQ(io_engine_names(), "psync, libaio or io_uring");
  EXPECT_EQ(find_io_engine("psync")->max_queue_depth, 1u);
  EXPECT_EQ(find_io_engine("nope"), nullptr);
}

// Where a run names no engine (gdsio, the survey): io_uring, libaio, psync in that order, and the
// best is the first this kernel lets start (each before it refuses a one-deep instance).
TEST(Engines, PreferenceIsIoUringLibaioPsyncAndTheBestIsTheFirstThatStarts) {
  const auto order = io_engine_preference();
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0], "io_uring");
  EXPECT_EQ(order[1], "libaio");
  EXPECT_EQ(order[2], "psync");
  const std::string best = best_io_engine();
  bool found = false;
  for (std::string_view name : order) {
    ASSERT_NE(find_io_engine(name), nullptr) << name;
    bool starts = true;
    try {
      find_io_engine(name)->make(IoEngineSetup{{}, {}, IoEngineOptions{1, false, false}});
    } catch (const Unavailable&) {
      starts = false;
    }
    if (starts) {
      EXPECT_EQ(best, name) << "the first engine that starts here";
      found = true;
      break;
    }
    EXPECT_NE(best, name) << name << " cannot start here";
  }
  EXPECT_TRUE(found);
}

TEST(Engines, ReadAcrossTheEndOfFileIsReportedWithFileAndOffset) {
  TempDir dir;
  const std::string path = (dir.path() / "f").string();
  {
    Fd w(open(path.c_str(), O_CREAT | O_WRONLY, 0600));
    std::vector<char> data(10000, 'a');
    ASSERT_EQ(write(w.get(), data.data(), data.size()), 10000);
  }
  Fd fd(open(path.c_str(), O_RDONLY));
  for (const auto& engine : io_engines()) {
    // Whole and inside: fine. 8192 + 4096 crosses the end at 10000: the short read is resumed and
    // then meets the end, at offset 10000.
    EXPECT_EQ(one_io(engine, fd.get(), path, IoOp::read, 4096, 4096), "") << engine.name;
    const std::string what = one_io(engine, fd.get(), path, IoOp::read, 8192, 4096);
    EXPECT_NE(what.find(path + ", offset 10000, 2288 bytes"), std::string::npos) << engine.name << ": " << what;
    EXPECT_NE(what.find("end of the file"), std::string::npos) << engine.name << ": " << what;
  }
}

TEST(Engines, FailingCallNamesCallFileAndOffset) {
  TempDir dir;
  const std::string path = (dir.path() / "f").string();
  Fd fd(open(path.c_str(), O_CREAT | O_RDONLY, 0600));  // read-only: a write fails with EBADF
  for (const auto& engine : io_engines()) {
    const std::string what = one_io(engine, fd.get(), path, IoOp::write, 4096, 4096);
    EXPECT_NE(what.find("(" + path + ", offset 4096, 4096 bytes) failed: Bad file descriptor"), std::string::npos)
        << engine.name << ": " << what;
  }
}

}  // namespace
}  // namespace xb
