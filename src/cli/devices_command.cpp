// `xferbench devices`: the backends found (and why a module was refused), and their devices.
#include <fmt/format.h>

#include <ostream>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "core/size.hpp"

namespace xb {
namespace {

int run_devices(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"List backends, modules and devices", "devices"};
  parse_args(app, args);
  for (const auto& m : ctx.registry.modules()) {
    if (!m.loaded) {
      ctx.out << fmt::format("module {}: refused: {}\n", m.path.string(), m.reason);
      continue;
    }
    Backend& b = ctx.registry.get(m.name);
    const Support s = b.availability();
    ctx.out << fmt::format("backend {}{}: {}\n", b.name(), m.path.empty() ? " (built in)" : " (" + m.path.string() + ")",
                           s.ok ? fmt::format("{} device(s)", b.device_count()) : "not available: " + s.reason);
    if (!s.ok) continue;
    std::string engines;
    for (const auto& e : b.capabilities().engines) engines += (engines.empty() ? "" : ", ") + e;
    ctx.out << fmt::format("  engines: {}\n", engines);
    for (int i = 0; i < b.device_count(); ++i) {
      const auto dev = b.open_device(i);
      const auto& info = dev->info();
      ctx.out << fmt::format("  {}::device::{}  {}{}{}\n", b.name(), i, info.name,
                             info.memory_bytes ? ", " + format_bytes_human(info.memory_bytes) : "",
                             info.pci_address.empty() ? "" : ", PCI " + info.pci_address);
    }
  }
  return kExitOk;
}

}  // namespace

extern const Command kDevicesCommand{"devices", "list backends, modules and devices", run_devices};

}  // namespace xb
