#include "judge/pcie_rate.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>

namespace xb {
namespace {

struct PcieRate {
  double gts;
  int generation;
  double payload_share;  // of the raw bits, after line encoding
  std::string_view encoding;
};

constexpr std::array<PcieRate, 6> kRates{{
    {2.5, 1, 8.0 / 10.0, "8b/10b"},
    {5.0, 2, 8.0 / 10.0, "8b/10b"},
    {8.0, 3, 128.0 / 130.0, "128b/130b"},
    {16.0, 4, 128.0 / 130.0, "128b/130b"},
    {32.0, 5, 128.0 / 130.0, "128b/130b"},
    {64.0, 6, 242.0 / 256.0, "FLIT 242/256"},
}};

const PcieRate* rate_of(double gts) {
  for (const auto& r : kRates) {
    if (std::fabs(r.gts - gts) < 1e-6) return &r;
  }
  return nullptr;
}

}  // namespace

std::optional<double> parse_pcie_link_speed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  double gts = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), gts);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  std::string_view rest(end, static_cast<std::size_t>(text.data() + text.size() - end));
  if (rest.substr(0, 5) != " GT/s" || !(gts > 0)) return std::nullopt;
  return gts;
}

int pcie_generation(double gts) {
  const PcieRate* r = rate_of(gts);
  return r == nullptr ? 0 : r->generation;
}

double pcie_lane_bytes_per_second(double gts) {
  const PcieRate* r = rate_of(gts);
  return r == nullptr ? 0.0 : r->gts * 1e9 * r->payload_share / 8.0;
}

std::string_view pcie_encoding(double gts) {
  const PcieRate* r = rate_of(gts);
  return r == nullptr ? std::string_view{} : r->encoding;
}

std::string pcie_link_name(double gts, int width) {
  const int gen = pcie_generation(gts);
  return gen > 0 ? fmt::format("Gen{} x{}", gen, width) : fmt::format("{} GT/s x{}", gts, width);
}

}  // namespace xb
