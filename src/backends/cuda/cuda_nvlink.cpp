// The NVLink reader (see cuda_nvlink.hpp): NVML through dlopen, every call checked and named.
#include "backends/cuda/cuda_nvlink.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "backends/cuda/nvml_api.hpp"

namespace xb::cuda {
namespace {

// The library, closed when the reading is done.
class Library {
 public:
  explicit Library(const char* path) : handle_(dlopen(path, RTLD_NOW | RTLD_LOCAL)) {}
  ~Library() {
    if (handle_ != nullptr) dlclose(handle_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  bool loaded() const { return handle_ != nullptr; }
  void* symbol(const char* name) const { return dlsym(handle_, name); }

 private:
  void* handle_;
};

struct Api {
  nvml::InitFn init = nullptr;
  nvml::ShutdownFn shutdown = nullptr;
  nvml::ErrorStringFn error_string = nullptr;
  nvml::HandleByPciBusIdFn handle_by_pci = nullptr;
  nvml::NvLinkStateFn link_state = nullptr;
  nvml::NvLinkVersionFn link_version = nullptr;
  nvml::NvLinkRemotePciInfoFn remote_pci = nullptr;
  nvml::NvLinkRemoteDeviceTypeFn remote_type = nullptr;
  nvml::FieldValuesFn field_values = nullptr;

  std::string error(nvml::Return r) const {
    const char* text = error_string != nullptr ? error_string(r) : nullptr;
    return fmt::format("{} (NVML error {})", text != nullptr ? text : "no message", r);
  }
};

// Binds every function, or names the first one missing.
std::optional<std::string> bind(const Library& lib, Api& api) {
  const auto one = [&](auto& fn, const char* name) -> bool {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(lib.symbol(name));
    return fn != nullptr;
  };
  const std::pair<bool, const char*> found[] = {
      {one(api.init, "nvmlInit_v2"), "nvmlInit_v2"},
      {one(api.shutdown, "nvmlShutdown"), "nvmlShutdown"},
      {one(api.error_string, "nvmlErrorString"), "nvmlErrorString"},
      {one(api.handle_by_pci, "nvmlDeviceGetHandleByPciBusId_v2"), "nvmlDeviceGetHandleByPciBusId_v2"},
      {one(api.link_state, "nvmlDeviceGetNvLinkState"), "nvmlDeviceGetNvLinkState"},
      {one(api.link_version, "nvmlDeviceGetNvLinkVersion"), "nvmlDeviceGetNvLinkVersion"},
      {one(api.remote_pci, "nvmlDeviceGetNvLinkRemotePciInfo_v2"), "nvmlDeviceGetNvLinkRemotePciInfo_v2"},
      {one(api.remote_type, "nvmlDeviceGetNvLinkRemoteDeviceType"), "nvmlDeviceGetNvLinkRemoteDeviceType"},
      {one(api.field_values, "nvmlDeviceGetFieldValues"), "nvmlDeviceGetFieldValues"},
  };
  for (const auto& [ok, name] : found) {
    if (!ok) return fmt::format("this NVML has no {}", name);
  }
  return std::nullopt;
}

// nvmlInit_v2 … nvmlShutdown, balanced on every path.
class Session {
 public:
  explicit Session(const Api& api) : api_(api), result_(api.init()) {}
  ~Session() {
    if (result_ == nvml::kSuccess) api_.shutdown();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  nvml::Return result() const { return result_; }

 private:
  const Api& api_;
  nvml::Return result_;
};

// NVML's speed field for the device's active links, bytes/s per direction; nullopt where the
// field is not supported (older drivers), so the version decides.
std::optional<double> common_speed(const Api& api, nvml::Device device) {
  nvml::FieldValue value{};
  value.field_id = nvml::kFieldNvlinkSpeedCommonMBps;
  if (api.field_values(device, 1, &value) != nvml::kSuccess || value.result != nvml::kSuccess ||
      value.value_type != nvml::kValueUnsignedInt || value.value.ui == 0) {
    return std::nullopt;
  }
  return value.value.ui * 1e6;  // NVML's MBps: 10^6 bytes per second
}

// The links of one device; its note says what was read or why not.
void read_device(const Api& api, ProbedDevice& d) {
  nvml::Device device = nullptr;
  if (const auto r = api.handle_by_pci(d.pci_address.c_str(), &device); r != nvml::kSuccess) {
    d.peer_links_note = fmt::format("nvmlDeviceGetHandleByPciBusId_v2({}) failed: {}: NVLinks not read", d.pci_address,
                                    api.error(r));
    return;
  }
  const std::optional<double> speed = common_speed(api, device);
  // (technology, far end, through a switch, rate) → links
  std::map<std::tuple<std::string, std::string, bool, double>, int> groups;
  int active = 0, other_ends = 0;
  for (unsigned link = 0; link < nvml::kMaxLinks; ++link) {
    int state = 0;
    const auto r = api.link_state(device, link, &state);
    if (link == 0 && r == nvml::kErrorNotSupported) {
      d.peer_links_note = "no NVLink on this device (NVML: not supported)";
      return;
    }
    // Past the device's last link NVML answers invalid argument (or not supported).
    if (r == nvml::kErrorInvalidArgument || r == nvml::kErrorNotSupported) break;
    const auto failed = [&](const char* call, nvml::Return e) {
      d.peer_links.clear();
      d.peer_links_down = 0;
      d.peer_links_note = fmt::format("{}({}, link {}) failed: {}: NVLinks not read", call, d.pci_address, link,
                                      api.error(e));
    };
    if (r != nvml::kSuccess) return failed("nvmlDeviceGetNvLinkState", r);
    if (state != nvml::kFeatureEnabled) {
      ++d.peer_links_down;
      continue;
    }
    int type = -1;
    if (const auto e = api.remote_type(device, link, &type); e != nvml::kSuccess) {
      return failed("nvmlDeviceGetNvLinkRemoteDeviceType", e);
    }
    std::string peer;
    if (type == nvml::kRemoteGpu) {
      nvml::PciInfo pci{};
      if (const auto e = api.remote_pci(device, link, &pci); e != nvml::kSuccess) {
        return failed("nvmlDeviceGetNvLinkRemotePciInfo_v2", e);
      }
      // As the probe names devices (domain:bus:device.0), so the far end matches its own entry.
      peer = fmt::format("{:04x}:{:02x}:{:02x}.0", pci.domain, pci.bus, pci.device);
    } else if (type != nvml::kRemoteSwitch) {
      ++other_ends;  // a CPU's NVLink (POWER9) or an end NVML cannot name: not a path to a peer
      continue;
    }
    unsigned version = 0;
    if (api.link_version(device, link, &version) != nvml::kSuccess) version = 0;
    const double rate = speed.value_or(nvlink_version_bytes_per_second(version));
    if (rate <= 0) {
      d.peer_links.clear();
      d.peer_links_down = 0;
      d.peer_links_note = fmt::format(
          "{} link {}: NVML reports neither its speed nor a version this xferbench knows ({}): NVLinks not read",
          d.pci_address, link, version);
      return;
    }
    ++groups[{nvlink_version_name(version), peer, type == nvml::kRemoteSwitch, rate}];
    ++active;
  }
  for (const auto& [key, links] : groups) {
    const auto& [technology, peer, through_switch, rate] = key;
    d.peer_links.push_back(PeerLink{technology, peer, through_switch, links, rate});
  }
  d.peer_links_note = fmt::format("NVML: {} active NVLink(s), {} not active{}; rate from {}", active, d.peer_links_down,
                                  other_ends > 0 ? fmt::format(", {} to a CPU or an unnamed end", other_ends) : "",
                                  speed ? "NVML's speed field" : "the NVLink version");
}

}  // namespace

double nvlink_version_bytes_per_second(unsigned version) {
  // NVIDIA's per-link, per-direction figures: NVLink 1.0 (P100) 20 GB/s; 2.0 (V100), 2.2, 3.0
  // (A100), 3.1 and 4.0 (H100) 25 GB/s; 5.0 (B200) 50 GB/s.
  if (version == 1) return 20e9;
  if (version >= 2 && version <= 6) return 25e9;
  if (version == nvml::kVersion5_0) return 50e9;
  return 0;
}

std::string nvlink_version_name(unsigned version) {
  static constexpr const char* kNames[] = {"", "1.0", "2.0", "2.2", "3.0", "3.1", "4.0", "5.0"};
  if (version == 0 || version >= std::size(kNames)) return "NVLink";
  return fmt::format("NVLink {}", kNames[version]);
}

void read_nvlinks(std::vector<ProbedDevice>& devices, const char* library) {
  const auto all = [&](const std::string& note) {
    for (auto& d : devices) {
      d.peer_links.clear();
      d.peer_links_down = 0;
      d.peer_links_note = note;
    }
  };
  const Library lib(library);
  if (!lib.loaded()) {
    const char* why = dlerror();
    return all(fmt::format("{} cannot be loaded ({}): NVLinks not read", library, why != nullptr ? why : "not found"));
  }
  Api api;
  if (auto missing = bind(lib, api)) return all(*missing + ": NVLinks not read");
  const Session session(api);
  if (session.result() != nvml::kSuccess) {
    return all(fmt::format("nvmlInit_v2 failed: {}: NVLinks not read", api.error(session.result())));
  }
  for (auto& d : devices) read_device(api, d);
}

}  // namespace xb::cuda
