#pragma once
// The TCP transport's region table: what a peer may put into and get from. A region is named on
// the wire by its id and a random 64-bit secret (together the remote key), so a peer cannot reach
// a region whose descriptor it was not given by guessing ids.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace xb::tcp {

struct Region {
  std::byte* data = nullptr;
  std::uint64_t size = 0;
  std::uint64_t secret = 0;
};

// The remote key as it travels in a RegionDescriptor: id (4 bytes LE) then secret (8 bytes LE).
inline constexpr std::size_t kKeyBytes = 12;
struct RegionKey {
  std::uint32_t id = 0;
  std::uint64_t secret = 0;
};
std::vector<std::uint8_t> pack_key(const RegionKey& key);
std::optional<RegionKey> unpack_key(const std::vector<std::uint8_t>& bytes);

class RegionTable {
 public:
  // Registers the memory; returns its key (a fresh id and secret).
  RegionKey add(void* data, std::uint64_t size);
  void remove(std::uint32_t id);
  const Region* find(std::uint32_t id) const;

 private:
  std::unordered_map<std::uint32_t, Region> regions_;
  std::uint32_t next_id_ = 1;
};

}  // namespace xb::tcp
