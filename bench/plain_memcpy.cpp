// The reference of bench/copy_bench.sh: a plain memcpy loop as a user would write it, in its own
// process over its own buffers (no xferbench code, allocator or thread in it), so that the copy
// job's figure is compared with what this machine's memcpy does and not with a second copy inside
// the measured program.
//   plain_memcpy BLOCK_BYTES BLOCKS ITERATIONS WARMUP
// Prints one line: "bytes_per_s <bytes of one iteration / the iterations' mean time>", the copy
// job's own statistic (its bandwidth is block_bytes * count / copy.avg); each iteration copies every
// block once, block by block, from one buffer into the other.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: plain_memcpy BLOCK_BYTES BLOCKS ITERATIONS WARMUP\n");
    return 2;
  }
  const std::size_t block = std::strtoull(argv[1], nullptr, 10);
  const std::size_t blocks = std::strtoull(argv[2], nullptr, 10);
  const int iterations = std::atoi(argv[3]);
  const int warmup = std::atoi(argv[4]);
  if (block == 0 || blocks == 0 || iterations <= 0 || warmup < 0) {
    std::fprintf(stderr, "plain_memcpy: sizes and iterations must be positive\n");
    return 2;
  }
  // Value-initialised: every page of both buffers is touched before the first timed copy.
  std::vector<unsigned char> src(block * blocks), dst(block * blocks);
  for (std::size_t i = 0; i < src.size(); i += 4096) src[i] = static_cast<unsigned char>(i >> 12);
  std::vector<double> seconds;
  for (int it = -warmup; it < iterations; ++it) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t b = 0; b < blocks; ++b) std::memcpy(dst.data() + b * block, src.data() + b * block, block);
    const auto t1 = std::chrono::steady_clock::now();
    if (it >= 0) seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  double mean = 0;
  for (double s : seconds) mean += s / static_cast<double>(seconds.size());
  // The destination is read back so the copies cannot be left out as dead stores.
  if (dst[0] != src[0]) return 1;
  std::printf("bytes_per_s %.6e\n", static_cast<double>(block * blocks) / mean);
  return 0;
}
