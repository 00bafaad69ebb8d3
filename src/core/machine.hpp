#pragma once
// What machine a result was taken on, and how much memory a run may still have.
#include <cstdint>
#include <string>

#include "core/result.hpp"

namespace xb {

MachineInfo collect_machine_info();

// This machine's host name (gethostname), "localhost" where it has none: what names a node in
// results and in ascend-dmi's Pod lines.
std::string host_name();

// MemAvailable from /proc/meminfo: what a run can allocate without swapping or the OOM killer.
std::uint64_t available_memory_bytes();

// The rule every job applies before it allocates (copy, p2p, io, kv, link, xfer): a run may plan
// to take at most 90% of the memory available; the rest is the system's (page cache, the other
// processes, the allocator's own overhead). `need` and `available` in bytes.
inline constexpr double kUsableMemoryShare = 0.9;
inline bool fits_in_memory(double need, double available) { return need <= kUsableMemoryShare * available; }

// "2026-11-29T19:49:33Z"
std::string utc_timestamp();

}  // namespace xb
