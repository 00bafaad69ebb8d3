#pragma once
// A tmpfs mounted on a fresh directory under /var/tmp for one test (RAII: unmounted and the
// directory removed by the destructor, also when the test fails). Needs root (CAP_SYS_ADMIN):
// `available()` is false, with the reason in `why()`, when the mount is refused.
#include <filesystem>
#include <string>

namespace xb::test {

class TmpfsMount {
 public:
  // `options`: tmpfs's, e.g. "size=8m"; `read_only`: MS_RDONLY (root ignores permission bits, not this).
  explicit TmpfsMount(const std::string& options, bool read_only = false);
  ~TmpfsMount();
  TmpfsMount(const TmpfsMount&) = delete;
  TmpfsMount& operator=(const TmpfsMount&) = delete;

  bool available() const { return mounted_; }
  const std::string& why() const { return why_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  bool mounted_ = false;
  std::string why_;
};

}  // namespace xb::test
