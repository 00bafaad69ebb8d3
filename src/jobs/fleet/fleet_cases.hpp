#pragma once
// The fleet job's results, built from figures already measured: a link's case, the matrix case and
// the confirmation figure a re-measured link carries. Pure, so a unit test checks every fleet metric
// against known values without starting ranks.
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "jobs/fleet/fleet_config.hpp"
#include "jobs/fleet/fleet_job.hpp"
#include "jobs/fleet/fleet_verdict.hpp"
#include "jobs/p2p/p2p_metrics.hpp"

namespace xb {

// What every rank tells rank 0 of itself.
using FleetRank = FleetRankInfo;

// A rank's name in the matrix and the labels: "rank 2 (node-c 10.98.0.3)", "rank 2 (10.98.0.3)" where
// the host is unknown. The address stays: host names repeat (containers, namespaces) and the address
// says which NIC a cable joins.
std::string fleet_rank_name(int rank, const FleetRank& who);

// A link case's (from rank, to rank), from its config.
std::pair<int, int> fleet_link_of(const CaseResult& link);

// The bandwidth a link is judged by: its bandwidth_p50 (0 when it has none).
double fleet_link_gbps(const CaseResult& link);

// One link measured at its source rank: the p2p case of one direction (every p2p pair metric),
// named for the fleet, bandwidth_p50 (size / elapsed_p50, decimal GB/s) first. `ranks`: by rank.
CaseResult fleet_link_case(const FleetPlan& plan, const std::string& backend, int from, int to,
                           const std::vector<FleetRank>& ranks, const ElapsedRecord& elapsed);

// The matrix of `links` (FleetDiagnosis::shown: confirmed figures where measured again) with the
// verdict's lists and metrics; bandwidth_min and _max over the links. Above plan.matrix_max_ranks the
// matrix is left out.
CaseResult fleet_matrix_case(const FleetPlan& plan, const std::vector<FleetRank>& ranks,
                             const std::vector<FleetLink>& links, const FleetVerdict& verdict);

// Adds bandwidth_p50_again to each link of `links` that `again` measured a second time: the figure
// the confirmed verdict judged it by.
void attach_fleet_confirmation(std::vector<CaseResult>& links, const std::vector<FleetLink>& again);

}  // namespace xb
