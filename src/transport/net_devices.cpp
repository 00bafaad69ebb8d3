#include "transport/net_devices.hpp"

#include <filesystem>
#include <system_error>

namespace xb {
namespace {

bool is_plain_name(std::string_view name) {
  return !name.empty() && name.find('/') == std::string_view::npos && name != "." && name != "..";
}

bool listed_in(const char* dir, std::string_view name) {
  std::error_code ec;
  return is_plain_name(name) && std::filesystem::exists(std::filesystem::path(dir) / name, ec);
}

}  // namespace

bool is_network_interface(std::string_view name) { return listed_in("/sys/class/net", name); }

bool is_rdma_device(std::string_view name) { return listed_in("/sys/class/infiniband", name); }

bool net_device_exists_here(std::string_view name) { return is_network_interface(name) || is_rdma_device(name); }

bool rdma_devices_here() {
  std::error_code ec;
  std::filesystem::directory_iterator it("/sys/class/infiniband", ec);
  return !ec && it != std::filesystem::directory_iterator();
}

}  // namespace xb
