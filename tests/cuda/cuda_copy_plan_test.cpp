#include "backends/cuda/cuda_copy_plan.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace xb::cuda {
namespace {

std::byte* at(std::uintptr_t a) { return reinterpret_cast<std::byte*>(a); }

TEST(CudaBatchArrays, KeepsOrderAndDropsEmptyCopies) {
  const std::array<CopyOp, 4> ops{CopyOp{at(0x1000), at(0x9000), 64}, CopyOp{at(0x2000), at(0xa000), 0},
                                  CopyOp{at(0x3000), at(0xb000), 4096}, CopyOp{at(0x4000), at(0xc000), 1}};
  const BatchArrays a = make_batch_arrays(ops);
  ASSERT_EQ(a.count(), 3u);
  EXPECT_EQ(a.dsts, (std::vector<void*>{at(0x1000), at(0x3000), at(0x4000)}));
  EXPECT_EQ(a.srcs, (std::vector<const void*>{at(0x9000), at(0xb000), at(0xc000)}));
  EXPECT_EQ(a.sizes, (std::vector<std::size_t>{64, 4096, 1}));
}

TEST(CudaBatchArrays, EmptyListGivesEmptyArrays) { EXPECT_EQ(make_batch_arrays({}).count(), 0u); }

// A module built with a toolkit before 12.8 says which it was built with and which it needs.
TEST(CudaBatchApi, ItsAbsenceNamesTheToolkitBuiltWithAndTheOneNeeded) {
  EXPECT_EQ(batch_api_absent(12040), "cudaMemcpyBatchAsync needs CUDA 12.8; this module was built with CUDA 12.4");
  EXPECT_EQ(batch_api_absent(12000), "cudaMemcpyBatchAsync needs CUDA 12.8; this module was built with CUDA 12.0");
  EXPECT_EQ(batch_api_absent(12070), "cudaMemcpyBatchAsync needs CUDA 12.8; this module was built with CUDA 12.7");
}

TEST(CudaBatchKey, SameOpsSameKeyAnyChangeAnotherKey) {
  std::array<CopyOp, 2> ops{CopyOp{at(0x1000), at(0x9000), 64}, CopyOp{at(0x2000), at(0xa000), 128}};
  const auto base = batch_key(ops);
  EXPECT_EQ(batch_key(ops), base);
  auto changed = ops;
  changed[1].bytes = 129;
  EXPECT_NE(batch_key(changed), base);
  changed = ops;
  changed[0].dst = at(0x1010);
  EXPECT_NE(batch_key(changed), base);
  changed = ops;
  changed[0].src = at(0x9010);
  EXPECT_NE(batch_key(changed), base);
  // Order matters: a graph replays its copies in capture order.
  const std::array<CopyOp, 2> swapped{ops[1], ops[0]};
  EXPECT_NE(batch_key(swapped), base);
  EXPECT_NE(batch_key(std::span(ops).first(1)), base);
}

// The batch engine's ordering rule: what DeviceStage queues (bounce -> device, then device ->
// bounce) depends; copies of distinct blocks (the copy job's) do not, and stay in one batch.
TEST(CudaCopiesDepend, ReadAfterWriteWriteAfterWriteAndWriteAfterReadDepend) {
  std::byte a[64], b[64], c[64], d[64];
  const CopyOp in{b, a, 64};  // a -> b
  EXPECT_TRUE(copies_depend(in, {a, b, 64}));        // b -> a reads what `in` wrote
  EXPECT_TRUE(copies_depend(in, {b + 63, c, 1}));    // writes the last byte `in` wrote
  EXPECT_TRUE(copies_depend(in, {a + 10, c, 4}));    // writes what `in` reads
  EXPECT_TRUE(copies_depend(in, {c, b + 32, 8}));    // reads what `in` wrote
  EXPECT_FALSE(copies_depend(in, {d, c, 64}));       // c -> d: unrelated
  EXPECT_FALSE(copies_depend(in, {c, a, 64}));       // both read a: no order needed
  EXPECT_FALSE(copies_depend(in, {b, a, 0}));        // an empty copy touches nothing
  const CopyOp half{b, a, 32};
  EXPECT_FALSE(copies_depend(half, {b + 32, a + 32, 32}));  // adjacent, not overlapping
}

// The footprint answers as copies_depend against every copy added, on random copies over a small
// address range (so overlaps, adjacency and containment all occur), including after a clear().
TEST(CudaCopyFootprint, AgreesWithCopiesDependAgainstEveryCopyAdded) {
  std::mt19937_64 rng(20261201);
  auto random_op = [&rng] {
    const std::uintptr_t base = 0x100000;
    const std::size_t bytes = rng() % 5 == 0 ? 0 : 1 + rng() % 96;
    return CopyOp{at(base + rng() % 1024), at(base + rng() % 1024), bytes};
  };
  for (int round = 0; round < 200; ++round) {
    CopyFootprint footprint;
    std::vector<CopyOp> added;
    for (int i = 0; i < 40; ++i) {
      const CopyOp op = random_op();
      bool want = false;
      for (const CopyOp& e : added) want = want || copies_depend(e, op);
      ASSERT_EQ(footprint.conflicts(op), want) << "round " << round << " copy " << i;
      footprint.add(op);
      added.push_back(op);
      if (i == 20) {
        footprint.clear();
        added.clear();
        EXPECT_TRUE(footprint.empty());
      }
    }
  }
}

TEST(CudaCopyFootprint, EdgesOfMergedIntervals) {
  CopyFootprint f;
  f.add({at(0x2000), at(0x1000), 0x100});  // reads [0x1000,0x1100), writes [0x2000,0x2100)
  f.add({at(0x2100), at(0x1100), 0x100});  // touching both: merged into one interval each
  EXPECT_FALSE(f.conflicts({at(0x3000), at(0x1000), 0x200}));   // reading what was read
  EXPECT_TRUE(f.conflicts({at(0x3000), at(0x21ff), 1}));        // the last byte written
  EXPECT_FALSE(f.conflicts({at(0x3000), at(0x2200), 1}));       // just past it
  EXPECT_FALSE(f.conflicts({at(0x1fff), at(0x3000), 1}));       // just before the writes
  EXPECT_TRUE(f.conflicts({at(0x0fff), at(0x3000), 2}));        // writes the first byte read
  EXPECT_TRUE(f.conflicts({at(0x0), at(0x3000), 0x10000}));     // covers everything
  EXPECT_FALSE(f.conflicts({at(0x1000), at(0x2000), 0}));       // an empty copy touches nothing
}

// A batch is cut before each copy that depends on one earlier in its run, and only there.
TEST(CudaIndependentRuns, CutAtTheFirstDependentCopy) {
  std::byte a[64], b[64], c[64], d[64];
  const std::array<CopyOp, 5> ops{{{b, a, 64}, {d, c, 64}, {c, b, 64}, {a, d, 32}, {b + 32, c + 32, 32}}};
  // Run 1: a -> b, c -> d. Run 2: b -> c reads b, which run 1 wrote; d -> a touches neither b nor c.
  // Run 3: c+32 -> b+32 reads c, which run 2 wrote.
  const auto runs = independent_runs(ops);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].begin, 0u);
  EXPECT_EQ(runs[0].end, 2u);
  EXPECT_EQ(runs[1].begin, 2u);
  EXPECT_EQ(runs[1].end, 4u);
  EXPECT_EQ(runs[2].begin, 4u);
  EXPECT_EQ(runs[2].end, 5u);
  // Distinct blocks (the copy job's batches): one run; nothing: no run.
  std::vector<CopyOp> blocks;
  static std::byte src[4096], dst[4096];
  for (int i = 0; i < 64; ++i) blocks.push_back({dst + 64 * i, src + 64 * i, 64});
  ASSERT_EQ(independent_runs(blocks).size(), 1u);
  EXPECT_EQ(independent_runs(blocks)[0].end, 64u);
  EXPECT_TRUE(independent_runs({}).empty());
}

// Registered host memory goes to the batch API only where the device can use its host address.
TEST(CudaBatchApi, TakesRegisteredHostAddressesOnlyWhereTheDeviceCanUseThem) {
  const PointerView registered{true, true}, pinned_same{true, false}, device{false, false};
  EXPECT_TRUE(batch_api_takes(registered, true));
  EXPECT_FALSE(batch_api_takes(registered, false));
  EXPECT_TRUE(batch_api_takes(pinned_same, false));  // cudaHostAlloc'd: the same address on both sides
  EXPECT_TRUE(batch_api_takes(device, false));
  EXPECT_TRUE(batch_api_takes(device, true));
}

TEST(CudaSmLaunch, AlignedCopyIsAllWordsButTheTail) {
  const SmLaunch l = sm_launch_for(at(0x10000), at(0x20000), (64u << 20) + 5, 132);
  EXPECT_EQ(l.vector_bytes, 64u << 20);
  EXPECT_EQ(l.tail_bytes, 5u);
  EXPECT_EQ(l.threads, 512u);
  EXPECT_EQ(l.blocks, 132u * 4);  // capped at the device's width, the grid-stride loop does the rest
}

TEST(CudaSmLaunch, MisalignedEndGoesByteByByte) {
  for (std::uintptr_t skew : {1u, 8u, 15u}) {
    const SmLaunch d = sm_launch_for(at(0x10000 + skew), at(0x20000), 4096, 132);
    EXPECT_EQ(d.vector_bytes, 0u) << skew;
    EXPECT_EQ(d.tail_bytes, 4096u) << skew;
    const SmLaunch s = sm_launch_for(at(0x10000), at(0x20000 + skew), 4096, 132);
    EXPECT_EQ(s.vector_bytes, 0u) << skew;
    EXPECT_EQ(s.tail_bytes, 4096u) << skew;
  }
}

TEST(CudaSmLaunch, SmallCopiesLaunchNoMoreBlocksThanWork) {
  const SmLaunch one = sm_launch_for(at(0x10000), at(0x20000), 16, 132);
  EXPECT_EQ(one.blocks, 1u);
  EXPECT_EQ(one.vector_bytes, 16u);
  const SmLaunch some = sm_launch_for(at(0x10000), at(0x20000), 16 * 512 * 3 + 16, 132);
  EXPECT_EQ(some.blocks, 4u);  // 3 full blocks of 512 words and one more word
  const SmLaunch bytes = sm_launch_for(at(0x10001), at(0x20000), 3, 132);
  EXPECT_EQ(bytes.blocks, 1u);
  EXPECT_EQ(bytes.tail_bytes, 3u);
  // An unknown multiprocessor count still launches something.
  EXPECT_GE(sm_launch_for(at(0x10000), at(0x20000), 1u << 30, 0).blocks, 1u);
}

TEST(CudaSmLaunch, EveryByteIsCoveredOnce) {
  for (std::size_t bytes : {0ul, 1ul, 15ul, 16ul, 17ul, 4095ul, 1000003ul}) {
    const SmLaunch l = sm_launch_for(at(0x10000), at(0x20000), bytes, 8);
    EXPECT_EQ(l.vector_bytes + l.tail_bytes, bytes);
    EXPECT_EQ(l.vector_bytes % 16, 0u);
    EXPECT_LT(l.tail_bytes, l.vector_bytes == 0 ? bytes + 1 : 16u);
  }
}

}  // namespace
}  // namespace xb::cuda
