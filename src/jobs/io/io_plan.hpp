#pragma once
// What the io job is asked to do, fully resolved: every default already applied.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace xb {

enum class IoPattern { read, write, randread, randwrite };

// Where the data of an IO lives (gdsio's transfer types):
// - cpu: a host buffer (gdsio's CPUONLY), the file IO alone;
// - cpu_gpu: device memory through a pinned host bounce buffer (CPU_GPU): a read lands in the bounce
//   buffer and is copied on into device memory by a device stream, overlapping the next IOs; a
//   write's data is copied out of device memory into the bounce buffer, then written;
// - gpu_direct: straight between the file and device memory (GPUD, cuFile), where a backend has it.
enum class IoTransfer { cpu, cpu_gpu, gpu_direct };

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
  IoTransfer transfer = IoTransfer::cpu;
  int device = 0;  // the device whose memory cpu_gpu and gpu_direct move data to and from
};

std::string_view to_string(IoPattern p);
std::optional<IoPattern> io_pattern_from(std::string_view name);
std::string_view to_string(IoTransfer t);  // "cpu", "cpu-gpu", "gpu-direct" (the --xfer values)
std::optional<IoTransfer> io_transfer_from(std::string_view name);
inline bool is_write(IoPattern p) { return p == IoPattern::write || p == IoPattern::randwrite; }
inline bool is_random(IoPattern p) { return p == IoPattern::randread || p == IoPattern::randwrite; }

}  // namespace xb
