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

// "2026-11-29T19:49:33Z"
std::string utc_timestamp();

}  // namespace xb
