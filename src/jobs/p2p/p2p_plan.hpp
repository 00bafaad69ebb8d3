#pragma once
// What a p2p run measures within one node: device i -> device j by the backend's peer copy, one way
// and both ways at once (both directions counted), for one pair or every ordered pair (a matrix).
// Parsed by `xferbench p2p` and the ascend-dmi dialect; validate_p2p_plan checks it before anything
// is opened or allocated.
#include <cstdint>
#include <string>
#include <vector>

#include "backends/device.hpp"

namespace xb {

struct P2pPair {
  int src = 0;
  int dst = 1;
};

struct P2pPlan {
  std::uint64_t size = std::uint64_t{512} << 20;  // bytes per execution and direction (ascend-dmi -s)
  std::uint64_t executions = 40;                  // timed executions per case (ascend-dmi --et)
  std::uint64_t warmup = 1;                       // untimed executions first, per case
  bool unidirectional = true;
  bool bidirectional = false;
  // One pair (pairs.size() == 1), or, with all_pairs, every ordered pair of devices 0..devices-1.
  std::vector<P2pPair> pairs{P2pPair{}};
  bool all_pairs = false;
  int devices = 0;        // all_pairs: how many devices (0: every device of the backend)
  std::string engine;     // "" = the backend's default copy engine
  bool verify = false;    // pattern in the source, checked in the destination after the run
  // The pair's devices are on two ranks (nodes): one index names two devices, so src == dst is fine.
  bool across_nodes = false;
  // ascend-dmi -m card (Ascend's two-die cards): the pair names cards, card C being devices
  // C*card_dies .. C*card_dies+card_dies-1, every die moving to its counterpart at once; an execution
  // lasts until its slowest die is done and moves card_dies x size a direction. 0: devices.
  int card_dies = 0;
  std::uint64_t seed = 0x70327032;  // the verification pattern's seed (+ the source device index)
};

// The limits of the seed (ascend-dmi: -s from 1 byte to 4 GB, --et from 1 to 100000000).
inline constexpr std::uint64_t kP2pMaxSize = std::uint64_t{4} << 30;
inline constexpr std::uint64_t kP2pMaxExecutions = 100'000'000;
inline constexpr int kP2pMaxDevices = 1024;
// The largest all-pairs matrix: 128 devices are 16256 ordered pairs, each a case with its samples
// (about 130 MB of results at the default 40 executions); 1000 devices would be a million cases
// and gigabytes before the first figure is printed. Larger fleets are the fleet job's (rounds).
inline constexpr int kP2pMaxMatrixDevices = 128;
// Card mode keeps every die's every execution time to take the slowest per execution.
inline constexpr std::uint64_t kP2pCardMaxExecutions = 100'000;

// PlanError naming the field and the rule (sizes and counts out of range, a device the backend does
// not have, a device paired with itself, an unknown engine); MachineLimit: more memory than here.
void validate_p2p_plan(const P2pPlan& plan, Backend& backend);

// The device count of an all-pairs plan on `backend` (plan.devices, or every device it has).
int p2p_device_count(const P2pPlan& plan, const Backend& backend);

}  // namespace xb
