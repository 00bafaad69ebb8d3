#pragma once
// What the fuzz targets share: the input cut into a command line (arguments separated by NUL or
// newline bytes), and the rule that a parser may only refuse bad input the way the product
// promises: UsageError (exit 2, one line) or HelpRequested. Any other exception escapes the target
// and libFuzzer reports it as a crash, as it does for what ASan and UBSan find.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace xb::fuzz {

inline std::vector<std::string> split_arguments(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      args.emplace_back();
    } else {
      args.back() += c;
    }
  }
  if (args.size() == 1 && args.front().empty()) args.clear();
  return args;
}

}  // namespace xb::fuzz
