#pragma once
// splitmix64's finalizer: cheap and well mixed, so shifted or swapped blocks never match by
// accident. The data pattern, the io job's random layout and its block order all draw from it.
#include <cstdint>

namespace xb {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace xb
