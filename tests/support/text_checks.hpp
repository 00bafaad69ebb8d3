#pragma once
// What many tests ask of text (a command's output, a report, a file) and of the build: does the
// text hold a part and how often, a file read whole, is a transport built in. One definition here,
// not one per test file (a unity build compiles a folder's test files as one translation unit).
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>

#include "core/whole_file.hpp"
#include "transport/transport.hpp"

namespace xb::test {

inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// How many times `part` occurs in `text`, overlapping occurrences counted.
inline std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The file's bytes, "" when it cannot be read (the test's assertion on them then fails).
inline std::string slurp(const std::filesystem::path& file) { return read_whole_file(file).value_or(""); }

// Whether this build has transport `name` (UCX may be absent).
inline bool has_transport(const std::string& name) {
  const auto names = transport_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A local region's bytes, to fill or check in place.
template <typename Region>
std::span<std::byte> bytes_of(const Region& region) {
  return {static_cast<std::byte*>(region.data()), region.size()};
}

}  // namespace xb::test
