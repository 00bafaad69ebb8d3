#include "judge/network_figure.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "jobs/link/link_config.hpp"
#include "jobs/xfer/xfer_config.hpp"
#include "judge/route_devices.hpp"
#include "transport/address.hpp"

namespace xb {
namespace {

JudgedFigure network_figure(std::string path, std::string metric, std::uint64_t block, const std::string& peer,
                            const TransportInfo& transport, const std::filesystem::path& sysfs, const std::string& server) {
  JudgedFigure f;
  f.facts.path = std::move(path);
  if (metric != f.facts.metric) f.facts.case_metric = std::move(metric);
  f.facts.server = server;
  f.facts.block_bytes = block;
  // "HOST:PORT", or link's loopback in words: "loopback: a server thread of this process on 127.0.0.1:PORT".
  const std::string ip = parse_address(peer.substr(peer.rfind(' ') + 1), "peer", false).host;
  const RouteDevices devices = route_devices(transport.lanes, ip);
  std::vector<std::string> names = devices.rdma_ports;
  names.insert(names.end(), devices.interfaces.begin(), devices.interfaces.end());
  f.facts.device = fmt::format("{}", fmt::join(names, "+"));
  f.ceiling = route_ceiling(sysfs, devices);
  f.ceiling.derivation = fmt::format("to {} over {} ({}): {}", ip, transport.name, transport.lanes, f.ceiling.derivation);
  return f;
}

}  // namespace

JudgedFigure link_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server) {
  const LinkConfig config = c.config.get<LinkConfig>();
  return network_figure("link", "bandwidth", config.size, config.peer, config.transport, sysfs, server);
}

JudgedFigure xfer_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server) {
  if (!is_xfer_client_config(c.config)) {  // a server's case: what it served, no figure
    JudgedFigure f;
    f.ceiling.derivation = "the xfer job's figures are not judged (yet)";
    return f;
  }
  const XferClientConfig config = c.config.get<XferClientConfig>();
  return network_figure("xfer", "throughput", config.block, config.peer, config.transport, sysfs, server);
}

}  // namespace xb
