#pragma once
// The NVLinks of the probed CUDA devices, read from NVML (libnvidia-ml.so.1, loaded at run time):
// for each device its active links grouped by far end (a peer GPU, or the NVSwitch fabric), their
// rate per direction, and the links that are not active. What the judge sets p2p against instead of
// PCIe (judge/peer_link_ceiling). NVML creates no CUDA context, but it runs in the probe's child all
// the same, beside the rest of what the parent learns about the devices.
#include <string>
#include <vector>

#include "backends/cuda/cuda_probe.hpp"

namespace xb::cuda {

inline constexpr const char* kNvmlLibrary = "libnvidia-ml.so.1";

// Fills each device's peer_links, peer_links_down and peer_links_note (why nothing was read, where
// so: the library absent, a call failed, no NVLink on the device). Never throws.
void read_nvlinks(std::vector<ProbedDevice>& devices, const char* library = kNvmlLibrary);

// One NVLink's rate per direction from its NVML version (bytes/s; 0 where the version is unknown):
// NVIDIA's published per-link figures, used where NVML's speed field is not supported.
double nvlink_version_bytes_per_second(unsigned version);
// "NVLink 4.0" (version 6); "NVLink" where the version is unknown.
std::string nvlink_version_name(unsigned version);

}  // namespace xb::cuda
