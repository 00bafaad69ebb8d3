// The token file (transport/token_file.hpp): trusted only as OpenSSH trusts a private key, read as
// its first line; and $XFERBENCH_TOKEN_FILE as the environment's second way to give a token.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "support/temp_dir.hpp"
#include "transport/session.hpp"
#include "transport/token_file.hpp"

namespace xb {
namespace {

std::string write_file(const std::filesystem::path& path, const std::string& text, mode_t mode) {
  std::ofstream(path) << text;
  ::chmod(path.c_str(), mode);
  return path.string();
}

std::string refusal(const std::string& path) {
  try {
    read_token_file(path, "--token-file");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(TokenFile, TheFirstLineOfAPrivateFileIsTheToken) {
  test::TempDir dir;
  EXPECT_EQ(read_token_file(write_file(dir.path() / "t", "s3cret-token\nsecond line\n", 0600), "--token-file"),
            "s3cret-token");
  EXPECT_EQ(read_token_file(write_file(dir.path() / "u", "no-newline", 0400), "--token-file"), "no-newline");
}

TEST(TokenFile, AnythingLessThanAPrivateRegularFileOfThisUserIsRefused) {
  test::TempDir dir;
  const std::string open_to_group = write_file(dir.path() / "g", "t\n", 0640);
  EXPECT_EQ(refusal(open_to_group), "--token-file " + open_to_group + ": mode 0640, open to others (chmod 600 it)");
  const std::string open_to_all = write_file(dir.path() / "a", "t\n", 0604);
  EXPECT_NE(refusal(open_to_all).find("mode 0604"), std::string::npos);
  const std::string good = write_file(dir.path() / "good", "t\n", 0600);
  const std::string link = (dir.path() / "link").string();
  std::filesystem::create_symlink(good, link);
  EXPECT_NE(refusal(link).find("a symbolic link"), std::string::npos) << refusal(link);
  EXPECT_NE(refusal(dir.path().string()).find("not a regular file"), std::string::npos);
  EXPECT_NE(refusal((dir.path() / "missing").string()).find("No such file"), std::string::npos);
  EXPECT_NE(refusal(write_file(dir.path() / "e", "\n", 0600)).find("empty"), std::string::npos);
  EXPECT_NE(refusal(write_file(dir.path() / "l", std::string(1025, 'x'), 0600)).find("more than 1024 bytes"),
            std::string::npos);
  if (::geteuid() == 0) {  // root can hand a file to another user
    const std::string theirs = write_file(dir.path() / "theirs", "t\n", 0600);
    ASSERT_EQ(::chown(theirs.c_str(), 65534, 65534), 0);
    EXPECT_NE(refusal(theirs).find("owned by uid 65534"), std::string::npos) << refusal(theirs);
  }
}

TEST(TokenFile, TheEnvironmentNamesAFileWhenItGivesNoToken) {
  test::TempDir dir;
  const char* saved = std::getenv("XFERBENCH_TOKEN");
  const std::string keep = saved ? saved : "";
  ::unsetenv("XFERBENCH_TOKEN");
  ::setenv("XFERBENCH_TOKEN_FILE", write_file(dir.path() / "t", "from-a-file\n", 0600).c_str(), 1);
  EXPECT_EQ(default_session_token(), "from-a-file");
  EXPECT_EQ(given_session_token(""), "from-a-file");
  EXPECT_EQ(given_session_token("flag"), "flag");
  ::setenv("XFERBENCH_TOKEN", "from-env", 1);  // the variable itself comes first
  EXPECT_EQ(default_session_token(), "from-env");
  ::unsetenv("XFERBENCH_TOKEN");
  ::setenv("XFERBENCH_TOKEN_FILE", write_file(dir.path() / "open", "x\n", 0644).c_str(), 1);
  EXPECT_THROW(default_session_token(), UsageError);
  ::unsetenv("XFERBENCH_TOKEN_FILE");
  EXPECT_EQ(default_session_token(), "xferbench-default-token");
  if (saved) ::setenv("XFERBENCH_TOKEN", keep.c_str(), 1);
}

}  // namespace
}  // namespace xb
