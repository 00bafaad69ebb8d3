#pragma once
// The fleet's absolute floor from the expectation layers, for the fleet job's
// plan: the rule that decides "fleet" bandwidth at the plan's size — an absolute figure, or a share
// of each link's ceiling (the narrower of its two ends' NICs) — times the rule's fail_below (the
// fleet flags what a verdict would FAIL). And this rank's NIC: the interface holding the address
// it announces, with that interface's ceiling.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "judge/expectations.hpp"
#include "judge/nic_ceiling.hpp"

namespace xb {

struct FleetFloorTerms {
  std::optional<double> gbps;   // every link's floor, decimal GB/s
  std::optional<double> share;  // else this share of each link's ceiling
  std::string rule;             // "fleet bandwidth ≥ 0.85 × ceiling, blocks ≥ 4M (built-in: …), FAIL below 0.8"
};

// No rule for "fleet" at `size`: no floor (both null, rule "").
FleetFloorTerms fleet_floor(const ExpectationLayers& layers, std::uint64_t size, const std::string& server);

// The NIC holding `address` (this rank's), its ceiling; an address on no interface: unknown, said so.
NicCeiling nic_holding(const std::filesystem::path& sysfs, const std::string& address);

}  // namespace xb
