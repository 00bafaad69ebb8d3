#pragma once
// --check: before a size's transfers the source is filled with the pattern of that size's seed;
// after them the peer verifies its memory against it (in place, through its own stream). Each size
// has its own seed, so data left by the previous size never passes for this one's.
#include <cstdint>

#include "transport/session.hpp"

namespace xb {

// The pattern seed of one size of a link sweep.
std::uint64_t link_check_seed(std::uint64_t bytes);

// Asks the peer to verify [0, bytes) of `region` against `seed`; throws std::runtime_error naming
// the size, the peer's memory and the first differing offset with the byte expected there.
void verify_link_data(ClientSession& session, const PeerRegion& region, std::uint64_t bytes, std::uint64_t seed);

}  // namespace xb
