#pragma once
// Host memory's theoretical ceiling from the firmware's tables: SMBIOS type 17
// ("Memory Device") lists each memory slot with its module's type, data width and speeds. The
// kernel hands the raw table to root at /sys/firmware/dmi/tables/DMI; read directly (not through
// dmidecode) because the few fields needed are fixed offsets in a documented layout (the DMTF's
// SMBIOS specification, DSP0134), and a tool to install and parse the text of would be more code.
//
// What the table cannot say: which modules share a channel (two DIMMs per channel add capacity,
// not bandwidth) and which NUMA node a module serves. The ceiling takes each module as its own
// channel, an upper bound, and is the whole machine's; the derivation says both.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "judge/ceiling.hpp"

namespace xb {

// One populated slot of SMBIOS type 17. Speeds in MT/s (0: the table does not say); the data width
// in bits without ECC (0: unknown).
struct MemoryModule {
  std::string locator;       // "DIMM_A1"
  std::string bank;          // "P0 CHANNEL A"
  std::string type;          // "DDR5", "DDR4", "HBM3"; "type 0x.." for a code not listed
  std::uint64_t size_bytes = 0;  // 0: installed, its size not said
  unsigned data_width_bits = 0;
  unsigned speed_mts = 0;             // rated: what the module can do
  unsigned configured_speed_mts = 0;  // as set by the firmware: what it runs at (SMBIOS 2.7 on)
};

struct MemoryModules {
  std::vector<MemoryModule> modules;  // populated slots only; empty slots and persistent memory left out
  std::string problem;                // "" or why the table was read only in part ("structure at byte 96 runs past the table's end")
};

// The type 17 structures of a raw SMBIOS structure table (the DMI file's bytes).
MemoryModules smbios_memory_modules(std::string_view table);

// The bandwidth of the modules: Σ configured speed × data width, each module its own channel
// (capable: at their rated speeds). Unknown where there are none or one lacks a speed or width;
// a warning per module set below its rating ("DIMM_A1 (P0 CHANNEL A) runs at 2933 MT/s of its
// rated 3200"), as a PCIe link trained low is.
Ceiling memory_bandwidth_ceiling(const MemoryModules& m, const std::string& where);

// The machine's memory bandwidth from `sysfs`/firmware/dmi/tables/DMI; unknown, said so, where
// there is no table (most VMs) or it cannot be read (it is root's alone).
Ceiling host_memory_ceiling(const std::filesystem::path& sysfs);

// What a copy within host memory can reach: each byte crosses the memory bus twice (read, then
// written), so half the memory's bandwidth (a cached write's read for ownership makes it a third:
// the expectation's share leaves that room).
Ceiling host_copy_ceiling(const Ceiling& memory);

}  // namespace xb
