// How the copy job lays blocks out over streams (src/jobs/copy/copy_layout.hpp): round-robin blocks,
// fragments that tile each block exactly, submission block by block.
#include <gtest/gtest.h>

#include <vector>

#include "jobs/copy/copy_layout.hpp"

namespace xb {
namespace {

// The layout is pure arithmetic on pointers into two real arrays; nothing is copied here.
struct Buffers {
  explicit Buffers(std::size_t bytes) : src(bytes), dst(bytes) {}
  std::vector<std::byte> src, dst;
};

std::uint64_t src_offset(const Buffers& b, const CopyOp& op) {
  return static_cast<std::uint64_t>(static_cast<const std::byte*>(op.src) - b.src.data());
}
std::uint64_t dst_offset(const Buffers& b, const CopyOp& op) {
  return static_cast<std::uint64_t>(static_cast<const std::byte*>(op.dst) - b.dst.data());
}

TEST(CopyLayout, WholeBlocksRoundRobinOverStreams) {
  constexpr std::uint64_t kBlock = 4096, kBlocks = 10;
  constexpr int kStreams = 3;
  Buffers b(kBlock * kBlocks);
  const auto per_stream = layout_copies(b.dst.data(), b.src.data(), kBlock, kBlocks, kStreams, 0);
  ASSERT_EQ(per_stream.size(), 3u);
  // Blocks 0,3,6,9 | 1,4,7 | 2,5,8.
  EXPECT_EQ(per_stream[0].size(), 4u);
  EXPECT_EQ(per_stream[1].size(), 3u);
  EXPECT_EQ(per_stream[2].size(), 3u);
  for (int s = 0; s < kStreams; ++s) {
    const auto& ops = per_stream[static_cast<std::size_t>(s)];
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const std::uint64_t block = static_cast<std::uint64_t>(s) + i * kStreams;
      EXPECT_EQ(src_offset(b, ops[i]), block * kBlock) << "stream " << s << " op " << i;
      EXPECT_EQ(dst_offset(b, ops[i]), block * kBlock);
      EXPECT_EQ(ops[i].bytes, kBlock);
    }
  }
}

TEST(CopyLayout, MoreStreamsThanBlocksLeavesSomeEmpty) {
  Buffers b(2 * 512);
  const auto per_stream = layout_copies(b.dst.data(), b.src.data(), 512, 2, 4, 0);
  ASSERT_EQ(per_stream.size(), 4u);
  EXPECT_EQ(per_stream[0].size(), 1u);
  EXPECT_EQ(per_stream[1].size(), 1u);
  EXPECT_TRUE(per_stream[2].empty());
  EXPECT_TRUE(per_stream[3].empty());
}

TEST(CopyLayout, FragmentsZeroAndOneMeanWholeBlocks) {
  Buffers b(5 * 1000);
  const auto f0 = submission_order(b.dst.data(), b.src.data(), 1000, 5, 2, 0);
  const auto f1 = submission_order(b.dst.data(), b.src.data(), 1000, 5, 2, 1);
  ASSERT_EQ(f0.size(), 5u);
  ASSERT_EQ(f1.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(f0[i].second.bytes, 1000u);
    EXPECT_EQ(f1[i].first, f0[i].first);
    EXPECT_EQ(f1[i].second.src, f0[i].second.src);
    EXPECT_EQ(f1[i].second.bytes, f0[i].second.bytes);
  }
}

// The ops of each block tile it exactly: contiguous, no gap, no overlap, src and dst in step.
void expect_tiling(std::uint64_t block_bytes, std::uint64_t blocks, int streams, std::uint64_t fragments) {
  SCOPED_TRACE(testing::Message() << "block " << block_bytes << " blocks " << blocks << " streams " << streams
                                  << " fragments " << fragments);
  Buffers b(block_bytes * blocks);
  const auto order = submission_order(b.dst.data(), b.src.data(), block_bytes, blocks, streams, fragments);
  ASSERT_LE(fragments, block_bytes);  // validate_copy_plan refuses more fragments than bytes
  const std::uint64_t pieces = fragments > 1 ? fragments : 1;
  ASSERT_EQ(order.size(), blocks * pieces);
  const std::uint64_t small = block_bytes / pieces;
  const std::uint64_t larger = block_bytes % pieces;
  std::uint64_t expect_at = 0;  // submission is block by block, so the ops walk the buffer in order
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& [stream, op] = order[i];
    const std::uint64_t block = i / pieces;
    const std::uint64_t piece = i % pieces;
    EXPECT_EQ(stream, static_cast<int>(block % static_cast<std::uint64_t>(streams))) << "op " << i;
    EXPECT_EQ(src_offset(b, op), expect_at) << "op " << i;
    EXPECT_EQ(dst_offset(b, op), expect_at) << "op " << i;
    // The first (size % f) pieces are one byte larger.
    EXPECT_EQ(op.bytes, small + (piece < larger ? 1 : 0)) << "op " << i;
    EXPECT_GT(op.bytes, 0u);
    expect_at += op.bytes;
    if (piece == pieces - 1) {
      EXPECT_EQ(expect_at, (block + 1) * block_bytes) << "block " << block << " not tiled";
    }
  }
  EXPECT_EQ(expect_at, block_bytes * blocks);
}

TEST(CopyLayout, FragmentsTileEachBlockExactly) {
  expect_tiling(4096, 6, 4, 4);    // divides evenly
  expect_tiling(4096, 6, 4, 3);    // 1366, 1365, 1365
  expect_tiling(1000, 3, 2, 7);    // 143 x6, 142 x1
  expect_tiling(10, 2, 1, 10);     // one byte each
  expect_tiling(16384, 8, 3, 5);
}

TEST(CopyLayout, UnevenFragmentsFirstPiecesOneByteLarger) {
  Buffers b(10);
  const auto order = submission_order(b.dst.data(), b.src.data(), 10, 1, 1, 4);
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order[0].second.bytes, 3u);
  EXPECT_EQ(order[1].second.bytes, 3u);
  EXPECT_EQ(order[2].second.bytes, 2u);
  EXPECT_EQ(order[3].second.bytes, 2u);
}

TEST(CopyLayout, SubmissionOrderIsBlockByBlock) {
  Buffers b(4 * 100);
  const auto order = submission_order(b.dst.data(), b.src.data(), 100, 4, 2, 2);
  ASSERT_EQ(order.size(), 8u);
  // Block 0's two fragments (stream 0), then block 1's (stream 1), then block 2's (stream 0), ...
  const int want_stream[] = {0, 0, 1, 1, 0, 0, 1, 1};
  const std::uint64_t want_offset[] = {0, 50, 100, 150, 200, 250, 300, 350};
  for (std::size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(order[i].first, want_stream[i]) << "op " << i;
    EXPECT_EQ(src_offset(b, order[i].second), want_offset[i]) << "op " << i;
    EXPECT_EQ(order[i].second.bytes, 50u);
  }
}

TEST(CopyLayout, LayoutPerStreamKeepsSubmissionOrder) {
  Buffers b(7 * 300);
  const auto order = submission_order(b.dst.data(), b.src.data(), 300, 7, 3, 3);
  const auto per_stream = layout_copies(b.dst.data(), b.src.data(), 300, 7, 3, 3);
  std::vector<std::size_t> next(3, 0);
  std::size_t total = 0;
  for (const auto& [s, op] : order) {
    const auto& ops = per_stream[static_cast<std::size_t>(s)];
    ASSERT_LT(next[static_cast<std::size_t>(s)], ops.size());
    const CopyOp& got = ops[next[static_cast<std::size_t>(s)]++];
    EXPECT_EQ(got.src, op.src);
    EXPECT_EQ(got.dst, op.dst);
    EXPECT_EQ(got.bytes, op.bytes);
  }
  for (const auto& ops : per_stream) total += ops.size();
  EXPECT_EQ(total, order.size());
}

}  // namespace
}  // namespace xb
