#pragma once
// Where one io thread's data lives and how it gets there (gdsio's transfer types): host buffers
// (CPUONLY), pinned bounce buffers before device memory (CPU_GPU), or device memory the direct
// storage path moves (GPUD, cuFile). The io job's loop is the same for all: it takes the path's
// buffers and engine and calls it where the types differ. A new type is one class and one line.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "backends/device.hpp"
#include "jobs/io/io_plan.hpp"
#include "storage/io_engine.hpp"

namespace xb {

class IoDataPath {
 public:
  virtual ~IoDataPath() = default;
  // The buffers the engine reads into and writes from; IoUnit::slot indexes them, one unit each.
  virtual std::span<const std::span<std::byte>> slots() const = 0;
  // The engine between the thread's file (setup.files[0]) and the slots: the plan's on host buffers,
  // the device's direct storage on device memory.
  virtual std::unique_ptr<IoEngine> make_engine(const IoEngineSetup& setup) = 0;
  // Before the unit's slot is used again, and once per unit at the end: what the path started on it
  // is done, and a read it carried is checked when verifying.
  virtual void settle(const IoUnit& unit) = 0;
  // Before a write: the slot holds the pattern of the unit's file and offset, for a later read to verify.
  virtual void prepare_write(IoUnit& unit) = 0;
  virtual void read_done(const IoUnit& unit) = 0;  // a read completed into the slot
};

struct IoDataPathSetup {
  const IoPlan& plan;
  const IoEngineInfo& engine;  // the plan's engine (not used by GPUD)
  unsigned depth = 1;          // IOs in flight at most
  IoFile file;                 // the thread's file, for messages
  std::uint64_t seed = 0;      // the pattern of that file
  Device* device = nullptr;    // CPU_GPU and GPUD
  std::string_view stream_engine;  // the device's copy engine for its streams (CPU_GPU and GPUD)
  DirectStorage* direct = nullptr;  // GPUD
};

// Bounce buffers per thread for CPU_GPU: twice the queue depth, so while one set's device copies
// run the other set's IOs are in flight (at depth 1, gdsio's default, one IO overlaps one copy).
inline constexpr unsigned kBounceSetsPerDepth = 2;

std::unique_ptr<IoDataPath> make_io_data_path(const IoDataPathSetup& setup);

// For a data path's destructor: a thread that stopped on an error may leave copies queued, which must
// finish before their memory goes (the cpu stream would anyway; a GPU stream's destruction does not
// wait). Already failing then: a copy error is not the one to report.
inline void drain(Stream& stream) noexcept {
  try {
    stream.synchronize();
  } catch (...) {
  }
}

// GPUD's data path (direct_data_path.cpp; the other two are io_data_path.cpp's).
std::unique_ptr<IoDataPath> make_direct_data_path(const IoDataPathSetup& setup);

// Throws "verify failed: FILE byte at offset N is 0x.., expected 0x.. (in the B-byte IO at offset
// O WHERE)" unless `data`, read at `offset` of `file`, holds the pattern of `seed`.
void verify_io_data(std::span<const std::byte> data, std::uint64_t offset, const IoFile& file, std::uint64_t seed,
                    std::string_view where);

}  // namespace xb
