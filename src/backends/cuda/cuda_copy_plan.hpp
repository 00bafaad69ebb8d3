#pragma once
// The host-side arithmetic of the CUDA backend's copy paths, kept apart from the CUDA runtime so it
// is unit-tested on machines without a GPU (tests/cuda):
// - the argument arrays of one cudaMemcpyBatchAsync submission built from a list of CopyOps;
// - the launch geometry of the `sm` engine's copy kernel (16-byte loads where both ends allow);
// - the key under which a captured CUDA graph of a batch is reused.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

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

// A content key for a list of copies: the same ops give the same key, so a graph captured for one
// iteration's batch is replayed for the next instead of being captured again.
std::uint64_t batch_key(std::span<const CopyOp> ops);

// How the sm engine's kernel covers one copy: `vector_bytes` moved as 16-byte words by `blocks` x
// `threads` threads in a grid-stride loop, the rest (a misaligned copy, or the tail) byte by byte.
// Whether `later` depends on `earlier` (it reads what `earlier` writes, or writes what `earlier`
// reads or writes). cudaMemcpyBatchAsync orders nothing within one batch, so the batch engine
// submits what it holds before it takes a copy that depends on one of them: a Stream stays an
// in-order queue.
bool copies_depend(const CopyOp& earlier, const CopyOp& later);

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
