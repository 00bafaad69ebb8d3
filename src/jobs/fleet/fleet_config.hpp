#pragma once
// The configuration of the fleet's matrix case, typed: the fleet job writes it and `xferbench fleet`
// reads the flagged links back (`case.config.get<FleetMatrixConfig>()`), so the keys are spelled
// once, here. A fleet's link cases are p2p cases (P2pConfig, scope "fleet").
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
  std::string why;       // "below 0.8 x the median link (9.6 GB/s)", "below the floor (20 GB/s)"
};

// A rank named as the node at fault: every one of its links slow.
struct FleetNamedNode {
  int rank = 0;
  std::string name;  // the rank's name (rank and address)
  std::size_t slow = 0, links = 0;
  double median = 0;  // GB/s, the median of its links
};

// One rank as it described itself: host name, the address it serves on, its device, its NIC's
// ceiling in words (how that rank derived it).
struct FleetRankInfo {
  std::string host, address, device, nic;
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
  // The nodes named, the flagged links no named node explains, whether every link was slow (then no
  // node is named), the floor's rule ("" none), the rounds of measuring again.
  std::vector<FleetNamedNode> nodes;
  std::vector<FleetListedLink> links_named;
  bool every_link_slow = false;
  std::string floor_rule;
  int retests = 0;
  std::vector<FleetRankInfo> rank_info;  // by rank
  std::string schedule = "round-robin";  // which pairs met: round-robin, quick, rounds, topology
  // Why there is no "matrix" ("" when there is one): above the plan's matrix_max_ranks it is left
  // out with the cases of links neither flagged nor cleared (4096 ranks are 16.8M cells, 80 MB of
  // JSON even when a quick schedule measured 4096 of them).
  std::string matrix_left_out;
};

// The most ranks whose matrix a result carries (256: 65,280 cells, about 1 MB of JSON).
inline constexpr int kFleetMatrixMaxRanks = 256;

// Keys are the field names (a missing key throws nlohmann's out_of_range naming it).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FleetListedLink, from_rank, to_rank, from, to, bandwidth, of_median, why)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FleetNamedNode, rank, name, slow, links, median)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FleetRankInfo, host, address, device, nic)
// Read with defaults: older results have no nodes, links_named, every_link_slow, floor_rule or retests.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FleetMatrixConfig, ranks, size, executions, warmup, max_pairs, threshold,
                                                transport, device, confirm, matrix, flagged, cleared, nodes, links_named,
                                                every_link_slow, floor_rule, retests, rank_info, schedule,
                                                matrix_left_out)

}  // namespace xb
