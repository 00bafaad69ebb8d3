#pragma once
// The host-side arithmetic of the CUDA backend's copy paths, kept apart from the CUDA runtime so it
// is unit-tested on machines without a GPU (tests/cuda):
// - the argument arrays of one cudaMemcpyBatchAsync submission built from a list of CopyOps;
// - the launch geometry of the `sm` engine's copy kernel (16-byte loads where both ends allow);
// - the key under which a captured CUDA graph of a batch is reused;
// - where a list of copies must be cut so that no submission holds a copy and one it depends on.
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "backends/copy_order.hpp"
#include "backends/device.hpp"

namespace xb::cuda {

// One cudaMemcpyBatchAsync call's arrays (dsts, srcs, sizes), zero-byte copies dropped: the runtime
// refuses a size of 0, and a copy of nothing has nothing to order.
struct BatchArrays {
  std::vector<void*> dsts;
  std::vector<const void*> srcs;
  std::vector<std::size_t> sizes;
  std::size_t count() const { return sizes.size(); }
};
BatchArrays make_batch_arrays(std::span<const CopyOp> ops);

// Why a module built with the CUDA runtime `cudart_version` (CUDART_VERSION: 12040 for 12.4) has no
// batch API: "cudaMemcpyBatchAsync needs CUDA 12.8; this module was built with CUDA 12.4".
std::string batch_api_absent(int cudart_version);

// A content key for a list of copies: the same ops give the same key, so a graph captured for one
// iteration's batch is replayed for the next instead of being captured again.
std::uint64_t batch_key(std::span<const CopyOp> ops);

// Where a list of copies must be cut (backends/copy_order.hpp), as the CUDA paths use it.
using xb::copies_depend;
using xb::CopyFootprint;
using xb::CopyRun;
using xb::independent_runs;

// One address as cudaPointerGetAttributes describes it, reduced to what the batch API's rule needs.
struct PointerView {
  bool host = false;                   // cudaMemoryTypeHost: pinned or registered host memory
  bool device_address_differs = false; // its devicePointer is not the address itself
};
// Whether cudaMemcpyBatchAsync may be given the address: anything but host memory whose device
// address differs from it, on a device that cannot use host pointers of registered memory
// (cudaDevAttrCanUseHostPointerForRegisteredMem 0).
bool batch_api_takes(const PointerView& p, bool device_uses_host_pointers);

// How the sm engine's kernel covers one copy: `vector_bytes` moved as 16-byte words by `blocks` x
// `threads` threads in a grid-stride loop, the rest (a misaligned copy, or the tail) byte by byte.
struct SmLaunch {
  unsigned blocks = 0;
  unsigned threads = 0;
  std::size_t vector_bytes = 0;  // a multiple of 16, possibly 0
  std::size_t tail_bytes = 0;    // bytes - vector_bytes
};
// `sm_count`: the device's multiprocessors; the grid is sized to keep every one busy without
// launching more blocks than there are 16-byte words.
SmLaunch sm_launch_for(const void* dst, const void* src, std::size_t bytes, int sm_count);

}  // namespace xb::cuda
