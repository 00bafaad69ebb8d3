// The one table of transports: the plain TCP transport, built in, and the transport modules this
// binary knows by name (UCX's), opened from the module directories the first time a transport is
// asked for. A new built-in transport is one folder plus one row here; a new module one name in
// kModuleTransports and its folder's .cmake.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/shared_module.hpp"
#include "transport/tcp/tcp_transport.hpp"
#include "transport/transport.hpp"
#include "transport/transport_module.hpp"

namespace xb {
namespace {

// In order of preference, before tcp: the first that opens is the default (default_transport_name).
constexpr const char* kModuleTransports[] = {"ucx"};

struct ModuleTransport {
  std::string name;
  OpenedModule opened;  // empty, with why, when it could not be opened
};

// Opened once per process and never changed after: a module is a property of the node, as the
// dynamic loader that maps it is one per process. Decided over threading a registry through every
// job that makes a transport (link, xfer, p2p, fleet, the survey): what they would carry is this
// same constant. The modules stay open until the process ends, after every transport made from them.
const std::vector<ModuleTransport>& module_transports() {
  static const std::vector<ModuleTransport> table = [] {
    std::vector<ModuleTransport> out;
    const auto dirs = default_module_dirs();
    for (const char* name : kModuleTransports) {
      out.push_back({name, open_module(dirs, fmt::format("libxferbench-transport-{}.so", name), kXbTransportKind)});
    }
    return out;
  }();
  return table;
}

const ModuleTransport* module_named(std::string_view name) {
  for (const auto& m : module_transports()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> transport_names() {
  std::vector<std::string> names;
  for (const auto& m : module_transports()) {
    if (m.opened.module) names.push_back(m.name);
  }
  names.emplace_back("tcp");
  return names;
}

std::string default_transport_name() { return transport_names().front(); }

std::vector<std::string> known_transport_names() {
  std::vector<std::string> names(std::begin(kModuleTransports), std::end(kModuleTransports));
  names.emplace_back("tcp");
  return names;
}

bool transport_known(std::string_view name) {
  const auto known = known_transport_names();
  return std::find(known.begin(), known.end(), name) != known.end();
}

std::unique_ptr<Transport> make_transport(std::string_view name) {
  if (name == "tcp") return make_tcp_transport();
  if (const ModuleTransport* m = module_named(name)) {
    if (!m->opened.module) {
      throw Unavailable(fmt::format("--transport {}: needs the {} transport module, which is not here: {}", name,
                                    name, m->opened.why));
    }
    return std::unique_ptr<Transport>(m->opened.ops_as<XbTransportOps>()->create());
  }
  throw UsageError(fmt::format("--transport: '{}' is not a transport of this build (one of: {})", name,
                               fmt::join(transport_names(), ", ")));
}

std::vector<TransportModuleState> transport_modules() {
  std::vector<TransportModuleState> out;
  for (const auto& m : module_transports()) {
    TransportModuleState s{m.name, {}, {}, {}};
    if (m.opened.module) {
      s.file = m.opened.module.file();
      try {
        m.opened.ops_as<XbTransportOps>()->resources(s.resources);
      } catch (const std::exception& e) {
        s.resources.problems.push_back(fmt::format("{}: {}", m.name, e.what()));
      }
    } else {
      s.why_not = m.opened.why;
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace xb
