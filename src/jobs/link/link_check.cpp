#include "jobs/link/link_check.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "core/pattern.hpp"

namespace xb {

std::uint64_t link_check_seed(std::uint64_t bytes) {
  return 0x6c696e6b00000000ull ^ bytes;  // "link" in the high word, the size in the low
}

void verify_link_data(ClientSession& session, const PeerRegion& region, std::uint64_t bytes, std::uint64_t seed) {
  const auto bad = session.verify(region, 0, bytes, seed);
  if (!bad) return;
  throw std::runtime_error(fmt::format(
      "link --check: after the transfers of {} bytes, the peer's {} memory differs from what was put, first at "
      "byte offset {} (expected 0x{:02x}, pattern seed {:#x})",
      bytes, region.description, *bad, pattern_byte(seed, *bad), seed));
}

}  // namespace xb
