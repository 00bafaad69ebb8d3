#include "support/temp_dir.hpp"

#include <stdlib.h>

#include <algorithm>
#include <stdexcept>

namespace xb::test {

TempDir::TempDir() {
  std::string templ = "/var/tmp/xferbench-test.XXXXXX";
  if (mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp(" + templ + ") failed");
  path_ = templ;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<std::string> TempDir::entries() const {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(path_)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> TempDir::tree() const {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::recursive_directory_iterator(path_)) {
    names.push_back(std::filesystem::relative(e.path(), path_).string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace xb::test
