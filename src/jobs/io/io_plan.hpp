#pragma once
// What the io job is asked to do, fully resolved: every default already applied.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace xb {

enum class IoPattern { read, write, randread, randwrite };

// Where an IO's data lives and how it gets there (gdsio's -x types, in its order): cpu a host buffer
// (CPUONLY); cpu_gpu device memory through a pinned bounce buffer, each read copied on before the
// thread's next IO and each write copied out of device memory first (CPU_GPU); cpu_async_gpu that
// read copy queued on a stream, overlapping the next IOs (CPU_ASYNC_GPU); cpu_cached_gpu through the
// page cache (CPU_CACHED_GPU); gpu_direct straight between file and device memory (GPUD, cuFile); and
// cuFile's stream, batch and batch-on-stream APIs (GPU_ASYNC, GPU_BATCH, GPU_BATCH_STREAM).
enum class IoTransfer {
  cpu,
  cpu_gpu,
  cpu_async_gpu,
  cpu_cached_gpu,
  gpu_direct,
  gpu_direct_async,
  gpu_batch,
  gpu_batch_stream
};
inline constexpr IoTransfer kIoTransfers[] = {IoTransfer::cpu,           IoTransfer::cpu_gpu,
                                              IoTransfer::cpu_async_gpu, IoTransfer::cpu_cached_gpu,
                                              IoTransfer::gpu_direct,    IoTransfer::gpu_direct_async,
                                              IoTransfer::gpu_batch,     IoTransfer::gpu_batch_stream};
// Whether the data lives in device memory (all but cpu); whether the direct storage path moves it.
inline bool uses_device(IoTransfer t) { return t != IoTransfer::cpu; }
inline bool is_direct(IoTransfer t) {
  return t == IoTransfer::gpu_direct || t == IoTransfer::gpu_direct_async || t == IoTransfer::gpu_batch ||
         t == IoTransfer::gpu_batch_stream;
}
inline bool is_bounce(IoTransfer t) { return uses_device(t) && !is_direct(t); }

struct IoPlan {
  std::filesystem::path directory;  // -D: one file per thread (exactly one of directory, file)
  std::filesystem::path file{};     // -f: one file, thread t owns region t
  unsigned threads = 1;
  IoPattern pattern = IoPattern::read;
  std::uint64_t file_bytes = 1u << 30;  // -s: bytes per thread (rounded down to whole IOs when run)
  bool shared_size = false;  // -f only: file_bytes is all threads' data set, in equal shares (gdsio's rule)
  std::uint64_t offset = 0;  // -o: where the regions start in every file
  std::string name_prefix = "xferbench-io";  // -D's files: PREFIX.0 ... PREFIX.N-1
  std::uint64_t io_bytes = 1u << 20;    // -i: the IO size (the largest, when sizes are drawn)
  // Sizes drawn per IO (gdsio's -i MIN:MAX:STEP): min + k x step up to io_bytes; 0: every IO is io_bytes.
  std::uint64_t io_min_bytes = 0, io_step_bytes = 0;
  // Random patterns: each IO's offset drawn on its own, a multiple of this (1: any byte; gdsio's -a
  // and -U), instead of the permutation in which every block comes once per pass (0, the default).
  std::uint64_t random_alignment = 0;
  // A mixed run (gdsio's -M): this percentage of the IOs read, the others write, drawn per IO.
  std::optional<unsigned> read_percent{};
  std::optional<int> numa_node{};  // threads and buffers bound to this NUMA node (gdsio's -n)
  std::string engine = "psync";  // the native io command's default too (fio's): one IO at a time
  unsigned queue_depth = 1;
  bool buffered = false;   // default O_DIRECT
  bool verify = false;     // read runs: check every byte against the pattern
  // The read-back of a write this process just finished (gdsio's -V after a write): verified without
  // the completion record, which a write of independent random offsets (-a, -U) does not leave.
  bool verify_readback = false;
  bool keep = false;       // a write run that fails keeps the files it created (default: removes them)
  std::uint64_t seconds = 0;  // -T: 0 = one pass over the size; otherwise loop passes until time is up
  std::uint64_t seed = 0x78666572;  // the pattern's seed; file i uses seed + i
  // gdsio's -k: the seed of the blocks' random order (the same offsets again); unset: the pattern's.
  std::optional<std::uint64_t> order_seed{};
  IoTransfer transfer = IoTransfer::cpu;
  int device = 0;  // the device whose memory the device transfer types move data to and from
  bool register_buffers = true;  // direct types: register device buffers with the direct path (gdsio -b: no)
};

std::string_view to_string(IoPattern p);
std::optional<IoPattern> io_pattern_from(std::string_view name);
std::string_view to_string(IoTransfer t);  // "cpu", "cpu-gpu", ..., "gpu-batch-stream" (the --xfer values)
std::optional<IoTransfer> io_transfer_from(std::string_view name);
inline bool is_write(IoPattern p) { return p == IoPattern::write || p == IoPattern::randwrite; }
inline bool is_random(IoPattern p) { return p == IoPattern::randread || p == IoPattern::randwrite; }

}  // namespace xb
