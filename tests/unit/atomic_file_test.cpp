// Files written whole (--output, --ready-file, the page, compare's output, the manifest): new
// content replaces old in one rename; a write that cannot happen says which file and leaves nothing;
// a link planted at the target is replaced, never written through; temporaries are this process's
// own (random names created with O_EXCL), removed when not committed, and known to the signal
// handlers while they exist.
#include "core/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/cleanup.hpp"
#include "core/error.hpp"
#include "support/job_helpers.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

std::string read_whole(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AtomicFile, WritesAndReplacesWholeLeavingNoTemporary) {
  test::TempDir dir;
  const auto file = dir.path() / "page.html";
  write_file_atomically(file.string(), "first");
  EXPECT_EQ(read_whole(file), "first");
  write_file_atomically(file.string(), std::string(100000, 'x'));
  EXPECT_EQ(read_whole(file), std::string(100000, 'x'));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"page.html"});
}

TEST(AtomicFile, AFailedWriteNamesTheFileAndLeavesNothing) {
  test::TempDir dir;
  const auto file = dir.path() / "missing-dir" / "page.html";
  const std::string what = test::error_of([&] { write_file_atomically(file.string(), "text"); });
  EXPECT_NE(what.find(file.string()), std::string::npos) << what;
  EXPECT_THROW(write_file_atomically(file.string(), "text"), SystemError);
  EXPECT_TRUE(dir.entries().empty());
}

// Another user's link at the output's name, pointing at a file root must not touch: the link is
// replaced by the new file and the file it pointed at keeps its content.
TEST(AtomicFile, ALinkAtTheTargetIsReplacedNotWrittenThrough) {
  test::TempDir dir;
  const auto victim = dir.path() / "victim";
  { std::ofstream(victim) << "precious"; }
  const auto out = dir.path() / "result.json";
  fs::create_symlink(victim, out);
  write_file_atomically(out.string(), "{}");
  EXPECT_EQ(read_whole(victim), "precious");
  EXPECT_FALSE(fs::is_symlink(out));
  EXPECT_EQ(read_whole(out), "{}");
}

TEST(AtomicFile, TemporariesAreOwnRandomRegularFilesRemovedUnlessCommitted) {
  test::TempDir dir;
  const auto out = dir.path() / "r.txt";
  const int registered_before = cleanup_entries_for_this_process();
  {
    AtomicFileWriter a(out), b(out);
    // Not the pid alone: a name another process could predict and plant a link at.
    EXPECT_NE(a.temporary(), b.temporary());
    const std::string prefix = out.string() + ".tmp-" + std::to_string(getpid()) + "-";
    EXPECT_EQ(a.temporary().string().rfind(prefix, 0), 0u) << a.temporary();
    struct stat st {};
    ASSERT_EQ(lstat(a.temporary().c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(cleanup_entries_for_this_process(), registered_before + 2);  // a signal removes them
    a.write("partial");
  }
  // Neither committed: both temporaries gone, no target, nothing registered.
  EXPECT_TRUE(dir.entries().empty());
  EXPECT_EQ(cleanup_entries_for_this_process(), registered_before);
  {
    AtomicFileWriter c(out);
    c.write("whole");
    c.commit(true);
    EXPECT_EQ(cleanup_entries_for_this_process(), registered_before);
  }
  EXPECT_EQ(read_whole(out), "whole");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"r.txt"});
}

}  // namespace
}  // namespace xb
