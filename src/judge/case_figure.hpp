#pragma once
// Judging a run's cases whatever job measured them (the survey runs several; each job's command
// one): the figure maker of the case's job (copy_figure, storage_figure, network_figure,
// p2p_figure), the server model read once, the verdicts set (verdict.hpp judge_cases). A job
// with no figure maker (coll, fleet so far; an xfer server's case) is unjudged, saying so.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "judge/verdict.hpp"

namespace xb {

JudgedFigure case_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server);

// The case's metric a caller judges instead of its job's figure ("" for the job's): the survey
// judges each row's headline.
using JudgedMetricFn = std::function<std::string(const CaseResult&)>;

// Sets every case's verdict, reading ceilings under `sysfs` after the run (a device's link is
// still awake then).
void judge_run(std::vector<CaseResult>& cases, const ExpectationLayers& layers, const JudgedMetricFn& judged_metric = {},
               const std::filesystem::path& sysfs = "/sys");

}  // namespace xb
