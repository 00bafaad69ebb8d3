#include "survey_test_support.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/survey_row.hpp"
#include "support/temp_dir.hpp"

namespace xb::test {

xbtest::RunResult run_xferbench(const std::vector<std::string>& args) { return xbtest::run_binary(XB_BINARY, args); }

xbtest::RunResult run_xferbench_in(const std::filesystem::path& cwd, const std::vector<std::string>& args) {
  // sh -c 'cd "$0" && exec "$@"' DIR BINARY ARGS…: no quoting of the arguments needed.
  std::vector<std::string> sh{"-c", "cd \"$0\" && exec \"$@\"", cwd.string(), XB_BINARY};
  sh.insert(sh.end(), args.begin(), args.end());
  return xbtest::run_binary("/bin/sh", sh);
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<TableRow> table_rows(const std::string& out) {
  std::vector<TableRow> rows;
  const auto lines = xbtest::split_lines(out);
  std::size_t i = 0;
  while (i < lines.size() && lines[i].find("path") == std::string::npos) ++i;
  EXPECT_LT(i, lines.size()) << "no table header in:\n" << out;
  if (i == lines.size()) return rows;
  const std::string& header = lines[i];
  // Columns start where the header's words start (sizes and figures are right-aligned, so a
  // column's text ends where the header word ends).
  const auto size_end = header.find("size") + 4, figure_end = header.find("figure") + 6, unit_at = header.find("unit");
  const auto expected_end = header.find("expected") + 8, verdict_at = header.find("verdict");
  EXPECT_NE(header.find("expected"), std::string::npos) << header;
  EXPECT_NE(verdict_at, std::string::npos) << header;
  for (++i; i < lines.size() && !lines[i].empty(); ++i) {
    const std::string& l = lines[i];
    TableRow r;
    r.line = l;
    const auto trim = [](std::string s) {
      const auto a = s.find_first_not_of(' ');
      const auto b = s.find_last_not_of(' ');
      return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
    };
    const auto size_start = size_end - 4;  // sizes are at most 4 characters ("512K", "1M", "-")
    r.path = trim(l.substr(0, std::min(l.size(), size_start)));
    r.size = trim(l.substr(size_start, size_end - size_start));
    if (l.size() > size_end) r.figure = trim(l.substr(size_end, figure_end - size_end));
    if (l.size() > unit_at) r.unit = trim(l.substr(unit_at, l.find("  ", unit_at) - unit_at));
    // Right-aligned under "expected", then the verdict word; rows not measured have a note instead.
    if (l.size() > expected_end) r.expected = trim(l.substr(unit_at, expected_end - unit_at).substr(r.unit.size()));
    if (l.size() > verdict_at) r.verdict = trim(l.substr(verdict_at, l.find(' ', verdict_at) - verdict_at));
    rows.push_back(r);
  }
  return rows;
}

const TableRow* find_row(const std::vector<TableRow>& rows, const std::string& path, const std::string& size) {
  // "…*": a path that starts with what comes before the star (a part the machine decides).
  const bool prefix = !path.empty() && path.back() == '*';
  const std::string_view want = prefix ? std::string_view(path).substr(0, path.size() - 1) : std::string_view(path);
  for (const auto& r : rows) {
    if ((prefix ? r.path.starts_with(want) : r.path == want) && r.size == size) return &r;
  }
  return nullptr;
}

ResultDocument check_results_file(const std::filesystem::path& file, std::size_t rows) {
  ResultDocument doc;
  EXPECT_NO_THROW(doc = result_from_json(nlohmann::json::parse(read_text(file)))) << file;
  EXPECT_EQ(doc.cases.size(), rows);
  for (const auto& c : doc.cases) {
    EXPECT_TRUE(survey_row_of(c).has_value()) << c.name;
    EXPECT_FALSE(c.job.empty());
    EXPECT_FALSE(c.name.empty());
  }
  // The other commands take it as any result file.
  TempDir out;
  const auto page = out.path() / "report.html";
  const auto r = run_xferbench({"report", file.string(), "-o", page.string(), "-q"});
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(std::filesystem::exists(page));
  const auto c = run_xferbench({"compare", file.string(), file.string()});
  EXPECT_TRUE(c.exited && c.exit_code == 0) << c.describe();
  return doc;
}

}  // namespace xb::test
