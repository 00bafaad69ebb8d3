#pragma once
// The configuration of an io case, typed: the io job writes its result's `config` from it and the
// gdsio dialect reads it back (`case.config.get<IoConfig>()`), so the keys are spelled once, here.
// Strings are the job's words (rw "randread", transfer "cpu-gpu"); sizes bytes.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json_record.hpp"

namespace xb {

// How a device transfer type moved the data (absent fields for --xfer cpu).
struct IoDeviceConfig {
  std::string backend, device_name;
  int device = 0;
  // The direct path (GPUD): its name and mode ("GDS", "compat: …"), and whether buffers were
  // registered; otherwise the bounce buffers each thread had.
  std::optional<std::string> direct_storage, direct_storage_mode;
  std::optional<bool> registered_buffers;
  std::optional<std::uint64_t> bounce_buffers_per_thread;
};

struct IoConfig {
  std::string directory, file;  // exactly one is set
  std::vector<std::string> files;
  unsigned threads = 1;
  std::string rw;
  std::uint64_t size_per_thread_requested = 0, size_per_thread = 0, data_set_requested = 0;
  bool shared_size = false;
  std::uint64_t offset = 0, io_size = 0, io_size_min = 0, io_size_step = 0, random_alignment = 0;
  std::string engine, engine_features;
  unsigned queue_depth_requested = 0, queue_depth = 0;
  bool direct = true;
  std::uint64_t direct_alignment = 0;
  bool verify = false;
  std::uint64_t seconds = 0, seed = 0;
  // Written as null when unset (the keys have always been there).
  OrNull<std::uint64_t> order_seed{};
  OrNull<unsigned> read_percent{};
  OrNull<int> numa_node{};
  std::string buffers;  // where the data lived, in words
  std::string transfer = "cpu";
  Beside<IoDeviceConfig> device{};

  // Sizes were drawn from a range (io_size_min below io_size): lines show the mean size moved.
  bool sizes_drawn() const { return io_size_min != io_size; }
};

XB_JSON_RECORD(IoDeviceConfig, backend, device, device_name, direct_storage, direct_storage_mode, registered_buffers,
               bounce_buffers_per_thread)
XB_JSON_RECORD(IoConfig, directory, file, files, threads, rw, size_per_thread_requested, size_per_thread,
               data_set_requested, shared_size, offset, io_size, engine, engine_features, queue_depth_requested,
               queue_depth, direct, direct_alignment, verify, seconds, seed, io_size_min, io_size_step,
               random_alignment, buffers, transfer, order_seed, read_percent, numa_node, device)

}  // namespace xb
