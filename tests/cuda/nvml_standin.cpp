// A stand-in for NVML (libnvidia-ml.so.1), for the NVLink reader's tests on a machine without an
// NVIDIA driver: the calls cuda_nvlink.cpp makes, over a topology given in the environment, with
// the contract the real library enforces checked on every call and each breach counted:
//   - nothing before nvmlInit_v2, nothing after the last nvmlShutdown (NVML_ERROR_UNINITIALIZED);
//   - device handles only as nvmlDeviceGetHandleByPciBusId_v2 gave them (NVML_ERROR_INVALID_ARGUMENT);
//   - a link index past the device's links: NVML_ERROR_INVALID_ARGUMENT (not a breach: asking is
//     how a caller finds the count); a device without NVLink: NVML_ERROR_NOT_SUPPORTED;
//   - the far end or version of a link that is not active: NVML_ERROR_NOT_SUPPORTED, a breach (the
//     caller must ask the state first);
//   - nvmlInit_v2 and nvmlShutdown balanced when the caller is done (xb_nvml_standin_open_sessions).
// The environment, read at each nvmlInit_v2:
//   XB_NVML_STANDIN_DEVICES  "PCI=LINKS;PCI=LINKS": LINKS is "none" (no NVLink) or comma-separated
//                            "N*switch", "N*gpu@PCI", "N*cpu" (active links) and "N*down"
//   XB_NVML_STANDIN_SPEED_MBPS  NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON; unset: the field is not supported
//   XB_NVML_STANDIN_VERSION     what nvmlDeviceGetNvLinkVersion reports (default 6, NVLink 4.0)
//   XB_NVML_STANDIN_FAIL        one function's name: it fails with NVML_ERROR_UNKNOWN
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cuda/nvml_api.hpp"

namespace nv = xb::cuda::nvml;

namespace {

struct Link {
  bool active = false;
  int type = nv::kRemoteSwitch;
  unsigned domain = 0, bus = 0, device = 0;  // the far GPU's address
};

struct FakeDevice {
  unsigned domain = 0, bus = 0, device = 0;
  bool nvlink = true;
  std::vector<Link> links;
};

// "0000:18:00.0" or "00000000:18:00.0" → domain, bus, device (the function is ignored, as NVML's).
bool parse_pci(const std::string& text, unsigned& domain, unsigned& bus, unsigned& device) {
  unsigned function = 0;
  return std::sscanf(text.c_str(), "%x:%x:%x.%x", &domain, &bus, &device, &function) == 4;
}

std::vector<std::string> split(const std::string& s, char by) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from <= s.size()) {
    const std::size_t at = s.find(by, from);
    out.push_back(s.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) break;
    from = at + 1;
  }
  return out;
}

// The library's one state: the real NVML keeps its own too (a process-wide session count).
struct State {
  std::mutex mutex;
  int sessions = 0;
  int violations = 0;
  std::map<std::string, int> calls;
  std::deque<FakeDevice> devices;  // handles point into it: a deque keeps them valid
  unsigned speed_mbps = 0;
  unsigned version = 6;
  std::string fail;
};

State& state() {
  static State s;
  return s;
}

void configure(State& s) {
  s.devices.clear();
  const char* devices = std::getenv("XB_NVML_STANDIN_DEVICES");
  for (const auto& entry : split(devices != nullptr ? devices : "", ';')) {
    if (entry.empty()) continue;
    const auto eq = entry.find('=');
    FakeDevice d;
    if (eq == std::string::npos || !parse_pci(entry.substr(0, eq), d.domain, d.bus, d.device)) {
      std::fprintf(stderr, "nvml stand-in: unreadable device '%s'\n", entry.c_str());
      std::abort();
    }
    const std::string links = entry.substr(eq + 1);
    if (links == "none") {
      d.nvlink = false;
    } else {
      for (const auto& group : split(links, ',')) {
        const auto star = group.find('*');
        const int n = std::atoi(group.substr(0, star).c_str());
        const std::string what = group.substr(star + 1);
        Link l;
        l.active = what != "down";
        if (what.rfind("gpu@", 0) == 0) {
          l.type = nv::kRemoteGpu;
          if (!parse_pci(what.substr(4), l.domain, l.bus, l.device)) std::abort();
        } else if (what == "cpu") {
          l.type = nv::kRemoteIbmNpu;
        } else if (what != "switch" && what != "down") {
          std::fprintf(stderr, "nvml stand-in: unreadable links '%s'\n", group.c_str());
          std::abort();
        }
        for (int i = 0; i < n; ++i) d.links.push_back(l);
      }
    }
    s.devices.push_back(d);
  }
  const char* speed = std::getenv("XB_NVML_STANDIN_SPEED_MBPS");
  s.speed_mbps = speed != nullptr ? static_cast<unsigned>(std::strtoul(speed, nullptr, 10)) : 0;
  const char* version = std::getenv("XB_NVML_STANDIN_VERSION");
  s.version = version != nullptr ? static_cast<unsigned>(std::strtoul(version, nullptr, 10)) : 6;
  const char* fail = std::getenv("XB_NVML_STANDIN_FAIL");
  s.fail = fail != nullptr ? fail : "";
}

// Every call's common checks: counted, the injected failure, a session open.
nv::Return enter(State& s, const char* name) {
  ++s.calls[name];
  if (s.fail == name) return nv::kErrorUnknown;
  if (s.sessions == 0) {
    ++s.violations;
    return nv::kErrorUninitialized;
  }
  return nv::kSuccess;
}

FakeDevice* device_of(State& s, nv::Device handle) {
  for (auto& d : s.devices) {
    if (reinterpret_cast<nv::Device>(&d) == handle) return &d;
  }
  ++s.violations;
  return nullptr;
}

// The link a query is about: nullptr with `r` set when there is none to answer for.
const Link* link_of(State& s, nv::Device handle, unsigned link, bool must_be_active, nv::Return& r) {
  FakeDevice* d = device_of(s, handle);
  if (d == nullptr) {
    r = nv::kErrorInvalidArgument;
    return nullptr;
  }
  if (!d->nvlink) {
    r = nv::kErrorNotSupported;
    return nullptr;
  }
  if (link >= d->links.size()) {
    r = nv::kErrorInvalidArgument;
    return nullptr;
  }
  if (must_be_active && !d->links[link].active) {
    ++s.violations;
    r = nv::kErrorNotSupported;
    return nullptr;
  }
  r = nv::kSuccess;
  return &d->links[link];
}

}  // namespace

extern "C" {

nv::Return nvmlInit_v2() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  ++s.calls["nvmlInit_v2"];
  if (s.sessions == 0) configure(s);  // the environment as it is now: each test sets its own
  if (s.fail == "nvmlInit_v2") return nv::kErrorUnknown;
  ++s.sessions;
  return nv::kSuccess;
}

nv::Return nvmlShutdown() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (const auto r = enter(s, "nvmlShutdown"); r != nv::kSuccess) return r;
  --s.sessions;
  return nv::kSuccess;
}

const char* nvmlErrorString(nv::Return r) {
  switch (r) {
    case nv::kSuccess: return "Success";
    case nv::kErrorUninitialized: return "Uninitialized";
    case nv::kErrorInvalidArgument: return "Invalid Argument";
    case nv::kErrorNotSupported: return "Not Supported";
    case nv::kErrorNotFound: return "Not Found";
    default: return "Unknown Error";
  }
}

nv::Return nvmlDeviceGetHandleByPciBusId_v2(const char* pci_bus_id, nv::Device* device) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (const auto r = enter(s, "nvmlDeviceGetHandleByPciBusId_v2"); r != nv::kSuccess) return r;
  unsigned domain = 0, bus = 0, dev = 0;
  if (pci_bus_id == nullptr || device == nullptr || !parse_pci(pci_bus_id, domain, bus, dev)) {
    ++s.violations;
    return nv::kErrorInvalidArgument;
  }
  for (auto& d : s.devices) {
    if (d.domain == domain && d.bus == bus && d.device == dev) {
      *device = reinterpret_cast<nv::Device>(&d);
      return nv::kSuccess;
    }
  }
  return nv::kErrorNotFound;
}

nv::Return nvmlDeviceGetNvLinkState(nv::Device device, unsigned link, int* is_active) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (const auto r = enter(s, "nvmlDeviceGetNvLinkState"); r != nv::kSuccess) return r;
  nv::Return r;
  const Link* l = link_of(s, device, link, false, r);
  if (l != nullptr) *is_active = l->active ? nv::kFeatureEnabled : 0;
  return r;
}

nv::Return nvmlDeviceGetNvLinkRemoteDeviceType(nv::Device device, unsigned link, int* type) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (const auto r = enter(s, "nvmlDeviceGetNvLinkRemoteDeviceType"); r != nv::kSuccess) return r;
  nv::Return r;
  const Link* l = link_of(s, device, link, true, r);
  if (l != nullptr) *type = l->type;
  return r;
}

nv::Return nvmlDeviceGetNvLinkRemotePciInfo_v2(nv::Device device, unsigned link, nv::PciInfo* pci) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (const auto r = enter(s, "nvmlDeviceGetNvLinkRemotePciInfo_v2"); r != nv::kSuccess) return r;
  nv::Return r;
  const Link* l = link_of(s, device, link, true, r);
  if (l == nullptr) return r;
  // NVML names the far end of a switch link too (the switch's own PCI function); a GPU's here.
  std::memset(pci, 0, sizeof *pci);
  pci->domain = l->domain;
  pci->bus = l->bus;
  pci->device = l->device;
  std::snprintf(pci->bus_id, sizeof pci->bus_id, "%08X:%02X:%02X.0", l->domain, l->bus, l->device);
  std::snprintf(pci->bus_id_legacy, sizeof pci->bus_id_legacy, "%04X:%02X:%02X.0", l->domain, l->bus, l->device);
  return nv::kSuccess;
}

nv::Return nvmlDeviceGetNvLinkVersion(nv::Device device, unsigned link, unsigned* version) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (const auto r = enter(s, "nvmlDeviceGetNvLinkVersion"); r != nv::kSuccess) return r;
  nv::Return r;
  const Link* l = link_of(s, device, link, true, r);
  if (l != nullptr) *version = s.version;
  return r;
}

nv::Return nvmlDeviceGetFieldValues(nv::Device device, int count, nv::FieldValue* values) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (const auto r = enter(s, "nvmlDeviceGetFieldValues"); r != nv::kSuccess) return r;
  if (device_of(s, device) == nullptr || count <= 0 || values == nullptr) {
    ++s.violations;
    return nv::kErrorInvalidArgument;
  }
  for (int i = 0; i < count; ++i) {
    nv::FieldValue& v = values[i];
    if (v.field_id == nv::kFieldNvlinkSpeedCommonMBps && s.speed_mbps > 0) {
      v.value_type = nv::kValueUnsignedInt;
      v.value.ui = s.speed_mbps;
      v.result = nv::kSuccess;
    } else {
      v.result = nv::kErrorNotSupported;
    }
  }
  return nv::kSuccess;
}

// For the tests: the contract's breaches so far, the sessions left open, how often `name` ran;
// and a reset between tests.
int xb_nvml_standin_violations() {
  std::lock_guard lock(state().mutex);
  return state().violations;
}
int xb_nvml_standin_open_sessions() {
  std::lock_guard lock(state().mutex);
  return state().sessions;
}
int xb_nvml_standin_calls(const char* name) {
  std::lock_guard lock(state().mutex);
  return state().calls[name];
}
void xb_nvml_standin_reset() {
  std::lock_guard lock(state().mutex);
  state().violations = 0;
  state().calls.clear();
}

}  // extern "C"
