#include "judge/case_figure.hpp"

#include <fmt/format.h>

#include "jobs/copy/copy_config.hpp"
#include "jobs/p2p/p2p_config.hpp"
#include "jobs/xfer/xfer_config.hpp"
#include "judge/coll_figure.hpp"
#include "judge/copy_figure.hpp"
#include "judge/network_figure.hpp"
#include "judge/p2p_figure.hpp"
#include "judge/server_model.hpp"
#include "judge/storage_figure.hpp"

namespace xb {

JudgedFigure case_figure(const CaseResult& c, BackendRegistry& registry, const std::filesystem::path& sysfs,
                         const std::string& server) {
  if (c.job == "copy") return copy_figure(c, registry.get(c.config.get<CopyConfig>().backend), sysfs, server);
  if (c.job == "p2p") return p2p_figure(c, registry.get(c.config.get<P2pConfig>().backend), sysfs, server);
  if (c.job == "io") return io_figure(c, sysfs, server);
  if (c.job == "kv") return kv_figure(c, sysfs, server);
  if (c.job == "link") return link_figure(c, sysfs, server);
  if (c.job == "xfer" && is_xfer_client_config(c.config)) return xfer_figure(c, sysfs, server);
  if (c.job == "coll") return coll_figure(c, sysfs, server);
  JudgedFigure f;
  f.ceiling.derivation = fmt::format("the {} job's figures are not judged (yet)", c.job);
  return f;
}

void judge_run(std::vector<CaseResult>& cases, const ExpectationLayers& layers, BackendRegistry& registry,
               const JudgedMetricFn& judged_metric, const std::filesystem::path& sysfs) {
  const std::string server = server_model(sysfs);
  judge_cases(cases, layers, [&](const CaseResult& c) {
    JudgedFigure f = case_figure(c, registry, sysfs, server);
    if (judged_metric) {
      if (std::string metric = judged_metric(c); !metric.empty()) f.facts.case_metric = std::move(metric);
    }
    return f;
  });
}

}  // namespace xb
