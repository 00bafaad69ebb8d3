#pragma once
// Which links of a fleet are slow: those below a fraction (the threshold) of the fleet's median
// link. The median, not the mean or the best link, because a fleet validator looks for the odd
// cable out: one bad link (or a few) barely moves the median, and the spread of good links does
// not flag anything at a threshold like 0.8.
#include <vector>

namespace xb {

struct FleetLink {
  int from = 0;
  int to = 0;
  double gbps = 0;  // the link's bandwidth, decimal GB/s
};

struct FleetVerdict {
  double median_gbps = 0;  // of every measured link
  double threshold = 0;    // the fraction of the median below which a link is flagged
  std::vector<FleetLink> flagged;  // in the order the links were given
  std::vector<FleetLink> cleared;  // flagged at first, not when measured again (confirm_fleet_verdict)
};

// Judges `links` (one per measured direction). threshold in [0, 1]; 0 flags nothing.
FleetVerdict judge_fleet_links(const std::vector<FleetLink>& links, double threshold);

// The verdict after the flagged links were measured again (`again`: one figure per re-measured
// link): a link stays flagged only when its second figure is below threshold x the first
// median too (or when it has none); the others move to `cleared`, with their first figure.
FleetVerdict confirm_fleet_verdict(const FleetVerdict& first, const std::vector<FleetLink>& again);

}  // namespace xb
