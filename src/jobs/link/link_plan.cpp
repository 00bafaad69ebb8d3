#include "jobs/link/link_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/plan_error.hpp"
#include "core/machine.hpp"
#include "core/size.hpp"
#include "transport/transport.hpp"

namespace xb {

namespace {
constexpr NamedValue<RegionPlace> kLinkMemoryNames[] = {
    {RegionPlace::host, "host"}, {RegionPlace::device, "cuda"}, {RegionPlace::null, "null"}};
}  // namespace

std::string_view link_memory_name(RegionPlace place) { return name_of(kLinkMemoryNames, place); }

std::pair<RegionPlace, RegionPlace> parse_link_memory(std::string_view text, std::string_view flag) {
  const auto colon = text.find(':');
  const std::string_view src_name = text.substr(0, colon);
  const std::string_view dst_name = colon == std::string_view::npos ? src_name : text.substr(colon + 1);
  const auto src = value_named(kLinkMemoryNames, src_name);
  const auto dst = value_named(kLinkMemoryNames, dst_name);
  if (!src || !dst || dst_name.find(':') != std::string_view::npos) {
    throw UsageError(fmt::format("{} {}: expected SRC[:DST], each one of host, cuda, null", flag, text));
  }
  return {*src, *dst};
}

void validate_link_plan(const LinkPlan& plan) {
  if (plan.min_bytes == 0) throw PlanError(fmt::format("{}: sizes must be at least 1 byte", flag("link.size")));
  if (plan.min_bytes > plan.max_bytes) {
    throw PlanError(fmt::format("{} {}:{}: MIN must not exceed MAX", flag("link.size"), format_size(plan.min_bytes),
                                format_size(plan.max_bytes)));
  }
  if (plan.max_bytes > kMaxSize) {
    throw PlanError(fmt::format("{}: MAX must not exceed {}", flag("link.size"), format_size(kMaxSize)));
  }
  if (plan.step < 2) {
    throw PlanError(fmt::format("{} {}: the step factor must be at least 2", flag("link.step"), plan.step));
  }
  if (plan.iterations == 0) {
    throw PlanError(fmt::format("{} 0: at least one iteration is needed", flag("link.iterations")));
  }
  if (plan.check && (plan.src == RegionPlace::null || plan.dst == RegionPlace::null)) {
    throw PlanError(fmt::format(
        "{}: null memory is never touched by the CPU, so its data cannot be checked (use host or cuda with {})",
        flag("link.check"), flag("link.memory")));
  }
  if (plan.pingpong && (plan.src != RegionPlace::host || plan.dst != RegionPlace::host)) {
    throw PlanError(fmt::format("{}: each side's CPU watches the last byte of its memory for the other's put, so "
                                "both ends must be host memory ({} host)",
                                flag("link.pingpong"), flag("link.memory")));
  }
  if (!plan.transport.empty() && !transport_known(plan.transport)) {
    throw PlanError(fmt::format("{} {}: expected one of {}", flag("link.transport"), plan.transport,
                                fmt::join(transport_names(), ", ")));
  }
}

void check_link_memory(const LinkPlan& plan, bool device_memory_in_host_ram) {
  const auto in_ram = [&](RegionPlace p) {
    return p == RegionPlace::host || (p == RegionPlace::device && device_memory_in_host_ram) ? 1 : 0;
  };
  int buffers = in_ram(plan.src);
  if (plan.src == RegionPlace::device && !device_memory_in_host_ram) ++buffers;  // host staging
  if (!plan.peer) buffers += in_ram(plan.dst);                                   // the loopback server's
  if (plan.pingpong) ++buffers;                                                   // the answers' memory
  const double need = static_cast<double>(buffers) * static_cast<double>(plan.max_bytes);
  const double available = static_cast<double>(available_memory_bytes());
  if (!fits_in_memory(need, available)) {
    throw MachineLimit(fmt::format(
        "{} {}: the largest size needs {} of memory ({} buffer(s) of {}) but {} is available; "
        "lower the largest size",
        flag("link.size"), format_size(plan.max_bytes), format_bytes_human(static_cast<std::uint64_t>(need)), buffers,
        format_size(plan.max_bytes), format_bytes_human(static_cast<std::uint64_t>(available))));
  }
}

std::vector<std::uint64_t> link_sizes(const LinkPlan& plan) {
  std::vector<std::uint64_t> sizes;
  if (plan.min_bytes == 0 || plan.step < 2) return {plan.min_bytes};  // not a sweep (validate refuses it)
  for (std::uint64_t s = plan.min_bytes; s <= plan.max_bytes;) {
    sizes.push_back(s);
    if (s > plan.max_bytes / plan.step) break;  // the next step would pass MAX (or overflow)
    s *= plan.step;
  }
  return sizes;
}

double link_bandwidth_gbps(std::uint64_t bytes, double avg_us) {
  // bits per microsecond / 1000 = gigabits (10^9) per second.
  return avg_us > 0 ? static_cast<double>(bytes) * 8.0 / avg_us / 1e3 : 0.0;
}

}  // namespace xb
