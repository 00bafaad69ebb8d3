#pragma once
// A command's options bound to the plan fields they set, each declared once with its rule: the
// value is kept as given (or as its default text) and converted by convert(), in the order the
// options were declared, after CLI11 has parsed. A bad value is one UsageError naming the option
// (its first name) and the rule, as parse_count and parse_size word them.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/size.hpp"

namespace xb {

class PlanOptions {
 public:
  explicit PlanOptions(CLI::App& app) : app_(app) {}

  template <class T>  // std::string, std::filesystem::path
  CLI::Option* text(const std::string& names, T& field, const std::string& help) {
    return app_.add_option(names, field, help);
  }
  CLI::Option* flag(const std::string& names, bool& field, const std::string& help) {
    return app_.add_flag(names, field, help);
  }
  // A whole number from `min` to `max` (into T, or a std::optional<T> set only when given); `given`
  // is the default text ("": left as it is).
  template <class T>
  CLI::Option* count(const std::string& names, T& field, std::string given, std::uint64_t min, std::uint64_t max,
                     const std::string& help) {
    return later(names, std::move(given), help,
                 [&field, min, max](std::string_view v, std::string_view f) { field = static_cast<T>(parse_count(v, f, min, max)); });
  }
  // A size (parse_size's units); a sweep of sizes, a point each (parse_size_sweep).
  CLI::Option* size(const std::string& names, std::uint64_t& field, std::string given, const std::string& help);
  CLI::Option* sizes(const std::string& names, std::vector<std::uint64_t>& field, std::string given,
                     const std::string& help);
  // One of a set of names: `from` maps a name to its value, `expected` words the set.
  template <class E, class From>
  CLI::Option* choice(const std::string& names, E& field, std::string given, From from, std::string expected,
                      const std::string& help) {
    return later(names, std::move(given), help, [&field, from, expected](std::string_view v, std::string_view f) {
      const std::optional<E> e = from(v);
      if (!e) refuse(f, v, expected);
      field = *e;
    });
  }
  // Whole seconds from `min` to `max`, into a duration field (the servers' and clients' --wait).
  CLI::Option* seconds(const std::string& names, std::chrono::milliseconds& field, std::string given,
                       std::uint64_t min, std::uint64_t max, const std::string& help);
  // A TCP port, 0 (any) allowed (the servers' --data-port).
  CLI::Option* port(const std::string& names, std::uint16_t& field, std::string given, const std::string& help);
  // --repetitions N (compare's significance test, docs/report.md): every case N times in rounds,
  // the same words and bound on every command.
  CLI::Option* repetitions(std::uint64_t& rounds);

  // parse_args(app, args), then convert().
  void parse(const std::vector<std::string>& args);
  // Every value converted, in the order declared.
  void convert();

  using Convert = std::function<void(std::string_view value, std::string_view flag)>;
  // Any other kind of value: `convert` sets the fields from its text (as given, else `given`).
  CLI::Option* later(const std::string& names, std::string given, const std::string& help, Convert convert);
  // The text an option holds by its first name (as given, else its default).
  const std::string& value_of(std::string_view first_name) const;

 private:
  struct Bound {
    std::string flag;  // the first name, as messages spell it
    std::string* value;
    Convert convert;
  };
  [[noreturn]] static void refuse(std::string_view flag, std::string_view value, const std::string& expected);

  CLI::App& app_;
  std::deque<std::string> values_;  // stable addresses for CLI11 to write into
  std::vector<Bound> bound_;
};

}  // namespace xb
