#include "transport/tcp/tcp_regions.hpp"

#include <sys/random.h>

#include <cerrno>

#include "core/error.hpp"
#include "transport/byte_order.hpp"

namespace xb::tcp {
namespace {

// The kernel's random source: secrets must not be predictable from ids, times or pids.
std::uint64_t random_secret() {
  std::uint64_t value = 0;
  auto* out = reinterpret_cast<unsigned char*>(&value);
  std::size_t got = 0;
  while (got < sizeof value) {
    const ssize_t n = ::getrandom(out + got, sizeof value - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("getrandom(region secret)");
    }
    got += static_cast<std::size_t>(n);
  }
  return value;
}

}  // namespace

std::vector<std::uint8_t> pack_key(const RegionKey& key) {
  std::vector<std::uint8_t> bytes(kKeyBytes);
  auto* out = reinterpret_cast<std::byte*>(bytes.data());
  store_le<std::uint32_t>(out, key.id);
  store_le<std::uint64_t>(out + 4, key.secret);
  return bytes;
}

std::optional<RegionKey> unpack_key(const std::vector<std::uint8_t>& bytes) {
  if (bytes.size() != kKeyBytes) return std::nullopt;
  const auto* in = reinterpret_cast<const std::byte*>(bytes.data());
  return RegionKey{load_le<std::uint32_t>(in), load_le<std::uint64_t>(in + 4)};
}

RegionKey RegionTable::add(void* data, std::uint64_t size) {
  const RegionKey key{next_id_++, random_secret()};
  regions_.emplace(key.id, Region{static_cast<std::byte*>(data), size, key.secret});
  return key;
}

void RegionTable::remove(std::uint32_t id) { regions_.erase(id); }

const Region* RegionTable::find(std::uint32_t id) const {
  const auto it = regions_.find(id);
  return it == regions_.end() ? nullptr : &it->second;
}

}  // namespace xb::tcp
