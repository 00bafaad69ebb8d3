#pragma once
// What the io job is asked to do, fully resolved: every default already applied.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace xb {

enum class IoPattern { read, write, randread, randwrite };

struct IoPlan {
  std::filesystem::path directory;  // -D: one file per thread (exactly one of directory, file)
  std::filesystem::path file;       // -f: one file, thread t owns region t
  unsigned threads = 1;
  IoPattern pattern = IoPattern::read;
  std::uint64_t file_bytes = 1u << 30;  // -s: bytes per thread (rounded down to whole IOs when run)
  std::uint64_t io_bytes = 1u << 20;    // -i
  std::string engine = "psync";
  unsigned queue_depth = 1;
  bool buffered = false;   // default O_DIRECT
  bool verify = false;     // read runs: check every byte against the pattern
  bool keep = false;       // a write run that fails keeps the files it created (default: removes them)
  std::uint64_t seconds = 0;  // -T: 0 = one pass over the size; otherwise loop passes until time is up
  std::uint64_t seed = 0x78666572;  // the pattern's seed; file i uses seed + i
};

std::string_view to_string(IoPattern p);
std::optional<IoPattern> io_pattern_from(std::string_view name);
inline bool is_write(IoPattern p) { return p == IoPattern::write || p == IoPattern::randwrite; }
inline bool is_random(IoPattern p) { return p == IoPattern::randread || p == IoPattern::randwrite; }

}  // namespace xb
