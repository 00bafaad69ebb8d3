#pragma once
// What the copy job is asked to do, fully resolved: every default already applied.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "memory/host_buffer.hpp"

namespace xb {

enum class CopyDirection { h2d, d2h, d2d, h2h };

// per_device (GQA): every device has its own host buffer. shared (MLA): one POSIX shared-memory
// host buffer, created once and fanned out to every device's process.
enum class CopyTopology { per_device, shared };

struct CopyPlan {
  std::string backend;  // "" = the preferred backend (an accelerator if one is present, else cpu)
  CopyDirection direction = CopyDirection::h2d;
  HostMemoryKind host_kind = HostMemoryKind::pinned;  // the host side (shared topology: always shm)
  CopyTopology topology = CopyTopology::per_device;
  std::string engine;  // "" = the backend's default engine
  bool batch = false;  // each stream's blocks in one batch submission (dev-sandbox --sdma true)
  int streams = 4;
  std::uint64_t block_bytes = 4u << 20;
  std::uint64_t blocks = 16;
  std::uint64_t iterations = 32;
  std::uint64_t warmup = 4;
  int devices = 1;
  int first_device = 0;  // the ranks use devices first_device .. first_device + devices - 1 (ascend-dmi -d)
  std::uint64_t fragments = 0;  // 0 or 1: each block is one copy; f > 1: f copies per block
  bool verify = false;
  std::filesystem::path odirect_dir = "/var/tmp";  // where O_DIRECT backing files are made
  std::uint64_t seed = 0x78666572;                   // the verification pattern's seed
};

std::string_view to_string(CopyDirection d);
std::string_view to_string(CopyTopology t);

}  // namespace xb
