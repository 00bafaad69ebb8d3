#pragma once
// The copy job's engine when none is asked for: where a backend copies host RAM itself (the cpu
// backend) and has more than one engine, and a pass moves 16 MiB or more, each engine copies the
// plan's own work (its blocks, at most 64 MiB of them) over two plain buffers and the fastest is
// used (the first engine unless another is 10% faster), named in the result; the
// other engines' figures go beside it, as nvbandwidth shows copy engines and SM copies side by
// side. Plain memcpy is not the machine's best copy of a large buffer (non-temporal stores skip
// the destination's read, docs/copy.md), and a fixed default would under-report the machine.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/device.hpp"

namespace xb {

struct EngineFigure {
  std::string engine;
  double bytes_per_s = 0;
};

struct EngineChoice {
  std::string engine;  // the fastest
  std::string why;     // every engine's figure and what was copied
};

// The fastest of `figures` where it is at least 10% faster than the first (the backend's plainest),
// else the first; with the sentence that says so. `figures` is not empty.
EngineChoice fastest_engine(const std::vector<EngineFigure>& figures, std::uint64_t block_bytes, std::uint64_t blocks);

// nullopt where there is nothing to choose (one engine, device memory the host cannot copy itself,
// or a pass under 16 MiB: the first engine then); otherwise each engine timed over the plan's blocks (one untimed pass, the best of three).
std::optional<EngineChoice> choose_copy_engine(Backend& backend, std::uint64_t block_bytes, std::uint64_t blocks);

}  // namespace xb
