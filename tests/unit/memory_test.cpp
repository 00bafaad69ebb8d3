// Host memory kinds (src/memory/host_buffer.hpp), each made for real: mmap'd, mlock'd, POSIX shared
// memory seen by a forked process, O_DIRECT-loaded from a real file, huge pages where reserved.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/cleanup.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
#include "memory/host_buffer.hpp"

#include "support/locked_memory.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

bool page_aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kHostAlignment == 0; }

// Writes the pattern over the whole buffer and reads it back.
void expect_writable(HostBuffer& b, std::uint64_t seed) {
  fill_pattern(b.bytes(), seed, 0);
  EXPECT_EQ(find_pattern_mismatch(b.bytes(), seed, 0), std::nullopt);
}

// /dev/shm entries this process created (xferbench-<pid>-*).
std::vector<fs::path> my_shm_files() {
  std::vector<fs::path> out;
  const std::string prefix = "xferbench-" + std::to_string(getpid()) + "-";
  for (const auto& e : fs::directory_iterator("/dev/shm")) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path());
  }
  return out;
}

using test::kMlockLocks;
using test::locked_bytes;

// A directory under /var/tmp made for one test and removed with everything in it.
using xb::test::TempDir;

std::uint64_t read_proc_number(const char* path) {
  std::ifstream in(path);
  std::uint64_t v = 0;
  in >> v;
  return v;
}

TEST(HostMemoryKind, NamesRoundTrip) {
  const auto names = host_memory_kind_names();
  EXPECT_EQ(names, (std::vector<std::string>{"pageable", "pinned", "shm", "odirect", "hugepage"}));
  for (const auto& name : names) {
    const auto kind = host_memory_kind_from(name);
    ASSERT_TRUE(kind.has_value()) << name;
    EXPECT_EQ(to_string(*kind), name);
  }
  for (HostMemoryKind k : {HostMemoryKind::pageable, HostMemoryKind::pinned, HostMemoryKind::shm,
                           HostMemoryKind::odirect, HostMemoryKind::hugepage}) {
    EXPECT_EQ(host_memory_kind_from(to_string(k)), k);
  }
  EXPECT_EQ(host_memory_kind_from("device"), std::nullopt);
  EXPECT_EQ(host_memory_kind_from("Pinned"), std::nullopt);
  EXPECT_EQ(host_memory_kind_from(""), std::nullopt);
}

TEST(HostBuffer, Pageable) {
  auto b = make_host_buffer(HostMemoryKind::pageable, 3 * 4096 + 5);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->kind(), HostMemoryKind::pageable);
  EXPECT_EQ(b->size(), 3u * 4096 + 5);
  EXPECT_EQ(b->bytes().data(), b->data());
  EXPECT_EQ(b->bytes().size(), b->size());
  EXPECT_TRUE(page_aligned(b->data()));
  expect_writable(*b, 1);
}

TEST(HostBuffer, PinnedIsLockedWhileAlive) {
  constexpr std::size_t kBytes = 8 << 20;
  const std::uint64_t before = locked_bytes();
  {
    auto b = make_host_buffer(HostMemoryKind::pinned, kBytes);
    EXPECT_EQ(b->kind(), HostMemoryKind::pinned);
    EXPECT_EQ(b->size(), kBytes);
    EXPECT_TRUE(page_aligned(b->data()));
    if (kMlockLocks) {
      EXPECT_GE(locked_bytes(), before + kBytes);
    }
    expect_writable(*b, 2);
  }
  EXPECT_EQ(locked_bytes(), before);
}

TEST(HostBuffer, ShmSegmentExistsWithMode0600AndIsRemoved) {
  ASSERT_TRUE(my_shm_files().empty());
  const int registered_before = cleanup_entries_for_this_process();
  fs::path segment;
  {
    auto b = make_host_buffer(HostMemoryKind::shm, 64 * 1024 + 1);
    EXPECT_EQ(b->kind(), HostMemoryKind::shm);
    EXPECT_EQ(b->size(), 64u * 1024 + 1);
    EXPECT_TRUE(page_aligned(b->data()));
    const auto files = my_shm_files();
    ASSERT_EQ(files.size(), 1u);
    segment = files[0];
    struct stat st {};
    ASSERT_EQ(stat(segment.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u) << std::oct << st.st_mode;
    EXPECT_EQ(st.st_uid, geteuid());
    EXPECT_GE(static_cast<std::size_t>(st.st_size), b->size());
    // Registered for the signal handler while alive.
    EXPECT_EQ(cleanup_entries_for_this_process(), registered_before + 1);
    expect_writable(*b, 3);
  }
  EXPECT_FALSE(fs::exists(segment)) << segment;
  EXPECT_TRUE(my_shm_files().empty());
  EXPECT_EQ(cleanup_entries_for_this_process(), registered_before);
}

TEST(HostBuffer, ShmIsSharedWithAForkedChild) {
  auto b = make_host_buffer(HostMemoryKind::shm, 1 << 20);
  std::fill(b->bytes().begin(), b->bytes().end(), std::byte{0});
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    fill_pattern(b->bytes(), 77, 0);
    _exit(0);  // no destructors: the parent owns the segment
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(find_pattern_mismatch(b->bytes(), 77, 0), std::nullopt);
  // The child's exit did not remove the parent's segment.
  EXPECT_EQ(my_shm_files().size(), 1u);
}

TEST(HostBuffer, PageableIsNotSharedWithAForkedChild) {
  // The contrast that makes the shm test meaningful: a private mapping is copied on write.
  auto b = make_host_buffer(HostMemoryKind::pageable, 1 << 16);
  std::fill(b->bytes().begin(), b->bytes().end(), std::byte{0});
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    fill_pattern(b->bytes(), 77, 0);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(find_pattern_mismatch(b->bytes(), 77, 0), 0u);
}

TEST(HostBuffer, OdirectContentIsThePatternOfTheSeed) {
  TempDir dir;
  const int registered_before = cleanup_entries_for_this_process();
  for (std::size_t bytes : {std::size_t{1} << 20, std::size_t{10000}, std::size_t{9} << 20}) {
    SCOPED_TRACE(bytes);
    HostBufferOptions options;
    options.odirect_dir = dir.path();
    options.odirect_seed = 0x1234 + bytes;
    auto b = make_host_buffer(HostMemoryKind::odirect, bytes, options);
    EXPECT_EQ(b->kind(), HostMemoryKind::odirect);
    EXPECT_EQ(b->size(), bytes);
    EXPECT_TRUE(page_aligned(b->data()));
    EXPECT_EQ(find_pattern_mismatch(b->bytes(), options.odirect_seed, 0), std::nullopt);
    // Another seed's pattern is not what it holds.
    EXPECT_EQ(find_pattern_mismatch(b->bytes(), options.odirect_seed + 1, 0), 0u);
    // The backing file is gone as soon as the buffer is loaded.
    EXPECT_TRUE(fs::is_empty(dir.path()));
    EXPECT_EQ(cleanup_entries_for_this_process(), registered_before);
    expect_writable(*b, 4);
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(HostBuffer, OdirectInMissingDirectoryNamesThePath) {
  TempDir parent;
  const fs::path missing = parent.path() / "does-not-exist";
  HostBufferOptions options;
  options.odirect_dir = missing;
  try {
    make_host_buffer(HostMemoryKind::odirect, 1 << 16, options);
    FAIL() << "no error for " << missing;
  } catch (const SystemError& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
    EXPECT_EQ(e.error_number(), ENOENT);
  }
  EXPECT_FALSE(fs::exists(missing));
  EXPECT_TRUE(fs::is_empty(parent.path()));
}

TEST(HostBuffer, HugepageWorksOrIsUnavailableAsTheMachineSays) {
  const std::uint64_t reserved = read_proc_number("/proc/sys/vm/nr_hugepages");
  const std::uint64_t overcommit = read_proc_number("/proc/sys/vm/nr_overcommit_hugepages");
  if (reserved == 0 && overcommit == 0) {
    try {
      make_host_buffer(HostMemoryKind::hugepage, 1 << 20);
      FAIL() << "huge pages mapped although vm.nr_hugepages is 0";
    } catch (const Unavailable& e) {
      EXPECT_NE(std::string(e.what()).find("nr_hugepages"), std::string::npos) << e.what();
    }
  } else if (reserved > 0) {
    auto b = make_host_buffer(HostMemoryKind::hugepage, 1 << 20);
    EXPECT_EQ(b->kind(), HostMemoryKind::hugepage);
    EXPECT_EQ(b->size(), 1u << 20);
    expect_writable(*b, 5);
  } else {
    // Only overcommitted huge pages: either outcome is right, but nothing else.
    try {
      auto b = make_host_buffer(HostMemoryKind::hugepage, 1 << 20);
      expect_writable(*b, 5);
    } catch (const Unavailable&) {
    }
  }
}

TEST(HostBuffer, ZeroBytesIsAValidEmptyBuffer) {
  for (HostMemoryKind k : {HostMemoryKind::pageable, HostMemoryKind::pinned, HostMemoryKind::shm}) {
    auto b = make_host_buffer(k, 0);
    EXPECT_EQ(b->size(), 0u) << to_string(k);
    EXPECT_NE(b->data(), nullptr) << to_string(k);
  }
  EXPECT_TRUE(my_shm_files().empty());
}

}  // namespace
}  // namespace xb
