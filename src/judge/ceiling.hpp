#pragma once
// A theoretical ceiling: the most a path can carry, computed from what the hardware reports (never
// typed in), with how it was derived, so a verdict can say what it compared against.
// Figures are bytes per second after line encoding (PCIe's 128b/130b, an Ethernet port's signalling
// rate), before protocol headers: the expectations (built-in fractions per path kind) account for
// those. Facts only, no formatting of numbers into units.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xb {

struct Ceiling {
  // The path as it is trained now; null where nothing on the path reports a rate (derivation: why).
  std::optional<double> bytes_per_second;
  // What the same path could carry with every link at the best both its ends support; null where
  // unknown. Above bytes_per_second when a link trained below its capability.
  std::optional<double> capable_bytes_per_second;
  // "PCIe Gen4 x16 (16.0 GT/s x 16, 128b/130b) between 0000:18:00.0 and root port 0000:17:00.0"
  std::string derivation;
  // One line per link trained below what both its ends can do, naming the link; and what was not
  // read (a port whose configuration space this user cannot read).
  std::vector<std::string> warnings;
};

// The narrower of two ceilings on one path (a NIC's port behind its PCIe link): the lower figure,
// both derivations, every warning.
Ceiling narrower_of(const Ceiling& a, const Ceiling& b);

// Paths used at once (a copy over several devices, a volume striped over several disks): the sum,
// known only where every part is; the parts' derivations joined with "; ", every warning. Where the
// parts share a link above them the sum is an upper bound: the caller's derivation says so.
Ceiling sum_of(const std::vector<Ceiling>& parts);

// `c` times `factor` where its figures are known (both ways at once on a full-duplex link: 2; a
// copy through one memory: 1/2), its derivation led by `why` ("both ways at once, twice: ").
Ceiling scaled_by(Ceiling c, double factor, std::string_view why);

}  // namespace xb
