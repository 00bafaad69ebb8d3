#pragma once
// An IO engine: three operations on IO units, as fio's struct ioengine_ops (queue, commit,
// getevents): `queue` stages a unit, `submit` starts every staged unit, `reap` waits for completed
// ones. A C++ interface is that table of operations; the registry below is the one place that
// lists the engines, so a new engine is one file in engines/ plus one row in io_engine.cpp.
//
// Contract (the same for every engine, so the io job has one loop):
// - a unit comes back from `reap` only when all `length` bytes moved: engines resume short
//   transfers themselves and retry EINTR/EAGAIN;
// - any failure throws SystemError naming the call, the file and the offset (throw_io_error); a
//   read that meets the end of the file throws a runtime_error saying so (throw_end_of_file);
// - at most `queue_depth` units are in flight (queued, submitted, not yet reaped);
// - each unit's `slot` is unique among in-flight units and indexes the engine's buffer pool (the
//   registered buffer io_uring reads into), and `buffer` lies inside that slot's buffer.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace xb {

enum class IoOp { read, write };

struct IoUnit {
  std::byte* buffer = nullptr;
  std::size_t length = 0;
  std::uint32_t file = 0;    // index into IoEngineSetup::files
  std::uint64_t offset = 0;  // byte offset in that file
  IoOp op = IoOp::read;
  std::uint32_t slot = 0;    // index into IoEngineSetup::buffers
  std::size_t done = 0;      // bytes moved so far (engine bookkeeping for short transfers)
  std::uint64_t start_ns = 0;  // the io job's: when the unit was submitted
};

struct IoFile {
  int fd = -1;
  std::string path;  // for error messages
};

struct IoEngineOptions {
  unsigned queue_depth = 1;
  // io_uring only; each is tried and silently dropped when the kernel refuses (see features()).
  bool registered_buffers = true;  // IORING_REGISTER_BUFFERS: no page pinning per IO
  bool fixed_files = true;         // IORING_REGISTER_FILES: no fget/fput per IO
};

struct IoEngineSetup {
  std::span<const IoFile> files;               // not owned; outlive the engine
  std::span<const std::span<std::byte>> buffers;  // the buffer pool, one per slot; outlive the engine
  IoEngineOptions options;
};

class IoEngine {
 public:
  virtual ~IoEngine() = default;
  // Stages one unit; it is not started until submit(). The unit must stay alive until reaped.
  virtual void queue(IoUnit& unit) = 0;
  // Starts every staged unit.
  virtual void submit() = 0;
  // Waits until at least `min` units completed (min <= in flight), stores up to out.size() of them
  // in `out` and returns how many. min = 0 only collects what is already done.
  virtual std::size_t reap(std::size_t min, std::span<IoUnit*> out) = 0;
  // What the engine actually uses, for the result ("registered buffers, fixed files").
  virtual std::string features() const = 0;
};

struct IoEngineInfo {
  std::string_view name;
  std::string_view summary;
  // The deepest queue the engine can keep: 1 for synchronous engines (the io job clamps --qd and
  // records the effective depth), 0 for no limit of its own.
  unsigned max_queue_depth;
  // Throws Unavailable when the kernel lacks the interface (io_uring disabled, aio-max-nr reached).
  std::unique_ptr<IoEngine> (*make)(const IoEngineSetup& setup);
};

// "pread(/data/f0, offset 4096, 4096 bytes)": the subject of an engine's error messages.
std::string io_call(std::string_view call, const IoFile& file, const IoUnit& unit);
[[noreturn]] void throw_io_error(std::string_view call, const IoFile& file, const IoUnit& unit, int error_number);
[[noreturn]] void throw_end_of_file(std::string_view call, const IoFile& file, const IoUnit& unit);

std::span<const IoEngineInfo> io_engines();
const IoEngineInfo* find_io_engine(std::string_view name);
// "psync, libaio or io_uring", for error messages.
std::string io_engine_names();

// Where a run names no engine, the order to try them in: io_uring, libaio, then psync (pread and
// pwrite, which every kernel has). Written once for the survey and gdsio.
std::span<const std::string_view> io_engine_preference();
// The first engine of that order this kernel lets start: a one-deep instance without files or
// buffers is made, so only the kernel interface is probed; an Unavailable means the next one down.
std::string best_io_engine();

}  // namespace xb
