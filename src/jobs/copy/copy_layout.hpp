#pragma once
// How a copy's blocks are laid out over streams: block b goes to stream b % S (round-robin), each
// block split into fragments of nearly equal size. Pure arithmetic, unit-tested without a device.
#include <cstdint>
#include <vector>

#include "backends/device.hpp"

namespace xb {

// The copies of one stream, in submission order.
using StreamOps = std::vector<CopyOp>;

// One list per stream; `dst` and `src` each hold `blocks` blocks of `block_bytes`. Fragments 0 or 1:
// whole blocks; f > 1: f pieces a block, the first a byte larger where f does not divide it.
std::vector<StreamOps> layout_copies(std::byte* dst, const std::byte* src, std::uint64_t block_bytes,
                                     std::uint64_t blocks, int streams, std::uint64_t fragments);

// Every op in the order a per-copy submission issues them: block by block, fragment by fragment,
// each to its block's stream. Pairs of (stream index, op).
std::vector<std::pair<int, CopyOp>> submission_order(std::byte* dst, const std::byte* src,
                                                     std::uint64_t block_bytes, std::uint64_t blocks,
                                                     int streams, std::uint64_t fragments);

}  // namespace xb
