// The block store's layout: names by a hash of the block id, two levels of fan-out directories,
// temporaries published by rename or removed, and removal of a run's blocks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "core/cleanup.hpp"
#include "support/temp_dir.hpp"
#include "storage/kv_store.hpp"

namespace xb {
namespace {

using test::TempDir;

TEST(KvStore, NameIsTheSplitmix64HashOfTheIdIn16HexDigits) {
  // splitmix64's first output from state 0 (its published reference value).
  EXPECT_EQ(kv_block_hash(0), 0xe220a8397b1dcdafull);
  EXPECT_EQ(kv_block_name(0), "e220a8397b1dcdaf");
  std::set<std::string> names, first_dirs;
  for (std::uint64_t id = 0; id < 10000; ++id) {
    const std::string n = kv_block_name(id);
    ASSERT_EQ(n.size(), 16u);
    ASSERT_EQ(n.find_first_not_of("0123456789abcdef"), std::string::npos) << n;
    names.insert(n);
    first_dirs.insert(n.substr(0, 2));
  }
  EXPECT_EQ(names.size(), 10000u);       // no two ids share a file
  EXPECT_EQ(first_dirs.size(), 256u);    // consecutive ids spread over every first-level directory
}

TEST(KvStore, PathFansOutOnTheHashsLeadingDigits) {
  const std::string n = kv_block_name(42);
  EXPECT_EQ(kv_block_path("/s", 42), std::filesystem::path("/s") / n.substr(0, 2) / n.substr(2, 2) / n);
  EXPECT_EQ(kv_temp_path("/s", 42, 3).string(),
            kv_block_path("/s", 42).string() + ".tmp-" + std::to_string(getpid()) + ".3");
  EXPECT_NE(kv_block_seed(7, 1), kv_block_seed(7, 2));
}

TEST(KvStore, TemporaryIsPublishedByRenameAndRegisteredMeanwhile) {
  TempDir dir;
  make_kv_block_dirs(dir.path(), 3);
  make_kv_block_dirs(dir.path(), 3);  // again: already there is fine
  const int before = cleanup_entries_for_this_process();
  {
    KvTempBlock t(dir.path(), 3, 0, false);
    EXPECT_EQ(cleanup_entries_for_this_process(), before + 1);
    EXPECT_TRUE(std::filesystem::exists(kv_temp_path(dir.path(), 3, 0)));
    EXPECT_FALSE(std::filesystem::exists(kv_block_path(dir.path(), 3)));
    ASSERT_EQ(write(t.fd(), "abc", 3), 3);
    t.publish();
  }
  EXPECT_EQ(cleanup_entries_for_this_process(), before);
  EXPECT_FALSE(std::filesystem::exists(kv_temp_path(dir.path(), 3, 0)));
  EXPECT_EQ(std::filesystem::file_size(kv_block_path(dir.path(), 3)), 3u);
}

TEST(KvStore, UnpublishedTemporaryIsRemovedAndTheBlockUntouched) {
  TempDir dir;
  make_kv_block_dirs(dir.path(), 5);
  { std::ofstream(kv_block_path(dir.path(), 5)) << "old"; }
  {
    KvTempBlock t(dir.path(), 5, 1, false);
    ASSERT_EQ(write(t.fd(), "half", 4), 4);
    // An error here: the destructor runs without publish().
  }
  EXPECT_FALSE(std::filesystem::exists(kv_temp_path(dir.path(), 5, 1)));
  EXPECT_EQ(std::filesystem::file_size(kv_block_path(dir.path(), 5)), 3u);
}

TEST(KvStore, RemoveBlocksLeavesOnlyWhatItDidNotWrite) {
  TempDir dir;
  for (std::uint64_t id = 0; id < 20; ++id) {
    make_kv_block_dirs(dir.path(), id);
    std::ofstream(kv_block_path(dir.path(), id)) << id;
  }
  { std::ofstream(dir.path() / "user-file") << "x"; }
  remove_kv_blocks(dir.path(), 20);
  EXPECT_EQ(dir.tree(), std::vector<std::string>{"user-file"});
}

// The signal handler's sweep (no allocation) removes exactly what remove_kv_blocks does: blocks
// 0..n-1 and the fan-out directories they leave empty; block n and a user's file stay.
TEST(KvStore, SignalSweepRemovesTheSameBlocksAsRemoveBlocks) {
  TempDir dir;
  for (std::uint64_t id = 0; id <= 300; ++id) {
    make_kv_block_dirs(dir.path(), id);
    std::ofstream(kv_block_path(dir.path(), id)) << id;
  }
  { std::ofstream(dir.path() / "user-file") << "x"; }
  sweep_kv_blocks(dir.path().c_str(), 300);
  const auto left = dir.tree();
  const auto block300 = std::filesystem::relative(kv_block_path(dir.path(), 300), dir.path()).string();
  EXPECT_NE(std::find(left.begin(), left.end(), block300), left.end()) << "block 300 is not the run's";
  EXPECT_NE(std::find(left.begin(), left.end(), "user-file"), left.end());
  // Block 300's two directories, the block, the user's file: nothing else.
  EXPECT_EQ(left.size(), 4u) << ::testing::PrintToString(left);
}

}  // namespace
}  // namespace xb
