#pragma once
// Little-endian fields in wire messages (the control channel and the TCP transport's headers), so
// the format does not depend on the hosts' byte order.
#include <cstddef>
#include <cstdint>

namespace xb {

template <typename T>
inline void store_le(std::byte* out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) out[i] = std::byte(static_cast<std::uint8_t>(value >> (8 * i)));
}

template <typename T>
inline T load_le(const std::byte* in) {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(static_cast<T>(std::to_integer<std::uint8_t>(in[i])) << (8 * i));
  return value;
}

}  // namespace xb
