#pragma once
// The fields of a separated list, every one kept ("a,,b" is three, "" is one empty field): flags
// and wire formats that take lists decide themselves what an empty field means.
#include <string_view>
#include <vector>

namespace xb {

inline std::vector<std::string_view> split_on(std::string_view text, char by) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(by, start);
    fields.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return fields;
    start = at + 1;
  }
}

}  // namespace xb
