#pragma once
// The configuration of the fleet's matrix case, typed: the fleet job writes it and `xferbench fleet`
// reads the flagged links back from it (`case.config.get<FleetMatrixConfig>()`), so the keys are
// spelled once, here (issue 16, item 7). A fleet's link cases are p2p cases (P2pConfig, scope
// "fleet").
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace xb {

// A link the verdict names: flagged slow, or cleared when measured again alone.
struct FleetListedLink {
  int from_rank = 0, to_rank = 0;
  std::string from, to;  // the ranks' names (rank and address)
  double bandwidth = 0;  // GB/s at the median execution
  double of_median = 0;  // bandwidth / the median link's
};

struct FleetMatrixConfig {
  int ranks = 0;
  std::uint64_t size = 0, executions = 0, warmup = 0, max_pairs = 0;
  double threshold = 0;
  std::string transport;
  int device = 0;
  bool confirm = false;
  nlohmann::json matrix;  // core/matrix.hpp's JSON
  std::vector<FleetListedLink> flagged, cleared;
};

// Their keys are their field names: nlohmann's macro writes both directions (a missing key throws
// nlohmann's out_of_range naming it).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FleetListedLink, from_rank, to_rank, from, to, bandwidth, of_median)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FleetMatrixConfig, ranks, size, executions, warmup, max_pairs, threshold,
                                   transport, device, confirm, matrix, flagged, cleared)

}  // namespace xb
