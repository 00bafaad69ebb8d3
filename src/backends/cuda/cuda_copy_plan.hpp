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

// Whether `later` depends on `earlier` (it reads what `earlier` writes, or writes what `earlier`
// reads or writes). cudaMemcpyBatchAsync orders nothing within one batch, so the batch engine
// submits what it holds before it takes a copy that depends on one of them: a Stream stays an
// in-order queue.
bool copies_depend(const CopyOp& earlier, const CopyOp& later);

// The bytes a run of copies reads and writes, kept as merged address intervals, so whether the next
// copy depends on any of them (copies_depend against each) is answered in O(log n): a batch of many
// small fragments would otherwise cost a comparison with every copy before it.
class CopyFootprint {
 public:
  bool conflicts(const CopyOp& later) const;
  void add(const CopyOp& op);
  void clear();
  bool empty() const { return reads_.empty() && writes_.empty(); }

 private:
  // start -> end, disjoint, sorted; touching intervals are merged (the bytes covered are the same).
  using Intervals = std::map<std::uintptr_t, std::uintptr_t>;
  static bool overlaps(const Intervals& set, const void* p, std::size_t bytes);
  static void insert(Intervals& set, const void* p, std::size_t bytes);
  Intervals reads_, writes_;
};

// A list of copies cut into runs, in order, none of which holds a copy depending on an earlier one
// of the same run: each run may go out as one submission that orders nothing within it. Runs are
// [begin, end) indexes into `ops`; zero-byte copies depend on nothing.
struct CopyRun {
  std::size_t begin = 0;
  std::size_t end = 0;
};
std::vector<CopyRun> independent_runs(std::span<const CopyOp> ops);

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
