// The fork-safe device probe (see cuda_probe.hpp).
#include "backends/cuda/cuda_probe.hpp"

#include <dlfcn.h>
#include <fmt/format.h>


#include "backends/child_answer.hpp"
#include "backends/pci_numa.hpp"
#include "backends/cuda/cuda_driver_version.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/cuda_nvlink.hpp"

namespace xb::cuda {
namespace {

// In the child: everything the parent needs, as one encoded answer.
Probe probe_in_this_process() {
  // Name the missing driver plainly: the runtime's own word for it is "insufficient driver".
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) {
    const char* why = dlerror();
    return {Support::no(fmt::format("no NVIDIA driver: libcuda.so.1 cannot be loaded ({})", why ? why : "not found")),
            {}};
  }
  // The driver's CUDA version before any runtime call: a runtime newer than the driver would fail
  // in its own words, or not at all until a kernel launch.
  using DriverGetVersion = int (*)(int*);
  const auto driver_get_version = reinterpret_cast<DriverGetVersion>(dlsym(driver, "cuDriverGetVersion"));
  if (driver_get_version == nullptr) return {Support::no("libcuda.so.1 has no cuDriverGetVersion: not an NVIDIA driver"), {}};
  int driver_version = 0;
  if (const int r = driver_get_version(&driver_version); r != 0) {
    return {Support::no(fmt::format("cuDriverGetVersion failed (CUresult {})", r)), {}};
  }
  if (const Support s = driver_runs_runtime(driver_version, CUDART_VERSION); !s.ok) return {s, {}};
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    return {Support::no(fmt::format("cudaGetDeviceCount failed: {}", error_text(e))), {}};
  }
  if (count == 0) return {Support::no("the NVIDIA driver is loaded but reports no CUDA device"), {}};
  Probe p;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (const cudaError_t e = cudaGetDeviceProperties(&prop, i); e != cudaSuccess) {
      return {Support::no(fmt::format("cudaGetDeviceProperties({}) failed: {}", i, error_text(e))), {}};
    }
    ProbedDevice d;
    d.name = prop.name;
    d.memory_bytes = prop.totalGlobalMem;
    d.pci_address = fmt::format("{:04x}:{:02x}:{:02x}.0", prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
    d.sm_count = prop.multiProcessorCount;
    p.devices.push_back(std::move(d));
  }
  read_nvlinks(p.devices);
  return p;
}


}  // namespace

Probe probe_devices(int timeout_ms) {
  const ChildAnswer answer =
      answer_from_child([] { return encode_probe(probe_in_this_process()); }, "the CUDA probe", timeout_ms);
  if (!answer.ok) return {Support::no(answer.text), {}};
  Probe p = decode_probe(answer.text);
  for (auto& d : p.devices) d.numa_node = numa_node_of_pci(d.pci_address);
  return p;
}

}  // namespace xb::cuda
