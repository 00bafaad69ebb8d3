// The completion record of a data set (storage/manifest.hpp) and how the io job uses it: written
// after a complete write run, required by a --verify read, checked against the read's files, seeds
// and sizes. In process, on real files under /var/tmp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "jobs/io/io_job.hpp"
#include "storage/manifest.hpp"
#include "support/job_helpers.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

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

TEST(Manifest, TextRoundTrips) {
  Manifest m;
  m.io_bytes = 4096;
  m.files = {{"xferbench-io.0", 7, 1u << 20}, {"a name with spaces", 8, 3}};
  EXPECT_EQ(parse_manifest(manifest_text(m)), m);
}

TEST(Manifest, CutOrDamagedTextIsRefused) {
  const std::string good = manifest_text({4096, {{"f", 1, 2}}});
  EXPECT_NE(error_of([&] { parse_manifest(good.substr(0, good.size() - 4)); }).find("no 'end' line"), std::string::npos);
  EXPECT_NE(error_of([&] { parse_manifest(good.substr(0, good.size() - 1)); }).find("no end of line"), std::string::npos);
  EXPECT_NE(error_of([&] { parse_manifest("xferbench-io-manifest 2\nend\n"); }).find("line 1"), std::string::npos);
  EXPECT_NE(error_of([&] { parse_manifest("xferbench-io-manifest 1\nio_size 1\nfile x 2 f\nend\n"); })
                .find("expected 'file SEED BYTES NAME'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_manifest(""); }), "");
  EXPECT_NE(error_of([&] { parse_manifest(good + "more\n"); }).find("after 'end'"), std::string::npos);
}

TEST(Manifest, WrittenAtomicallyAndRemovedIdempotently) {
  TempDir dir;
  const auto path = dir.path() / "record";
  EXPECT_NE(error_of([&] { read_manifest(path); }).find("does not exist"), std::string::npos);
  const Manifest m{1 << 20, {{"xferbench-io.0", 42, 1 << 20}}};
  write_manifest(path, m);
  EXPECT_EQ(read_manifest(path), m);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"record"});  // no temporary left
  remove_manifest(path);
  remove_manifest(path);  // already gone: fine
  EXPECT_TRUE(dir.entries().empty());
}

TEST(Manifest, CompleteWriteThenVerifiedReadPasses) {
  TempDir dir;
  run_io(plan(dir.path(), IoPattern::randwrite, 2, 1u << 20));
  const Manifest m = read_manifest(dir.path() / "xferbench-io.manifest");
  ASSERT_EQ(m.files.size(), 2u);
  EXPECT_EQ(m.files[1].name, "xferbench-io.1");
  EXPECT_EQ(m.files[1].seed, IoPlan{}.seed + 1);
  EXPECT_EQ(m.files[1].bytes, 1u << 20);
  EXPECT_EQ(m.io_bytes, 64u << 10);
  EXPECT_NO_THROW(run_io(plan(dir.path(), IoPattern::read, 2, 1u << 20)));
  EXPECT_NO_THROW(run_io(plan(dir.path(), IoPattern::randread, 1, 512u << 10)));  // a part of what was written
}

TEST(Manifest, VerifyWithoutARecordIsRefused) {
  TempDir dir;
  run_io(plan(dir.path(), IoPattern::write, 1, 1u << 20));
  std::filesystem::remove(dir.path() / "xferbench-io.manifest");
  const std::string what = error_of([&] { run_io(plan(dir.path(), IoPattern::read, 1, 1u << 20)); });
  EXPECT_NE(what.find("--verify: refused: no record of a complete write run"), std::string::npos) << what;
  EXPECT_NE(what.find("xferbench-io.manifest does not exist"), std::string::npos) << what;
  // A read without --verify only measures: the record is not needed.
  IoPlan r = plan(dir.path(), IoPattern::read, 1, 1u << 20);
  r.verify = false;
  EXPECT_NO_THROW(run_io(r));
}

TEST(Manifest, VerifyChecksSeedFilesAndSizesAgainstTheRecord) {
  TempDir dir;
  run_io(plan(dir.path(), IoPattern::write, 2, 1u << 20));
  IoPlan r = plan(dir.path(), IoPattern::read, 2, 1u << 20);
  r.seed = 5;
  std::string what = error_of([&] { run_io(r); });
  EXPECT_NE(what.find("xferbench-io.0 was written with pattern seed"), std::string::npos) << what;
  EXPECT_NE(what.find("this run expects 5"), std::string::npos) << what;

  // A complete write of file 0 only, at 2 MiB: file 1 still exists but the record no longer names it.
  run_io(plan(dir.path(), IoPattern::write, 1, 2u << 20));
  what = error_of([&] { run_io(plan(dir.path(), IoPattern::read, 2, 1u << 20)); });
  EXPECT_NE(what.find("xferbench-io.1 was not written by the last complete write run"), std::string::npos) << what;
  EXPECT_NO_THROW(run_io(plan(dir.path(), IoPattern::read, 1, 2u << 20)));

  // A damaged record is no record.
  std::ofstream(dir.path() / "xferbench-io.manifest") << "xferbench-io-manifest 1\nio_size 65536\n";
  what = error_of([&] { run_io(plan(dir.path(), IoPattern::read, 1, 1u << 20)); });
  EXPECT_NE(what.find("is not a valid record: no 'end' line"), std::string::npos) << what;
}

TEST(Manifest, OneSharedFileRecordsItsWholeExtent) {
  TempDir dir;
  IoPlan w = plan(dir.path(), IoPattern::write, 2, 1u << 20);
  w.directory.clear();
  w.file = dir.path() / "one";
  run_io(w);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"one", "one.xferbench-io.manifest"}));
  IoPlan r = plan(dir.path(), IoPattern::read, 1, 2u << 20);  // one thread over both regions
  r.directory.clear();
  r.file = w.file;
  EXPECT_NO_THROW(run_io(r));
  // Growing the file by hand does not extend what the record vouches for.
  std::filesystem::resize_file(w.file, 3u << 20);
  r.file_bytes = 3u << 20;
  const std::string what = error_of([&] { run_io(r); });
  EXPECT_NE(what.find("wrote 2097152 bytes of"), std::string::npos) << what;
}

}  // namespace
}  // namespace xb
