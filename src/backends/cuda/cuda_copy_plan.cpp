#include "backends/cuda/cuda_copy_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace xb::cuda {

BatchArrays make_batch_arrays(std::span<const CopyOp> ops) {
  BatchArrays a;
  a.dsts.reserve(ops.size());
  a.srcs.reserve(ops.size());
  a.sizes.reserve(ops.size());
  for (const CopyOp& op : ops) {
    if (op.bytes == 0) continue;
    a.dsts.push_back(op.dst);
    a.srcs.push_back(op.src);
    a.sizes.push_back(op.bytes);
  }
  return a;
}

std::uint64_t batch_key(std::span<const CopyOp> ops) {
  // FNV-1a over the three words of every op, in order (order matters to a stream's graph).
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  mix(ops.size());
  for (const CopyOp& op : ops) {
    mix(reinterpret_cast<std::uintptr_t>(op.dst));
    mix(reinterpret_cast<std::uintptr_t>(op.src));
    mix(op.bytes);
  }
  return h;
}

SmLaunch sm_launch_for(const void* dst, const void* src, std::size_t bytes, int sm_count) {
  constexpr std::size_t kWord = 16;
  constexpr unsigned kThreads = 512;
  constexpr unsigned kBlocksPerSm = 4;  // enough loads in flight to cover memory latency
  SmLaunch l;
  l.threads = kThreads;
  const auto d = reinterpret_cast<std::uintptr_t>(dst);
  const auto s = reinterpret_cast<std::uintptr_t>(src);
  // 16-byte words only when both ends are 16-byte aligned; else everything goes byte by byte.
  const bool aligned = d % kWord == 0 && s % kWord == 0;
  l.vector_bytes = aligned ? bytes / kWord * kWord : 0;
  l.tail_bytes = bytes - l.vector_bytes;
  const std::size_t units = l.vector_bytes != 0 ? l.vector_bytes / kWord : l.tail_bytes;
  const std::size_t needed = (units + kThreads - 1) / kThreads;
  const std::size_t cap = static_cast<std::size_t>(std::max(1, sm_count)) * kBlocksPerSm;
  l.blocks = static_cast<unsigned>(std::clamp<std::size_t>(needed, 1, cap));
  return l;
}

bool batch_api_takes(const PointerView& p, bool device_uses_host_pointers) {
  return device_uses_host_pointers || !p.host || !p.device_address_differs;
}

std::string batch_api_absent(int cudart_version) {
  return fmt::format("cudaMemcpyBatchAsync needs CUDA 12.8; this module was built with CUDA {}.{}",
                     cudart_version / 1000, cudart_version % 1000 / 10);
}

}  // namespace xb::cuda
