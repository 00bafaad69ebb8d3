// The completion records of data files (storage/manifest.hpp) and how the io job uses them: written
// in the state directory after a complete write run, required by a --verify read, checked against
// the read's files, seeds, extents and the files as they are now. In process, on real files under
// /var/tmp, with the state directory a temporary of each test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "jobs/io/io_job.hpp"
#include "storage/manifest.hpp"
#include "support/job_helpers.hpp"
#include "support/state_dir.hpp"
#include "support/temp_dir.hpp"
#include "support/run_job.hpp"

namespace xb {
namespace {

using test::ScopedStateDir;
using test::TempDir;
using test::error_of;

IoPlan plan(const std::filesystem::path& dir, IoPattern pattern, unsigned threads, std::uint64_t bytes) {
  IoPlan p;
  p.directory = dir;
  p.threads = threads;
  p.pattern = pattern;
  p.file_bytes = bytes;
  p.io_bytes = 64u << 10;
  p.engine = "io_uring";
  p.queue_depth = 4;
  p.verify = !is_write(pattern);
  return p;
}

Manifest sample() {
  Manifest m;
  m.path = "/var/tmp/a name with spaces";
  m.identity = {0xfe00, 1234, 1u << 20, 1796168962378236332ull};
  m.seed = 7;
  m.begin = 4096;
  m.end = (1u << 20) + 4096;
  m.io_bytes = 65536;
  return m;
}

TEST(Manifest, TextRoundTrips) { EXPECT_EQ(parse_manifest(manifest_text(sample())), sample()); }

TEST(Manifest, CutOrDamagedTextIsRefused) {
  const std::string good = manifest_text(sample());
  EXPECT_NE(error_of([&] { parse_manifest(good.substr(0, good.size() - 4)); }).find("no 'end' line"), std::string::npos);
  EXPECT_NE(error_of([&] { parse_manifest(good.substr(0, good.size() - 1)); }).find("no end of line"), std::string::npos);
  EXPECT_NE(error_of([&] { parse_manifest("xferbench-io-manifest 1\nend\n"); }).find("line 1"), std::string::npos);
  EXPECT_NE(error_of([&] { parse_manifest("xferbench-io-record 2\npattern 1 9 2\nend\n"); }).find("BEGIN <= END"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_manifest("xferbench-io-record 2\nidentity 1 2 3\nend\n"); })
                .find("expected 'identity DEV INO SIZE CTIME_NS'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_manifest("xferbench-io-record 2\nio_size 1\nend\n"); }).find("is missing"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_manifest(""); }), "");
  EXPECT_NE(error_of([&] { parse_manifest(good + "more\n"); }).find("after 'end'"), std::string::npos);
}

TEST(Manifest, WrittenAtomicallyAndRemovedIdempotently) {
  TempDir dir;
  const auto path = dir.path() / "record";
  EXPECT_NE(error_of([&] { read_manifest(path); }).find("does not exist"), std::string::npos);
  write_manifest(path, sample());
  EXPECT_EQ(read_manifest(path), sample());
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"record"});  // no temporary left
  remove_manifest(path);
  remove_manifest(path);  // already gone: fine
  remove_manifest(dir.path() / "no-such-dir" / "record");  // no state directory yet: fine
  EXPECT_TRUE(dir.entries().empty());
}

TEST(Manifest, StateDirectoryFollowsTheXdgRule) {
  EXPECT_EQ(state_directory_from("/s", "/x", "/h"), "/s");
  EXPECT_EQ(state_directory_from(nullptr, "/x", "/h"), "/x/xferbench");
  EXPECT_EQ(state_directory_from("", "relative", "/h"), "/h/.local/state/xferbench");  // a relative XDG value is ignored
  EXPECT_EQ(state_directory_from(nullptr, nullptr, nullptr), "/var/lib/xferbench");
}

TEST(Manifest, CompleteWriteRecordsEachFileInTheStateDirectoryNotBesideIt) {
  ScopedStateDir state;
  TempDir dir;
  test::run_one(plan(dir.path(), IoPattern::randwrite, 2, 1u << 20));
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"xferbench-io.0", "xferbench-io.1"}));
  ASSERT_EQ(state.records().size(), 2u);
  struct stat st {};
  ASSERT_EQ(stat((dir.path() / "xferbench-io.1").c_str(), &st), 0);
  const Manifest m = read_manifest(manifest_path(state.path(), identity_of(st)));
  EXPECT_EQ(m.path, (dir.path() / "xferbench-io.1").string());
  EXPECT_EQ(m.identity, identity_of(st));
  EXPECT_EQ(m.seed, IoPlan{}.seed + 1);
  EXPECT_EQ(m.begin, 0u);
  EXPECT_EQ(m.end, 1u << 20);
  EXPECT_EQ(m.io_bytes, 64u << 10);
  EXPECT_NO_THROW(test::run_one(plan(dir.path(), IoPattern::read, 2, 1u << 20)));
  EXPECT_NO_THROW(test::run_one(plan(dir.path(), IoPattern::randread, 1, 512u << 10)));  // a part of what was written
}

TEST(Manifest, VerifyWithoutARecordIsRefused) {
  ScopedStateDir state;
  TempDir dir;
  test::run_one(plan(dir.path(), IoPattern::write, 1, 1u << 20));
  std::filesystem::remove_all(state.path() / "io-written");
  const std::string what = error_of([&] { test::run_one(plan(dir.path(), IoPattern::read, 1, 1u << 20)); });
  EXPECT_NE(what.find("a read with verification: refused: " + (dir.path() / "xferbench-io.0").string() +
                      ": no record of a complete write run"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("does not exist"), std::string::npos) << what;
  // A read without --verify only measures: the record is not needed.
  IoPlan r = plan(dir.path(), IoPattern::read, 1, 1u << 20);
  r.verify = false;
  EXPECT_NO_THROW(test::run_one(r));
}

TEST(Manifest, VerifyChecksSeedExtentAndTheFileAsItIsNow) {
  ScopedStateDir state;
  TempDir dir;
  test::run_one(plan(dir.path(), IoPattern::write, 2, 1u << 20));
  IoPlan r = plan(dir.path(), IoPattern::read, 2, 1u << 20);
  r.seed = 5;
  std::string what = error_of([&] { test::run_one(r); });
  EXPECT_NE(what.find("xferbench-io.0: written with pattern seed"), std::string::npos) << what;
  EXPECT_NE(what.find("this run expects 5"), std::string::npos) << what;

  // Another name of the same file (a hard link): the record is of the name written.
  std::filesystem::create_hard_link(dir.path() / "xferbench-io.0", dir.path() / "alias");
  IoPlan alias = plan(dir.path(), IoPattern::read, 1, 1u << 20);
  alias.directory.clear();
  alias.file = dir.path() / "alias";
  what = error_of([&] { test::run_one(alias); });
  EXPECT_NE(what.find("another name of the file"), std::string::npos) << what;
  std::filesystem::remove(dir.path() / "alias");

  // A complete write of file 0 at an offset: reads of other bytes are refused.
  IoPlan w = plan(dir.path(), IoPattern::write, 1, 512u << 10);
  w.offset = 512u << 10;
  test::run_one(w);
  what = error_of([&] { test::run_one(plan(dir.path(), IoPattern::read, 1, 512u << 10)); });
  EXPECT_NE(what.find("wrote bytes [524288, 1048576), this run reads [0, 524288)"), std::string::npos) << what;
  IoPlan same = plan(dir.path(), IoPattern::read, 1, 512u << 10);
  same.offset = w.offset;
  EXPECT_NO_THROW(test::run_one(same));

  // Rewritten by another program under the same name (a new file, written beside and renamed over
  // it, as editors and rsync do): no record for it. Made while the old file still exists, so it
  // cannot get the old inode back: after an unlink ext4 may hand the same inode number to the next
  // file, and a record keyed by (device, inode) cannot tell those apart (the verify then finds the
  // bytes wrong instead; docs/io.md). That reuse made this test fail once under ASan.
  const auto f1 = dir.path() / "xferbench-io.1";
  const auto beside = dir.path() / "beside";
  std::ofstream(beside) << std::string(1u << 20, 'x');
  std::filesystem::rename(beside, f1);
  IoPlan replaced = plan(dir.path(), IoPattern::read, 1, 1u << 20);
  replaced.directory.clear();
  replaced.file = f1;
  replaced.seed = IoPlan{}.seed + 1;  // file 1's seed, as a one-file plan names it
  what = error_of([&] { test::run_one(replaced); });
  EXPECT_NE(what.find(f1.string() + ": no record of a complete write run"), std::string::npos) << what;

  // A damaged record is no record.
  struct stat st {};
  ASSERT_EQ(stat((dir.path() / "xferbench-io.0").c_str(), &st), 0);
  std::ofstream(manifest_path(state.path(), identity_of(st))) << "xferbench-io-record 2\nio_size 65536\n";
  what = error_of([&] { test::run_one(same); });
  EXPECT_NE(what.find("is not a valid record: no 'end' line"), std::string::npos) << what;
}

TEST(Manifest, OneSharedFileRecordsItsWholeExtent) {
  ScopedStateDir state;
  TempDir dir;
  IoPlan w = plan(dir.path(), IoPattern::write, 2, 1u << 20);
  w.directory.clear();
  w.file = dir.path() / "one";
  test::run_one(w);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"one"}));
  EXPECT_EQ(state.records().size(), 1u);
  IoPlan r = plan(dir.path(), IoPattern::read, 1, 2u << 20);  // one thread over both regions
  r.directory.clear();
  r.file = w.file;
  EXPECT_NO_THROW(test::run_one(r));
}

TEST(Manifest, RecordsOfFilesGoneArePrunedByTheNextWrite) {
  ScopedStateDir state;
  TempDir dir;
  test::run_one(plan(dir.path(), IoPattern::write, 2, 1u << 20));
  ASSERT_EQ(state.records().size(), 2u);
  std::filesystem::remove(dir.path() / "xferbench-io.1");
  TempDir other;
  test::run_one(plan(other.path(), IoPattern::write, 1, 1u << 20));
  // xferbench-io.0 of the first directory and of the second: the removed file's record is gone.
  EXPECT_EQ(state.records().size(), 2u);
}

}  // namespace
}  // namespace xb
