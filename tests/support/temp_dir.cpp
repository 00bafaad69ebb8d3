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
  // A run may still be making and removing entries while this lists them (a test polls a live
  // run's directory): names are taken lexically (no lookup of a file that just went), and a
  // directory that vanished under the iterator restarts the listing.
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  for (int attempt = 0; attempt < 100; ++attempt) {
    names.clear();
    std::error_code ec;
    for (fs::recursive_directory_iterator it(path_, ec), end; !ec && it != end; it.increment(ec)) {
      names.push_back(it->path().lexically_relative(path_).string());
    }
    if (!ec) break;
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace xb::test
