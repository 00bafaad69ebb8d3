#include "jobs/xfer/xfer_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/enum_names.hpp"
#include "core/plan_error.hpp"
#include "core/machine.hpp"
#include "core/size.hpp"
#include "core/sweep.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// Limits past which no run has a use for the value; they keep every product inside 64 bits and a
// mistyped flag from allocating the machine away before the first byte moves.
constexpr std::uint64_t kMaxTotal = std::uint64_t{1} << 40;  // 1 TiB on each side
constexpr unsigned kMaxIters = 1'000'000;
constexpr std::chrono::hours kMaxWait{24};
constexpr int kMaxDevice = 1023;

char place_letter(RegionPlace p) { return p == RegionPlace::device ? 'd' : 'h'; }

std::optional<RegionPlace> place_from(char c) {
  if (c == 'd') return RegionPlace::device;
  if (c == 'h') return RegionPlace::host;
  return std::nullopt;
}

constexpr NamedValue<XferOp> kOpNames[] = {{XferOp::write, "write"}, {XferOp::read, "read"}};

// PlanError "FIELD VALUE: expected MIN to MAX…" unless `value` is in [min, max].
void require_count(unsigned value, std::string_view field, unsigned min, unsigned max, std::string_view unit = "") {
  if (value < min || value > max) {
    throw PlanError(fmt::format("{} {}: expected {} to {}{}", flag(field), value, min, max, unit));
  }
}

// The plan in words, as the session's handshake compares them: "d2d write, no buffer pool".
std::string xfer_plan_words(const XferPlan& plan) {
  return fmt::format("{} {}, {}", to_string(plan.mode), to_string(plan.op), plan.pool ? "buffer pool" : "no buffer pool");
}

}  // namespace

std::string_view to_string(XferRole role) { return role == XferRole::server ? "server" : "client"; }
std::string_view to_string(XferOp op) { return name_of(kOpNames, op); }

std::string to_string(XferMode mode) {
  return fmt::format("{}2{}", place_letter(mode.local), place_letter(mode.remote));
}

std::optional<XferOp> xfer_op_from(std::string_view name) { return value_named(kOpNames, name); }

std::optional<XferMode> xfer_mode_from(std::string_view name) {
  if (name.size() != 3 || name[1] != '2') return std::nullopt;
  const auto local = place_from(name[0]);
  const auto remote = place_from(name[2]);
  if (!local || !remote) return std::nullopt;
  return XferMode{*local, *remote};
}

std::vector<std::uint64_t> parse_block_sizes(std::string_view text, std::string_view flag) {
  return parse_size_sweep(text, flag);
}

SessionOptions xfer_session_options(const XferPlan& plan) {
  return {.token = plan.token, .wait = plan.wait, .caps = plan.caps,
          .plan = plan.role == XferRole::client || plan.server_plan ? xfer_plan_words(plan) : "", .stop = {}};
}

void validate_xfer_plan(const XferPlan& plan) {
  if (!transport_known(plan.transport)) {
    const auto names = transport_names();
    throw PlanError(fmt::format("{} {}: expected one of {} (this build's transports)", flag("xfer.transport"),
                                plan.transport, fmt::join(names, ", ")));
  }
  if (plan.wait < std::chrono::seconds(1) || plan.wait > kMaxWait) {
    throw PlanError(fmt::format("{}: expected 1 to {} seconds", flag("xfer.wait"), kMaxWait.count() * 3600));
  }
  require_in_range(plan.device, "xfer.device", "a device index", 0, kMaxDevice);
  // A server on port 0 gets one from the kernel and announces it (stderr, --ready-file).
  if (plan.role == XferRole::server) return;
  if (plan.control.port == 0) {
    throw PlanError(fmt::format("{} {}: expected the server's control port (1..65535)", flag("xfer.control_client"),
                                plan.control.to_string()));
  }
  if (plan.total == 0 || plan.total > kMaxTotal) {
    throw PlanError(
        fmt::format("{} {}: expected 1 byte to {}", flag("xfer.total"), plan.total, format_size(kMaxTotal)));
  }
  if (plan.blocks.empty()) throw PlanError(fmt::format("{}: at least one block size", flag("xfer.block")));
  for (std::uint64_t b : plan.blocks) {
    if (b == 0) throw PlanError(fmt::format("{} 0: a block is at least 1 byte", flag("xfer.block")));
    if (b > plan.total) {
      throw PlanError(fmt::format("{} {}: larger than {} {} (each block size moves the total in whole blocks)",
                                  flag("xfer.block"), format_size(b), flag("xfer.total"), format_size(plan.total)));
    }
  }
  require_count(plan.clients, "xfer.clients", 1, kXferMaxFanOut, " clients at once");
  require_count(plan.iters, "xfer.iters", 1, kMaxIters);
  require_count(plan.warmup, "xfer.warmup", 0, kMaxIters);
  if (plan.pool && plan.pool_chunk == 0) {
    throw PlanError(fmt::format("{} 0: a pool chunk is at least 1 byte", flag("xfer.pool_chunk")));
  }
}

void check_xfer_memory(const XferPlan& plan, bool device_memory_in_host_ram) {
  if (plan.role != XferRole::client) return;
  const bool local_in_ram =
      plan.mode.local == RegionPlace::host || (plan.mode.local == RegionPlace::device && device_memory_in_host_ram);
  const double need = (local_in_ram ? static_cast<double>(plan.total) : 0.0) +
                      (plan.pool ? static_cast<double>(kXferPoolSlots) * static_cast<double>(plan.pool_chunk) : 0.0);
  const double available = static_cast<double>(available_memory_bytes());
  if (!fits_in_memory(need, available)) {
    throw MachineLimit(fmt::format("{} {}: this client needs {} of memory but {} is available; lower {}",
                                   flag("xfer.total"), format_size(plan.total),
                                   format_bytes_human(static_cast<std::uint64_t>(need)),
                                   format_bytes_human(static_cast<std::uint64_t>(available)), flag("xfer.total")));
  }
}

}  // namespace xb
