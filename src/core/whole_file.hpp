#pragma once
// A small text file read whole (an expectation file, a gdsio job file, a fleet's rounds); none
// where it cannot be opened. Each reader words its own error, naming its flag or file.
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace xb {

inline std::optional<std::string> read_whole_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace xb
