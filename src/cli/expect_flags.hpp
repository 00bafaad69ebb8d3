#pragma once
// The options that give a run its expectation layers (docs/judge.md): --expect FILE (the
// site file) and --expect-rule RULE (repeatable). Added to any command that judges or shows
// expectations; loaded before anything runs, so a malformed file is exit 2 with nothing done.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "judge/expectations.hpp"

namespace xb {

struct ExpectFlags {
  std::string file;
  std::vector<std::string> rules;

  void add_to(CLI::App& app) {
    app.add_option("--expect", file, "a site expectation file (YAML or JSON; docs/judge.md), over the built-in and SKU layers");
    // Every rule given, also under an app whose options take their last value (a dialect's getopt).
    app.add_option("--expect-rule", rules, "PATH=BANDWIDTH ('copy.h2d=20 GB/s') or PATH=SHARE of the ceiling ('link=0.9'); "
                   "over every file; repeatable")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->allow_extra_args(false);
  }
  ExpectationLayers load() const { return load_expectation_layers(file, rules, "--expect-rule"); }
  bool given() const { return !file.empty() || !rules.empty(); }
  // The layers where any was given; none otherwise (a job or dialect that judges only when asked).
  std::optional<ExpectationLayers> load_if_given() const { return given() ? std::optional(load()) : std::nullopt; }
};

// A job's judging: --judge, or any expectation given, which implies it (off by default for the
// plain jobs; the survey judges always). The layers are loaded right after parsing, before
// anything runs; the verdicts are set after the run (judge/verdict.hpp judge_cases).
struct JudgeFlags {
  bool judge = false;
  ExpectFlags expect;

  void add_to(CLI::App& app) {
    app.add_flag("--judge", judge, "set each figure next to what it should be (docs/judge.md): expected, ratio, "
                 "PASS/WARN/FAIL; exit 1 on a FAIL");
    expect.add_to(app);
  }
  std::optional<ExpectationLayers> load() const {
    return judge ? std::optional(expect.load()) : expect.load_if_given();
  }
};

}  // namespace xb
