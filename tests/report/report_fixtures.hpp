#pragma once
// What the report and compare tests share: the real binary run with words, real result files made
// by small real runs, text files read and written, a result document edited as JSON.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_binary.hpp"

namespace xb::test {

// Runs xferbench with `args` (no shell: one string per argument).
xbtest::RunResult run_xferbench(const std::vector<std::string>& args);

// A small real copy run (one device, a few blocks of `size`) written with --format json --output
// to `file`; fails the test (ASSERT) if the run does.
void make_copy_result(const std::filesystem::path& file, const std::string& size);

std::string read_text(const std::filesystem::path& file);
void write_text(const std::filesystem::path& file, const std::string& text);
nlohmann::json read_json(const std::filesystem::path& file);

// The single line a bad-input run printed on stderr (fails the test when there is not one).
std::string only_line(const xbtest::RunResult& r);

}  // namespace xb::test
