#pragma once
// The state directory of the completion records (storage/manifest.hpp) set to a fresh temporary
// for one test ($XFERBENCH_STATE_DIR, which programs the test starts inherit too), put back after:
// a test sees only the records its own runs wrote, and leaves none in the user's state directory.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"

namespace xb::test {

class ScopedStateDir {
 public:
  ScopedStateDir() {
    if (const char* v = std::getenv("XFERBENCH_STATE_DIR")) old_ = v;
    setenv("XFERBENCH_STATE_DIR", dir_.path().c_str(), 1);
  }
  ~ScopedStateDir() {
    if (old_) {
      setenv("XFERBENCH_STATE_DIR", old_->c_str(), 1);
    } else {
      unsetenv("XFERBENCH_STATE_DIR");
    }
  }
  ScopedStateDir(const ScopedStateDir&) = delete;
  ScopedStateDir& operator=(const ScopedStateDir&) = delete;
  const std::filesystem::path& path() const { return dir_.path(); }
  // The records there, by file name (DEV-INO), sorted.
  std::vector<std::string> records() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir_.path() / "io-written", ec)) {
      out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  TempDir dir_;
  std::optional<std::string> old_;
};

}  // namespace xb::test
