
#include "core/metric_units.hpp"
#include "core/size.hpp"
#include "core/whole_file.hpp"
#include "judge/expectations.hpp"
#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fnmatch.h>
#include <set>
#include <tuple>
#include <yaml-cpp/yaml.h>

namespace xb {
namespace {

constexpr std::string_view kSchema = "xferbench.expectations";
constexpr int kSchemaVersion = 1;

// Errors name the document and the node's line (yaml-cpp counts from 0).
[[noreturn]] void fail_at(const std::string& name, const YAML::Node& node, const std::string& rule) {
  throw ExpectationError(fmt::format("{}:{}: {}", name, node.Mark().line + 1, rule));
}

std::string scalar(const std::string& name, const YAML::Node& node, std::string_view key) {
  if (!node.IsScalar()) fail_at(name, node, fmt::format("{}: must be a single value", key));
  return node.Scalar();
}

double number(const std::string& name, const YAML::Node& node, std::string_view key) {
  const std::string text = scalar(name, node, key);
  double v = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    fail_at(name, node, fmt::format("{}: '{}' is not a number", key, text));
  }
  return v;
}

double share(const std::string& name, const YAML::Node& node, std::string_view key) {
  const double v = number(name, node, key);
  if (!(v > 0 && v <= 1)) fail_at(name, node, fmt::format("{}: {} must be above 0 and at most 1", key, v));
  return v;
}

// "20 GB/s", "16.7 GiB/s", "355 Gb/s" → bytes per second.
double bandwidth(const std::string& name, const YAML::Node& node, std::string_view key) {
  const std::string text = scalar(name, node, key);
  const std::size_t space = text.find(' ');
  double v = 0;
  const char* end = text.data() + (space == std::string::npos ? text.size() : space);
  const auto [stop, error] = std::from_chars(text.data(), end, v);
  const auto unit = space == std::string::npos ? std::nullopt : bandwidth_unit_bytes(std::string_view(text).substr(space + 1));
  if (error != std::errc() || stop != end || !unit || !(v > 0)) {
    fail_at(name, node, fmt::format("{}: '{}' is not a bandwidth (a number above 0, a space and a unit: GB/s, GiB/s, "
                                    "Gb/s, MB/s, …)", key, text));
  }
  return v * *unit;
}

bool glob_matches(const std::string& pattern, const std::string& text) {
  return pattern.empty() || fnmatch(pattern.c_str(), text.c_str(), FNM_CASEFOLD) == 0;
}

std::string rule_text(const ExpectRule& r) {
  std::string t = fmt::format("{} {} ≥ ", r.path, r.metric);
  t += r.ceiling_fraction ? fmt::format("{:g} × ceiling", *r.ceiling_fraction)
                          : r.expect_text;
  std::vector<std::string> where;
  if (!r.device.empty()) where.push_back("device " + r.device);
  if (!r.server.empty()) where.push_back("server " + r.server);
  if (r.min_block_bytes > 0) where.push_back("blocks ≥ " + format_size(r.min_block_bytes));
  if (!where.empty()) t += fmt::format(" ({})", fmt::join(where, ", "));
  return t;
}

ExpectRule parse_rule(const std::string& name, const YAML::Node& node, ExpectLayer layer) {
  if (!node.IsMap()) fail_at(name, node, "a rule must be a map (path, and expect or ceiling_fraction)");
  static const std::set<std::string> kKeys{"path",       "metric",     "device", "server", "min_block",
                                           "expect",     "ceiling_fraction", "warn_below", "fail_below", "source"};
  ExpectRule r;
  r.layer = layer;
  r.origin = fmt::format("{}:{}", name, node.Mark().line + 1);
  for (const auto& kv : node) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    if (kKeys.count(key) == 0) {
      fail_at(name, kv.first, fmt::format("unknown key '{}' in a rule (known: {})", key, fmt::join(kKeys, ", ")));
    }
  }
  if (!node["path"]) fail_at(name, node, "a rule needs a path (one of: " + fmt::format("{}", fmt::join(expectation_path_kinds(), ", ")) + ", or a glob over them)");
  r.path = scalar(name, node["path"], "path");
  const auto& kinds = expectation_path_kinds();
  if (std::none_of(kinds.begin(), kinds.end(), [&](const std::string& k) { return glob_matches(r.path, k); }) ||
      r.path.empty()) {
    fail_at(name, node["path"], fmt::format("path '{}' names no path kind (one of: {}, or a glob over them)", r.path,
                                            fmt::join(kinds, ", ")));
  }
  if (node["metric"]) r.metric = scalar(name, node["metric"], "metric");
  if (node["device"]) r.device = scalar(name, node["device"], "device");
  if (node["server"]) r.server = scalar(name, node["server"], "server");
  if (node["min_block"]) {
    try {
      r.min_block_bytes = parse_size(scalar(name, node["min_block"], "min_block"), "min_block");
    } catch (const UsageError& e) {
      fail_at(name, node["min_block"], e.what());
    }
  }
  if (static_cast<bool>(node["expect"]) == static_cast<bool>(node["ceiling_fraction"])) {
    fail_at(name, node, "a rule needs exactly one of expect (a bandwidth: '20 GB/s') and ceiling_fraction (0.8)");
  }
  if (node["expect"]) {
    r.expect_bytes_per_second = bandwidth(name, node["expect"], "expect");
    r.expect_text = node["expect"].Scalar();
  }
  if (node["ceiling_fraction"]) r.ceiling_fraction = share(name, node["ceiling_fraction"], "ceiling_fraction");
  if (node["warn_below"]) r.warn_below = share(name, node["warn_below"], "warn_below");
  if (node["fail_below"]) r.fail_below = share(name, node["fail_below"], "fail_below");
  if (r.fail_below > r.warn_below) {
    fail_at(name, node["fail_below"] ? node["fail_below"] : node,
            fmt::format("fail_below {:g} is above warn_below {:g}: a figure must warn before it fails", r.fail_below,
                        r.warn_below));
  }
  if (node["source"]) r.source = scalar(name, node["source"], "source");
  if (layer == ExpectLayer::sku && r.source.empty()) fail_at(name, node, "a SKU rule needs its source (where the figure comes from)");
  r.text = rule_text(r);
  return r;
}

// How specific a rule is, for choosing between rules of one layer that all apply.
std::tuple<int, int> specificity(const ExpectRule& r) {
  const int named = (r.device.empty() ? 0 : 4) + (r.server.empty() ? 0 : 2) + (r.min_block_bytes > 0 ? 1 : 0);
  const bool glob = r.path.find_first_of("*?[") != std::string::npos;
  const int path = !glob ? 2 : r.path.front() != '*' ? 1 : 0;
  return {named, path};
}

}  // namespace

std::string_view layer_name(ExpectLayer layer) {
  switch (layer) {
    case ExpectLayer::builtin: return "built-in";
    case ExpectLayer::sku: return "SKU file";
    case ExpectLayer::site: return "site file";
    case ExpectLayer::command_line: return "command line";
  }
  return "?";
}

const std::vector<std::string>& expectation_path_kinds() {
  static const std::vector<std::string> kKinds{"copy.h2d", "copy.d2h", "copy.d2d", "copy.h2h", "p2p",  "io.read",
                                               "io.write", "kv.dump",  "kv.load",  "link",     "xfer", "fleet", "coll"};
  return kKinds;
}

std::vector<ExpectRule> parse_expectations(std::string_view text, const std::string& name, ExpectLayer layer) {
  YAML::Node doc;
  try {
    doc = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw ExpectationError(fmt::format("{}:{}: not YAML or JSON: {}", name, e.mark.line + 1, e.msg));
  }
  if (!doc.IsMap()) fail_at(name, doc, fmt::format("an expectation file is a map with schema: {}, schema_version: {} and rules", kSchema, kSchemaVersion));
  for (const auto& kv : doc) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    if (key != "schema" && key != "schema_version" && key != "description" && key != "rules") {
      fail_at(name, kv.first, fmt::format("unknown key '{}' (known: schema, schema_version, description, rules)", key));
    }
  }
  if (!doc["schema"] || scalar(name, doc["schema"], "schema") != kSchema) {
    fail_at(name, doc["schema"] ? doc["schema"] : doc, fmt::format("schema must be {}", kSchema));
  }
  if (!doc["schema_version"] || number(name, doc["schema_version"], "schema_version") != kSchemaVersion) {
    fail_at(name, doc["schema_version"] ? doc["schema_version"] : doc,
            fmt::format("schema_version must be {} (this xferbench reads version {})", kSchemaVersion, kSchemaVersion));
  }
  const YAML::Node rules = doc["rules"];
  if (!rules || !rules.IsSequence()) fail_at(name, rules ? rules : doc, "rules must be a list of rules");
  std::vector<ExpectRule> out;
  for (const auto& node : rules) out.push_back(parse_rule(name, node, layer));
  return out;
}

ExpectRule parse_expectation_rule(std::string_view text, std::string_view flag, int index) {
  const std::size_t eq = text.find('=');
  const std::string name = fmt::format("{} {}", flag, index);
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size()) {
    throw ExpectationError(fmt::format("{} '{}': a rule is PATH=BANDWIDTH ('copy.h2d=20 GB/s') or PATH=SHARE of the "
                                       "ceiling ('link=0.9')", flag, text));
  }
  const std::string path(text.substr(0, eq));
  const std::string value(text.substr(eq + 1));
  // The same checks as a file's rule: one-rule documents, so every message is the file's.
  const bool share_of_ceiling = value.find(' ') == std::string::npos;
  const std::string doc = fmt::format("schema: {}\nschema_version: {}\nrules:\n  - path: \"{}\"\n    {}: \"{}\"\n", kSchema,
                                      kSchemaVersion, path, share_of_ceiling ? "ceiling_fraction" : "expect", value);
  try {
    auto rules = parse_expectations(doc, name, ExpectLayer::command_line);
    rules.at(0).origin = name;
    return rules.at(0);
  } catch (const ExpectationError& e) {
    // "--expect-rule 1:5: ceiling_fraction: …" → "--expect-rule 'x=…': ceiling_fraction: …"
    const std::string what = e.what();
    const std::size_t colon = what.find(": ", name.size());
    throw ExpectationError(fmt::format("{} '{}': {}", flag, text, colon == std::string::npos ? what : what.substr(colon + 2)));
  }
}

std::vector<ExpectRule> load_expectations(const std::filesystem::path& file, ExpectLayer layer) {
  const std::optional<std::string> text = read_whole_file(file);
  if (!text) throw ExpectationError(fmt::format("{}: cannot read the expectation file", file.string()));
  return parse_expectations(*text, file.string(), layer);
}

ExpectationLayers load_expectation_layers(const std::string& site_file, const std::vector<std::string>& rules,
                                          std::string_view rule_flag) {
  ExpectationLayers layers;
  layers.builtin = builtin_expectations();
  layers.sku = sku_expectations();
  layers.site_file = site_file;
  if (!site_file.empty()) layers.site = load_expectations(site_file, ExpectLayer::site);
  for (std::size_t i = 0; i < rules.size(); ++i) {
    layers.command_line.push_back(parse_expectation_rule(rules[i], rule_flag, static_cast<int>(i + 1)));
  }
  return layers;
}

bool rule_names(const ExpectRule& rule, const std::string& device, const std::string& server) {
  return glob_matches(rule.device, device) && glob_matches(rule.server, server);
}

std::string sku_note(const ExpectationLayers& layers, const std::vector<std::string>& devices, const std::string& server) {
  const auto names_one = [&](const ExpectRule& r) {
    return std::any_of(devices.begin(), devices.end(), [&](const std::string& d) { return rule_names(r, d, server); });
  };
  const auto rules = std::count_if(layers.sku.begin(), layers.sku.end(), names_one);
  if (rules > 0) return fmt::format("{} rule(s) for this machine", rules);
  return fmt::format("nothing for this machine (server '{}', devices {}): no SKU layer",
                     server.empty() ? "not named by the firmware" : server, fmt::join(devices, ", "));
}

std::optional<ResolvedExpectation> resolve_expectation(const std::vector<const std::vector<ExpectRule>*>& layers,
                                                       const FigureFacts& facts) {
  std::optional<ResolvedExpectation> best;
  std::tuple<int, int, int> best_rank{-1, -1, -1};
  for (const auto* layer : layers) {
    for (const ExpectRule& r : *layer) {
      if (!glob_matches(r.path, facts.path) || r.metric != facts.metric || !rule_names(r, facts.device, facts.server)) {
        continue;
      }
      if (r.min_block_bytes > 0 && facts.block_bytes < r.min_block_bytes) continue;
      if (r.ceiling_fraction && !facts.ceiling_bytes_per_second) continue;  // cannot say: a less specific rule may
      const auto [named, path] = specificity(r);
      const std::tuple<int, int, int> rank{static_cast<int>(r.layer), named, path};
      if (rank < best_rank) continue;  // equal rank: the later rule wins
      best_rank = rank;
      best = ResolvedExpectation{r.ceiling_fraction ? *r.ceiling_fraction * *facts.ceiling_bytes_per_second
                                                    : *r.expect_bytes_per_second,
                                 &r};
    }
  }
  return best;
}

}  // namespace xb
