#pragma once
// Expectations in layers: what a figure should be, as plain files a site keeps
// in git. Four layers, most specific last: built-in defaults (fractions of the theoretical ceiling
// per path kind) → the SKU file shipped with the program (per accelerator and server model, each
// entry with its source) → a site overlay (`--expect FILE`) → rules given on the command line. For
// one figure the latest layer with a rule that applies decides; within a layer the rule naming
// more (device, server, exact path, a block size floor) wins, then the later one. Every resolved
// expectation says which layer and which rule (file:line) decided.
//
// The file format (YAML, or JSON, which YAML reads): docs/judge.md; the strict checks below make a
// malformed file one line naming the file, the line and the rule.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace xb {

enum class ExpectLayer { builtin, sku, site, command_line };
std::string_view layer_name(ExpectLayer layer);  // "built-in", "SKU file", "site file", "command line"

// The path kinds a rule may name (or match with a glob: "copy.*", "*").
const std::vector<std::string>& expectation_path_kinds();

struct ExpectRule {
  std::string path;                     // a path kind or a glob over them
  std::string metric = "bandwidth";     // the metric judged ("bandwidth": the path's figure)
  std::string device;                   // glob on the device's description ("" any)
  std::string server;                   // glob on the server model ("" any)
  std::uint64_t min_block_bytes = 0;    // applies to cases moving blocks at least this large
  std::optional<double> expect_bytes_per_second;  // an absolute figure ("20 GB/s")
  std::string expect_text;                        // as written, for the rule's one line
  std::optional<double> ceiling_fraction;         // or a share of the theoretical ceiling
  double warn_below = 1.0;  // WARN when actual / expected falls below this
  double fail_below = 0.8;  // FAIL below this (≤ warn_below)
  std::string source;       // where the figure comes from (required in the SKU file)
  ExpectLayer layer = ExpectLayer::builtin;
  std::string origin;       // "sku.yaml:12", "site.yaml:3", "--expect-rule 1"
  std::string text;         // the rule as one line, for verdicts: "copy.h2d ≥ 0.8 × ceiling"
};

// A malformed expectation file or rule: "FILE:LINE: rule". Exit 2 like every bad input.
class ExpectationError : public UsageError {
 public:
  using UsageError::UsageError;
};

// Parses a document's rules; `name` names it in errors and origins (a path, "built-in").
std::vector<ExpectRule> parse_expectations(std::string_view text, const std::string& name, ExpectLayer layer);
// Reads and parses a file (ExpectationError naming the file when it cannot be read).
std::vector<ExpectRule> load_expectations(const std::filesystem::path& file, ExpectLayer layer);

// A rule given on the command line: "PATH=BANDWIDTH" ("copy.h2d=20 GB/s") or "PATH=SHARE" (a
// number up to 1: that share of the ceiling, "link=0.9"); PATH may be a glob. `flag` names the
// option in errors ("--expect-rule"); `index` (from 1) makes the origin ("--expect-rule 2").
ExpectRule parse_expectation_rule(std::string_view text, std::string_view flag, int index);

// The built-in defaults and the shipped SKU file (compiled in).
std::vector<ExpectRule> builtin_expectations();
std::vector<ExpectRule> sku_expectations();

// The four layers of one run: the compiled-in two, the site file (empty: none given) and the
// command line's rules.
struct ExpectationLayers {
  std::vector<ExpectRule> builtin, sku, site, command_line;
  std::string site_file;  // as given, "" for none
  std::vector<const std::vector<ExpectRule>*> in_order() const { return {&builtin, &sku, &site, &command_line}; }
};

// Loads every layer; bad input (a malformed file or rule) throws ExpectationError before anything
// is measured. `rule_flag` names the command line's option in errors and origins.
ExpectationLayers load_expectation_layers(const std::string& site_file, const std::vector<std::string>& rules,
                                          std::string_view rule_flag);

// Whether the rule's device and server globs (empty: any; case ignored) take this device and
// server: what resolve_expectation checks, and what says whether a SKU entry names a machine.
bool rule_names(const ExpectRule& rule, const std::string& device, const std::string& server);

// What the SKU file says of this machine (an unknown SKU is no SKU layer, said so in
// the result, not an error): "N rule(s) for this machine", or "nothing for this machine (server '…',
// devices …): no SKU layer". `devices`: the device names the rules' globs are matched against.
std::string sku_note(const ExpectationLayers& layers, const std::vector<std::string>& devices, const std::string& server);

// What is known of one figure when it is judged.
struct FigureFacts {
  std::string path;    // "copy.h2d"
  std::string metric = "bandwidth";  // what rules name (their `metric`)
  std::string device;  // "NVIDIA H200", "cpu arena 0"
  std::string server;  // DMI product name, "" where unknown
  std::uint64_t block_bytes = 0;
  std::optional<double> ceiling_bytes_per_second;
  // The case's metric that holds the figure ("throughput" for io and xfer, "bandwidth_min" for a
  // p2p matrix, a survey row's headline); "" where it is `metric` itself.
  std::string case_metric;
};

struct ResolvedExpectation {
  double expected_bytes_per_second = 0;
  const ExpectRule* rule = nullptr;  // points into the layers given to resolve_expectation
};

// The rule that decides for `facts` across `layers` (in order: built-in, SKU, site, command line),
// or null where none applies or every one that does needs a ceiling that is unknown.
std::optional<ResolvedExpectation> resolve_expectation(const std::vector<const std::vector<ExpectRule>*>& layers,
                                                       const FigureFacts& facts);

}  // namespace xb
