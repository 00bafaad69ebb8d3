#include "judge/coll_figure.hpp"

#include <fmt/format.h>

#include "jobs/coll/coll_config.hpp"
#include "judge/nic_ceiling.hpp"

namespace xb {

JudgedFigure coll_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server) {
  const CollConfig config = c.config.get<CollConfig>();
  JudgedFigure f;
  f.facts.path = "coll";
  f.facts.server = server;
  f.facts.block_bytes = config.size;
  if (!config.net_device || config.net_device->empty()) {
    f.ceiling.derivation = "no network device named for the collectives (sharp_coll_test -d DEV[:PORT] names it): "
                           "their traffic goes where MPI routes it";
    return f;
  }
  const std::string& device = *config.net_device;
  const NicCeiling port = device.find(':') != std::string::npos ? rdma_port_ceiling(sysfs, device) : nic_ceiling(sysfs, device);
  f.facts.device = port.name;
  f.ceiling = port.ceiling;
  const int n = config.ranks;
  const bool spread = config.collective == "allgather" || config.collective == "reduce_scatter";
  if (spread && n >= 2) {
    f.ceiling = scaled_by(f.ceiling, static_cast<double>(n) / (n - 1),
                          fmt::format("{} of {} ranks: {}/{} x the port (a rank's own block never crosses it): ",
                                      config.collective, n, n, n - 1));
  } else {
    f.ceiling.derivation = fmt::format("{} of {} ranks: each rank's data across its port once at best (in-network "
                                       "reduction; a host-based ring reaches about half): {}",
                                       config.collective, n, f.ceiling.derivation);
  }
  return f;
}

}  // namespace xb
