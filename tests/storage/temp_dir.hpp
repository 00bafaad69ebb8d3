#pragma once
// A fresh directory under /var/tmp (a real file system, so O_DIRECT works), removed with its content.
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
  // Names of the entries in the directory, sorted.
  std::vector<std::string> entries() const;

 private:
  std::filesystem::path path_;
};

}  // namespace xb::test
