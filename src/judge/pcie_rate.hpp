#pragma once
// PCIe signalling rates as sysfs reports them, and what one lane carries at each. Written once here
// (docs/judge.md has the table): per lane, 2.5 and 5 GT/s use 8b/10b, 8, 16 and 32 GT/s 128b/130b,
// 64 GT/s (Gen6, PAM4) carries 242 of every 256 bytes of a FLIT.
#include <optional>
#include <string>
#include <string_view>

namespace xb {

// "16.0 GT/s PCIe", "8 GT/s", "2.5 GT/s PCIe" → GT/s; "Unknown", "Unknown speed", "" and anything
// else → null (a virtual device, or a kernel that does not know the rate).
std::optional<double> parse_pcie_link_speed(std::string_view sysfs_text);

// 1 for 2.5 GT/s … 6 for 64 GT/s; 0 for a rate that is none of PCIe's.
int pcie_generation(double gts);

// Bytes per second one lane carries at `gts` after line encoding; 0 for a rate that is not PCIe's.
double pcie_lane_bytes_per_second(double gts);

// "8b/10b", "128b/130b", "FLIT 242/256"; "" for a rate that is not PCIe's.
std::string_view pcie_encoding(double gts);

// "Gen4 x16" (or "16.0 GT/s x16" for an unknown generation).
std::string pcie_link_name(double gts, int width);

}  // namespace xb
