// The page and compare's --output are written whole: new content replaces old in one rename, and a
// write that cannot happen says which file and leaves nothing.
#include "report/atomic_file.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "report_fixtures.hpp"
#include "support/job_helpers.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

TEST(AtomicFile, WritesAndReplacesWholeLeavingNoTemporary) {
  test::TempDir dir;
  const auto file = dir.path() / "page.html";
  write_file_atomically(file.string(), "first");
  EXPECT_EQ(test::read_text(file), "first");
  write_file_atomically(file.string(), std::string(100000, 'x'));
  EXPECT_EQ(test::read_text(file), std::string(100000, 'x'));
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

}  // namespace
}  // namespace xb
