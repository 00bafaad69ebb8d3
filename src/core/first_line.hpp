#pragma once
// The first line of a small text file (a sysfs or procfs attribute), trailing blanks removed; ""
// where the file is missing or unreadable. The readers of /sys decide what an empty value means.
#include <filesystem>
#include <fstream>
#include <string>

namespace xb {

inline std::string read_first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\n' || line.back() == '\r' || line.back() == '\t')) {
    line.pop_back();
  }
  return line;
}

}  // namespace xb
