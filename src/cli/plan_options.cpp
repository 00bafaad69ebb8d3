#include "cli/plan_options.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "core/sweep.hpp"
#include "transport/address.hpp"

namespace xb {

CLI::Option* PlanOptions::later(const std::string& names, std::string given, const std::string& help,
                                Convert convert) {
  std::string& value = values_.emplace_back(std::move(given));
  CLI::Option* opt = app_.add_option(names, value, help);
  bound_.push_back({names.substr(0, names.find(',')), &value, std::move(convert)});
  return opt;
}

CLI::Option* PlanOptions::size(const std::string& names, std::uint64_t& field, std::string given,
                               const std::string& help) {
  return later(names, std::move(given), help, [&field](std::string_view v, std::string_view f) { field = parse_size(v, f); });
}

CLI::Option* PlanOptions::sizes(const std::string& names, std::vector<std::uint64_t>& field, std::string given,
                                const std::string& help) {
  return later(names, std::move(given), help,
               [&field](std::string_view v, std::string_view f) { field = parse_size_sweep(v, f); });
}

CLI::Option* PlanOptions::seconds(const std::string& names, std::chrono::milliseconds& field, std::string given,
                                  std::uint64_t min, std::uint64_t max, const std::string& help) {
  return later(names, std::move(given), help, [&field, min, max](std::string_view v, std::string_view f) {
    field = std::chrono::seconds(parse_count(v, f, min, max));
  });
}

CLI::Option* PlanOptions::port(const std::string& names, std::uint16_t& field, std::string given,
                               const std::string& help) {
  return later(names, std::move(given), help,
               [&field](std::string_view v, std::string_view f) { field = parse_port(v, f, true); });
}

CLI::Option* PlanOptions::repetitions(std::uint64_t& rounds) {
  return count("--repetitions", rounds, "1", 1, 1000,
               "run every case N times, in rounds (all points, then all again): repeated cases that compare "
               "pools and tests for significance (default 1)");
}

void PlanOptions::parse(const std::vector<std::string>& args) {
  parse_args(app_, args);
  convert();
}

void PlanOptions::convert() {
  for (const Bound& b : bound_) {
    if (!b.value->empty()) b.convert(*b.value, b.flag);
  }
}

const std::string& PlanOptions::value_of(std::string_view first_name) const {
  for (const Bound& b : bound_) {
    if (b.flag == first_name) return *b.value;
  }
  throw std::logic_error(fmt::format("PlanOptions: no option {}", first_name));
}

void PlanOptions::refuse(std::string_view flag, std::string_view value, const std::string& expected) {
  throw UsageError(fmt::format("{} {}: expected {}", flag, value, expected));
}

}  // namespace xb
