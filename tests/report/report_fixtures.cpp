#include "report_fixtures.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace xb::test {

xbtest::RunResult run_xferbench(const std::vector<std::string>& args) { return xbtest::run_binary(XB_BINARY, args); }

void make_copy_result(const std::filesystem::path& file, const std::string& size) {
  const auto r = run_xferbench({"copy", "-s", size, "-n", "4", "-i", "4", "--warmup", "1", "-d", "1", "--format",
                                "json", "--output", file.string(), "-q"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  ASSERT_TRUE(std::filesystem::exists(file));
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  ASSERT_TRUE(out.good()) << file;
}

nlohmann::json read_json(const std::filesystem::path& file) { return nlohmann::json::parse(read_text(file)); }

std::string only_line(const xbtest::RunResult& r) {
  const auto lines = xbtest::split_lines(r.err);
  EXPECT_EQ(lines.size(), 1u) << r.err;
  return lines.empty() ? std::string() : lines.front();
}

}  // namespace xb::test
