#pragma once
// What CUDA devices this machine has, found without touching the CUDA runtime in this process.
//
// Jobs query a backend in the parent and then fork one process per device; a process that has
// initialized CUDA cannot hand a working CUDA to its forked children. So the probe forks a short-
// lived child that loads the driver, counts the devices and reads their properties, and sends the
// answer back over a pipe; this process stays CUDA-free until a device is opened in it.
#include <cstdint>
#include <string>
#include <vector>

#include "backends/device.hpp"
#include "core/support.hpp"

namespace xb::cuda {

struct ProbedDevice {
  std::string name;             // "NVIDIA H200"
  std::uint64_t memory_bytes = 0;
  std::string pci_address;      // "0000:18:00.0"
  int numa_node = -1;           // from sysfs, -1 where unknown
  int sm_count = 0;             // multiprocessors (sizes the sm engine's grid)
  // Its NVLinks, read from NVML (cuda_nvlink.hpp): DeviceInfo's fields of the same names.
  std::vector<PeerLink> peer_links;
  int peer_links_down = 0;
  std::string peer_links_note;
};

struct Probe {
  Support support;                    // !ok: why no CUDA device can be used here
  std::vector<ProbedDevice> devices;  // empty unless support.ok
};

// Runs the probe (forks once; waits at most `timeout_ms` for the child).
Probe probe_devices(int timeout_ms = 60000);

// The probe's wire format, apart so it is unit-tested: "ok\n" then one line per device of
// tab-separated name, memory, pci, sm count, links down, peer links (";"-separated entries of
// ","-separated technology, far end, switch 0/1, links, bytes/s), the peer links' note; or "no\n"
// and the reason.
std::string encode_probe(const Probe& p);
Probe decode_probe(const std::string& text);

}  // namespace xb::cuda
