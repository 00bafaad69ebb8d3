#include "judge/peer_link_ceiling.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <vector>

namespace xb {
namespace {

std::string device_name(const DeviceInfo& d) {
  return d.pci_address.empty() ? fmt::format("device {}", d.index) : d.pci_address;
}

std::string gb_per_s(double bytes_per_second) { return fmt::format("{:.3f} GB/s", bytes_per_second / 1e9); }

// "18 × NVLink 4.0 at 26.562 GB/s": one entry's part of a derivation.
std::string entry_text(const PeerLink& l) {
  return fmt::format("{} × {} at {}", l.links, l.technology, gb_per_s(l.bytes_per_second_each));
}

struct Bundle {
  double bytes_per_second = 0;
  std::vector<std::string> parts;
};

// `d`'s links that reach `peer` straight (peer set) or its switch links (peer empty).
Bundle bundle_of(const DeviceInfo& d, const std::string* peer) {
  Bundle b;
  for (const PeerLink& l : d.peer_links) {
    const bool wanted = peer == nullptr ? l.through_switch : (!l.through_switch && l.peer_pci_address == *peer);
    if (!wanted || l.links <= 0 || l.bytes_per_second_each <= 0) continue;
    b.bytes_per_second += l.links * l.bytes_per_second_each;
    b.parts.push_back(entry_text(l));
  }
  return b;
}

void warn_down_links(const DeviceInfo& d, std::vector<std::string>& warnings) {
  if (d.peer_links_down <= 0) return;
  int active = 0;
  for (const PeerLink& l : d.peer_links) active += l.links;
  warnings.push_back(fmt::format("{}: {} of its {} peer links are not active", device_name(d), d.peer_links_down,
                                 active + d.peer_links_down));
}

}  // namespace

std::optional<Ceiling> peer_link_ceiling(const DeviceInfo& from, const DeviceInfo& to) {
  std::vector<std::string> parts;
  double total = 0;
  // Straight links: each end reports its side of the same links, so one end's report is enough.
  Bundle direct = bundle_of(from, &to.pci_address);
  const DeviceInfo* reporter = &from;
  if (direct.bytes_per_second == 0) {
    direct = bundle_of(to, &from.pci_address);
    reporter = &to;
  }
  if (direct.bytes_per_second > 0 && !from.pci_address.empty() && !to.pci_address.empty()) {
    total += direct.bytes_per_second;
    parts.push_back(fmt::format("{} straight between {} and {} (as {} reports them): {} each way",
                                fmt::join(direct.parts, " + "), device_name(from), device_name(to),
                                device_name(*reporter), gb_per_s(direct.bytes_per_second)));
  }
  const Bundle from_switch = bundle_of(from, nullptr);
  const Bundle to_switch = bundle_of(to, nullptr);
  if (from_switch.bytes_per_second > 0 && to_switch.bytes_per_second > 0) {
    const double through = std::min(from_switch.bytes_per_second, to_switch.bytes_per_second);
    total += through;
    parts.push_back(fmt::format("through the switch fabric: {} has {}, {} has {}; the fewer, {} each way",
                                device_name(from), fmt::join(from_switch.parts, " + "), device_name(to),
                                fmt::join(to_switch.parts, " + "), gb_per_s(through)));
  }
  if (total == 0) return std::nullopt;
  Ceiling c;
  c.bytes_per_second = total;
  c.capable_bytes_per_second = total;  // where a link that is down would lead is not reported
  c.derivation = fmt::format("{}", fmt::join(parts, "; "));
  warn_down_links(from, c.warnings);
  warn_down_links(to, c.warnings);
  return c;
}

Ceiling device_pair_ceiling(const DeviceInfo& from, const Ceiling& pcie_from, const DeviceInfo& to,
                            const Ceiling& pcie_to) {
  if (auto peer = peer_link_ceiling(from, to)) return *std::move(peer);
  Ceiling c = narrower_of(pcie_from, pcie_to);
  // narrower_of keeps a known figure past an unknown one; a copy between the two crosses both.
  if (!pcie_from.bytes_per_second || !pcie_to.bytes_per_second) {
    c.bytes_per_second.reset();
    c.capable_bytes_per_second.reset();
  }
  for (const DeviceInfo* d : {&from, &to}) {
    if (!d->peer_links_note.empty()) c.derivation += fmt::format(" ({}: {})", device_name(*d), d->peer_links_note);
  }
  return c;
}

}  // namespace xb
