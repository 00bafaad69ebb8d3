#pragma once
// Which links of a fleet are slow: below threshold x the fleet's median link, or below an absolute
// floor where the run has one (the expectation layers' "fleet" rule, so a uniformly slow fleet fails
// too). The median, because a validator looks for the odd cable out: a few bad links barely move it,
// and the spread of good links flags nothing at a threshold like 0.8. Then localisation: a rank whose
// every link is slow is named as the node at fault (one bad NIC is 2(N-1) slow links, not N-1 suspects).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace xb {

// Why a link is flagged, as a code and the figure it fell below, not words: 4096 ranks have 16.8M
// links, and the words are made only for the links a result lists (fleet_slow_why).
enum class FleetSlowBy : std::uint8_t { none, median, floor };

struct FleetLink {
  FleetLink() = default;
  FleetLink(int from_rank, int to_rank, double rate) : from(from_rank), to(to_rank), gbps(rate) {}
  int from = 0;
  int to = 0;
  double gbps = 0;                          // decimal GB/s
  float limit_gbps = 0;                     // flagged: the figure it fell below (threshold x median, or the floor)
  FleetSlowBy slow_by = FleetSlowBy::none;  // flagged: which rule
};

// A directed link as one number, for sets and sorted lookups at a fleet's scale. Ranks are never
// negative, so keys order as the (from, to) pairs do.
inline std::uint64_t fleet_link_key(int from, int to) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) | static_cast<std::uint32_t>(to);
}

// The order every list of links (a result's, a retest's) is kept in, so one is searched in another by halving.
inline bool fleet_link_order(const FleetLink& x, const FleetLink& y) {
  return fleet_link_key(x.from, x.to) < fleet_link_key(y.from, y.to);
}

// Gives each link of `shown` (sorted) that `again` measured a second time that figure: the matrix
// shows what the verdict decided by.
void fleet_show_again(std::vector<FleetLink>& shown, const std::vector<FleetLink>& again);

// "below 0.8 x the median link (9.6 GB/s)", "below the floor (20 GB/s)"; "" for a link not flagged.
std::string fleet_slow_why(const FleetLink& l, double threshold);

// The absolute floor of link (from, to) in decimal GB/s, or none (fleet-relative only).
using FleetFloorFn = std::function<std::optional<double>(int from, int to)>;
// The floors of every link: `gbps` where an absolute rule gives one; else `share` of the slower
// NIC of the link's two ends (a link runs no faster than either), given each rank's NIC ceiling in
// GB/s ("" where unknown: that link has no floor).
FleetFloorFn fleet_floor_of(std::optional<double> gbps, std::optional<double> share, std::vector<std::string> nic_gbps);

// A rank whose every measured link is slow: the node is named, with the evidence.
struct FleetNode {
  int rank = 0;
  std::size_t slow = 0, links = 0;  // its slow links, of its measured links (both directions)
  double median_gbps = 0;           // the median of its links
};

struct FleetVerdict {
  double median_gbps = 0;  // of every measured link
  double threshold = 0;    // the fraction of the median below which a link is flagged
  std::vector<FleetLink> flagged;  // in the order the links were given (confirmed, with confirm)
  std::vector<FleetLink> cleared;  // flagged at first, not when measured again
  std::vector<FleetNode> nodes;    // ranks whose every link is slow (localise_fleet)
  std::vector<FleetLink> links;    // the flagged links no named node explains
  bool every_link_slow = false;    // then no node is named: the fleet (or its floor) is off as a whole
  int retests = 0;                 // rounds of measuring suspects again
};

// Judges `links` (one per measured direction). threshold in [0, 1]; 0 flags nothing relative.
FleetVerdict judge_fleet_links(const std::vector<FleetLink>& links, double threshold, const FleetFloorFn& floor = {});

// The rule `l` breaks against `v`'s median and threshold or its floor (none: not slow), and through
// `limit` the figure it fell below.
FleetSlowBy fleet_link_slow(const FleetVerdict& v, const FleetLink& l, const FleetFloorFn& floor, float* limit = nullptr);

// Whether flagged link `l` is slow again by its figure in `again` (sorted), against `first`'s median
// and the floor; no second figure counts as slow again.
bool fleet_link_slow_again(const FleetVerdict& first, const FleetLink& l, const std::vector<FleetLink>& again,
                           const FleetFloorFn& floor);

// The verdict once the flagged links were measured again (`again`: one figure per link): a link stays
// flagged only when slow again (fleet_link_slow_again); the others move to `cleared` with their first figure.
FleetVerdict confirm_fleet_verdict(const FleetVerdict& first, const std::vector<FleetLink>& again,
                                   const FleetFloorFn& floor = {});

// Per rank: its measured links (both directions), the flagged ones among them, and its partners (the
// distinct pairs it is in); links naming a rank outside 0..ranks-1 are skipped.
struct FleetRankTally {
  std::vector<std::size_t> links, slow, partners;
  // Every link of rank `r` flagged, measured against 2 partners or more (with one, either end may be
  // at fault): the rank, not its links, looks at fault.
  bool every_link_slow(int r) const;
};
FleetRankTally fleet_rank_tally(int ranks, const std::vector<FleetLink>& measured, const std::vector<FleetLink>& flagged);

// Fills v.nodes (each rank FleetRankTally::every_link_slow names; none when every rank is so:
// every_link_slow) and v.links. Time O(links log links), memory O(ranks + flagged): thousands of
// ranks are localised in one pass.
void localise_fleet(FleetVerdict& v, int ranks, const std::vector<FleetLink>& measured);

}  // namespace xb
