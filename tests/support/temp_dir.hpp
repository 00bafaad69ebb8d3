#pragma once
// A fresh directory under /var/tmp (a real file system, so O_DIRECT works), removed with its
// content when the test ends; and what is in it, for "nothing created" and layout checks.
#include <filesystem>
#include <string>
#include <vector>

namespace xb::test {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Names of the entries directly in the directory, sorted.
  std::vector<std::string> entries() const;
  // Every entry below the directory, as paths relative to it, sorted ("ab", "ab/cd", "ab/cd/abcd…").
  std::vector<std::string> tree() const;

 private:
  std::filesystem::path path_;
};

}  // namespace xb::test
