#pragma once
// The server's model as its firmware names it (SMBIOS system information through sysfs:
// "ProLiant DL380 Gen11", "Atlas 800I A2"), what SKU rules match with their `server` glob; "" where
// the firmware does not say (most VMs), and then no SKU rule that names a server applies.
#include <filesystem>
#include <string>

#include "core/first_line.hpp"

namespace xb {

inline std::string server_model(const std::filesystem::path& sysfs) {
  return read_first_line(sysfs / "class" / "dmi" / "id" / "product_name");
}

}  // namespace xb
