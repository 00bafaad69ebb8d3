#include "judge/case_figure.hpp"

#include <fmt/format.h>

#include <string_view>

#include "judge/coll_figure.hpp"
#include "judge/copy_figure.hpp"
#include "judge/network_figure.hpp"
#include "judge/p2p_figure.hpp"
#include "judge/server_model.hpp"
#include "judge/storage_figure.hpp"

namespace xb {
namespace {

// Each judged job's figure maker: a job is judged by adding its line.
using FigureFn = JudgedFigure (*)(const CaseResult&, const std::filesystem::path&, const std::string&);
struct JobFigure {
  std::string_view job;
  FigureFn figure;
};
constexpr JobFigure kJobFigures[] = {
    {"copy", copy_figure}, {"p2p", p2p_figure},   {"io", io_figure},     {"kv", kv_figure},
    {"link", link_figure}, {"xfer", xfer_figure}, {"coll", coll_figure},
};

}  // namespace

JudgedFigure case_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server) {
  for (const JobFigure& j : kJobFigures) {
    if (c.job == j.job) return j.figure(c, sysfs, server);
  }
  JudgedFigure f;
  f.ceiling.derivation = fmt::format("the {} job's figures are not judged (yet)", c.job);
  return f;
}

void judge_run(std::vector<CaseResult>& cases, const ExpectationLayers& layers, const JudgedMetricFn& judged_metric,
               const std::filesystem::path& sysfs) {
  const std::string server = server_model(sysfs);
  judge_cases(cases, layers, [&](const CaseResult& c) {
    JudgedFigure f = case_figure(c, sysfs, server);
    if (judged_metric) {
      if (std::string metric = judged_metric(c); !metric.empty()) f.facts.case_metric = std::move(metric);
    }
    return f;
  });
}

}  // namespace xb
