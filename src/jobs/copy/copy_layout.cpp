#include "jobs/copy/copy_layout.hpp"

namespace xb {

std::vector<std::pair<int, CopyOp>> submission_order(std::byte* dst, const std::byte* src,
                                                     std::uint64_t block_bytes, std::uint64_t blocks,
                                                     int streams, std::uint64_t fragments) {
  const std::uint64_t pieces = fragments > 1 ? fragments : 1;
  std::vector<std::pair<int, CopyOp>> out;
  out.reserve(blocks * pieces);
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const int stream = static_cast<int>(b % static_cast<std::uint64_t>(streams));
    const std::uint64_t base = b * block_bytes;
    const std::uint64_t small = block_bytes / pieces;
    const std::uint64_t larger = block_bytes % pieces;  // this many pieces get one byte more
    std::uint64_t offset = base;
    for (std::uint64_t p = 0; p < pieces; ++p) {
      const std::uint64_t len = small + (p < larger ? 1 : 0);
      if (len == 0) continue;
      out.emplace_back(stream, CopyOp{dst + offset, src + offset, len});
      offset += len;
    }
  }
  return out;
}

std::vector<StreamOps> layout_copies(std::byte* dst, const std::byte* src, std::uint64_t block_bytes,
                                     std::uint64_t blocks, int streams, std::uint64_t fragments) {
  std::vector<StreamOps> per_stream(static_cast<std::size_t>(streams));
  for (const auto& [s, op] : submission_order(dst, src, block_bytes, blocks, streams, fragments)) {
    per_stream[static_cast<std::size_t>(s)].push_back(op);
  }
  return per_stream;
}

}  // namespace xb
