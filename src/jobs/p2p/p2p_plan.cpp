#include "jobs/p2p/p2p_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "core/plan_error.hpp"
#include "core/machine.hpp"
#include "core/size.hpp"

namespace xb {
namespace {

// The highest device index + 1 a plan may name: any (up to the arena limit) on a backend whose
// devices are virtual (the cpu backend's arenas), else the devices the backend found.
int device_limit(const Backend& backend) {
  return backend.capabilities().virtual_devices ? kP2pMaxDevices : backend.device_count();
}

std::string device_rule(const Backend& backend) {
  if (backend.capabilities().virtual_devices) {
    return fmt::format("from 0 to {} (the {} backend's arena limit)", kP2pMaxDevices - 1, backend.name());
  }
  return fmt::format("from 0 to {} (the {} backend has {} device(s))", backend.device_count() - 1, backend.name(),
                     backend.device_count());
}

// Bytes the plan allocates in all: a source and a destination buffer of `size` on every device used.
double p2p_memory_need(const P2pPlan& plan, const Backend& backend) {
  // Across nodes each rank has one device; on one machine its ranks add up, as ranks do.
  if (!plan.all_pairs && plan.across_nodes) return 2.0 * static_cast<double>(plan.size);
  std::set<int> used;
  for (const auto& p : plan.pairs) used.insert({p.src, p.dst});
  const std::size_t devices = plan.all_pairs ? static_cast<std::size_t>(std::max(p2p_device_count(plan, backend), 0))
                                             : used.size();
  return 2.0 * static_cast<double>(plan.size) * static_cast<double>(devices);
}

}  // namespace

int p2p_device_count(const P2pPlan& plan, const Backend& backend) {
  if (plan.devices > 0) return plan.devices;
  // The cpu backend has one arena per NUMA node; a matrix needs two devices at least, and its
  // arenas are virtual: open two then.
  const int found = backend.device_count();
  return backend.capabilities().virtual_devices ? std::max(found, 2) : found;
}

void validate_p2p_plan(const P2pPlan& plan, Backend& backend) {
  if (plan.size < 1 || plan.size > kP2pMaxSize) {
    throw PlanError(fmt::format("{} {}: expected a size from 1 byte to {} bytes (4 GiB)", flag("p2p.size"), plan.size,
                                kP2pMaxSize));
  }
  require_in_range(plan.executions, "p2p.executions", "a whole number", 1, kP2pMaxExecutions);
  require_in_range(plan.warmup, "p2p.warmup", "a whole number", 0, kP2pMaxExecutions);
  if (!plan.unidirectional && !plan.bidirectional) {
    throw std::logic_error("p2p plan: neither unidirectional nor bidirectional");
  }
  const Capabilities& caps = backend.capabilities();
  if (!caps.peer_copy) {
    throw Unavailable(fmt::format("the {} backend's devices cannot copy to each other (no peer copy)", backend.name()));
  }
  const int limit = device_limit(backend);
  if (plan.all_pairs) {
    const int n = p2p_device_count(plan, backend);
    if (n > kP2pMaxMatrixDevices) {
      throw PlanError(
          fmt::format("{} {}: a matrix of at most {} devices ({} ordered pairs); for more, the fleet job "
                      "measures every link in rounds",
                      flag("p2p.devices"), n, kP2pMaxMatrixDevices, kP2pMaxMatrixDevices * (kP2pMaxMatrixDevices - 1)));
    }
    if (n < 2 || n > limit) {
      if (!caps.virtual_devices && backend.device_count() < 2) {
        throw Unavailable(fmt::format("a p2p matrix needs two devices; the {} backend has {}", backend.name(),
                                      backend.device_count()));
      }
      throw PlanError(fmt::format("{} {}: expected a device count from 2 to {}", flag("p2p.devices"), n, limit));
    }
  } else {
    if (plan.pairs.empty()) throw std::logic_error("p2p plan: no pair");
    for (const auto& p : plan.pairs) {
      for (const auto& [field, index] : {std::pair{"p2p.src", p.src}, std::pair{"p2p.dst", p.dst}}) {
        if (index < 0 || index >= limit) {
          throw PlanError(fmt::format("{} {}: expected a device index {}", flag(field), index, device_rule(backend)));
        }
      }
      if (p.src == p.dst && !plan.across_nodes) {
        throw PlanError(
            fmt::format("{} {}: the same device as {} (p2p copies between two devices; within one device it is "
                        "the copy job's d2d)",
                        flag("p2p.dst"), p.dst, flag("p2p.src")));
      }
    }
  }
  if (plan.card_dies > 0) {
    if (plan.all_pairs || plan.across_nodes || plan.pairs.size() != 1) {
      throw PlanError(fmt::format("{} card: one pair of cards within a node ({} and {})", flag("p2p.card"),
                                  flag("p2p.src"), flag("p2p.dst")));
    }
    const int cards = backend.device_count() / plan.card_dies;
    for (const auto& [field, card] : {std::pair{"p2p.src", plan.pairs.front().src}, std::pair{"p2p.dst", plan.pairs.front().dst}}) {
      if (card >= cards) {
        throw PlanError(fmt::format("{} {}: expected a card index from 0 to {} (the {} backend has {} cards of {} devices)",
                                    flag(field), card, cards - 1, backend.name(), cards, plan.card_dies));
      }
    }
    if (plan.executions > kP2pCardMaxExecutions) {
      throw PlanError(fmt::format("{} {}: at most {} with {} card (each execution's slowest die is kept)",
                                  flag("p2p.executions"), plan.executions, kP2pCardMaxExecutions, flag("p2p.card")));
    }
  }
  if (!plan.engine.empty() && std::find(caps.engines.begin(), caps.engines.end(), plan.engine) == caps.engines.end()) {
    throw PlanError(fmt::format("{} {}: the {} backend's engines are {}", flag("p2p.engine"), plan.engine,
                                backend.name(), fmt::join(caps.engines, ", ")));
  }
  // Device memory of the cpu backend is host RAM: check it now, before anything is allocated.
  if (caps.device_memory_in_host_ram) {
    const double need = p2p_memory_need(plan, backend);
    const double available = static_cast<double>(available_memory_bytes());
    if (!fits_in_memory(need, available)) {
      throw MachineLimit(
          fmt::format("{} {}: this run needs {} of memory (a source and a destination buffer per device) "
                      "but {} is available; lower {}",
                      flag("p2p.size"), plan.size, format_bytes_human(static_cast<std::uint64_t>(need)),
                      format_bytes_human(static_cast<std::uint64_t>(available)), flag("p2p.size")));
    }
  }
}

}  // namespace xb
