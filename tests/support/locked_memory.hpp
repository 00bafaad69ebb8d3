#pragma once
// How much memory this process has locked (VmLck in /proc/self/status), to check that pinned
// memory really is pinned. AddressSanitizer intercepts mlock/munlock as no-ops, so locking shows in
// VmLck only without it: kMlockLocks says whether this build can check.
#include <cstdint>
#include <fstream>
#include <string>

namespace xb::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kMlockLocks = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kMlockLocks = false;
#else
inline constexpr bool kMlockLocks = true;
#endif
#else
inline constexpr bool kMlockLocks = true;
#endif

inline std::uint64_t locked_bytes() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmLck:") {
      std::uint64_t kib = 0;
      in >> kib;
      return kib * 1024;
    }
    in.ignore(4096, '\n');
  }
  return 0;
}

}  // namespace xb::test
