#pragma once
// What the survey tests share: the real binary run in a given working directory (through /bin/sh's
// cd, so the survey's defaults — its JSON and its temporary storage directory — land there), the
// summary table's rows, and the checks every survey result must pass.
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "run_binary.hpp"

namespace xb::test {

xbtest::RunResult run_xferbench(const std::vector<std::string>& args);
xbtest::RunResult run_xferbench_in(const std::filesystem::path& cwd, const std::vector<std::string>& args);

std::string read_text(const std::filesystem::path& file);

// The table's rows (after the header), as {path, size, figure, unit, expected, verdict}; fails the
// test when the header is not there.
struct TableRow {
  std::string line;
  std::string path, size, figure, unit, expected, verdict;
};
std::vector<TableRow> table_rows(const std::string& out);
// The row of `path` ("… *": of a path starting so) and `size`; nullptr when there is none.
const TableRow* find_row(const std::vector<TableRow>& rows, const std::string& path, const std::string& size);

// The results file parses as the result schema, every case is a survey row, every row of the table
// is one of its cases; `report` and `compare` accept it.
ResultDocument check_results_file(const std::filesystem::path& file, std::size_t table_rows);

}  // namespace xb::test
