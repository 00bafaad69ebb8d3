// Expectations in layers: the compiled-in defaults and SKU file parse; the latest layer with a rule
// that applies decides, then the more specific rule, then the later one; a share of an unknown
// ceiling decides nothing; every malformed file is one error naming the file, the line and the rule.
#include <gtest/gtest.h>

#include <fstream>

#include "judge/expectations.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

std::vector<ExpectRule> parse(const std::string& rules, ExpectLayer layer = ExpectLayer::site) {
  return parse_expectations("schema: xferbench.expectations\nschema_version: 1\nrules:\n" + rules, "site.yaml", layer);
}

std::string error_of(const std::string& text, ExpectLayer layer = ExpectLayer::site) {
  try {
    parse_expectations(text, "site.yaml", layer);
  } catch (const ExpectationError& e) {
    return e.what();
  }
  return "no error";
}

std::string rule_error(const std::string& rules, ExpectLayer layer = ExpectLayer::site) {
  return error_of("schema: xferbench.expectations\nschema_version: 1\nrules:\n" + rules, layer);
}

TEST(Expectations, TheCompiledInLayersParse) {
  const auto builtin = builtin_expectations();
  ASSERT_FALSE(builtin.empty());
  for (const auto& r : builtin) {
    EXPECT_TRUE(r.ceiling_fraction) << r.text;  // defaults are shares of the ceiling, never figures
    EXPECT_EQ(r.layer, ExpectLayer::builtin);
    EXPECT_EQ(r.origin.rfind("built-in:", 0), 0u) << r.origin;
  }
  const auto sku = sku_expectations();
  ASSERT_FALSE(sku.empty());
  for (const auto& r : sku) {
    EXPECT_FALSE(r.source.empty()) << r.text;
    EXPECT_FALSE(r.device.empty()) << r.text;  // a SKU entry names what it is for
  }
}

TEST(Expectations, TheLatestLayerThatAppliesDecides) {
  const auto builtin = builtin_expectations();
  const auto sku = sku_expectations();
  const auto site = parse("  - {path: copy.h2d, device: 'Ascend910B3', expect: '20 GB/s'}\n");
  const auto cli = parse("  - {path: 'copy.*', expect: '21 GB/s'}\n", ExpectLayer::command_line);
  FigureFacts f{"copy.h2d", "bandwidth", "Ascend910B3", "", 1 << 20, 31.5e9, ""};  // the built-ins apply from 1M

  auto r = resolve_expectation({&builtin}, f);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->expected_bytes_per_second, 0.8 * 31.5e9);
  EXPECT_EQ(r->rule->layer, ExpectLayer::builtin);

  r = resolve_expectation({&builtin, &sku}, f);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rule->layer, ExpectLayer::sku);
  EXPECT_DOUBLE_EQ(r->expected_bytes_per_second, 16.7 * (1u << 30));
  EXPECT_EQ(r->rule->origin.rfind("sku_expectations.yaml:", 0), 0u) << r->rule->origin;

  f.block_bytes = 4 << 10;  // below the SKU entry's 16K floor and the built-in's 1M: nothing decides
  EXPECT_FALSE(resolve_expectation({&builtin, &sku}, f));
  f.block_bytes = 1 << 20;


  r = resolve_expectation({&builtin, &sku, &site}, f);
  EXPECT_EQ(r->rule->layer, ExpectLayer::site);
  EXPECT_DOUBLE_EQ(r->expected_bytes_per_second, 20e9);
  EXPECT_EQ(r->rule->origin, "site.yaml:4");

  r = resolve_expectation({&builtin, &sku, &site, &cli}, f);
  EXPECT_EQ(r->rule->layer, ExpectLayer::command_line);  // a glob on the command line beats the site's device rule
  EXPECT_DOUBLE_EQ(r->expected_bytes_per_second, 21e9);
}

TEST(Expectations, WithinALayerTheMoreSpecificThenTheLaterRuleWins) {
  const auto site = parse(
      "  - {path: '*', expect: '1 GB/s'}\n"
      "  - {path: 'copy.*', expect: '2 GB/s'}\n"
      "  - {path: copy.h2d, expect: '3 GB/s'}\n"
      "  - {path: '*', device: 'H200*', expect: '4 GB/s'}\n"
      "  - {path: '*', device: 'H200*', expect: '5 GB/s'}\n"
      "  - {path: copy.d2h, server: 'HGX*', expect: '6 GB/s'}\n");
  const auto at = [&](FigureFacts f) { return resolve_expectation({&site}, f)->expected_bytes_per_second / 1e9; };
  EXPECT_DOUBLE_EQ(at({"io.read", "bandwidth", "", "", 0, {}, ""}), 1.0);
  EXPECT_DOUBLE_EQ(at({"copy.d2d", "bandwidth", "", "", 0, {}, ""}), 2.0);
  EXPECT_DOUBLE_EQ(at({"copy.h2d", "bandwidth", "", "", 0, {}, ""}), 3.0);
  EXPECT_DOUBLE_EQ(at({"copy.h2d", "bandwidth", "H200 NVL", "", 0, {}, ""}), 5.0);  // device beats path; later beats earlier
  EXPECT_DOUBLE_EQ(at({"copy.d2h", "bandwidth", "", "HGX H200", 0, {}, ""}), 6.0);
  EXPECT_DOUBLE_EQ(at({"copy.d2h", "bandwidth", "h200 sxm", "HGX H200", 0, {}, ""}), 5.0);  // globs ignore case
  EXPECT_FALSE(resolve_expectation({&site}, {"copy.h2d", "latency_avg", "", "", 0, {}, ""}));  // another metric
}

TEST(Expectations, AShareOfAnUnknownCeilingDecidesNothing) {
  const auto builtin = builtin_expectations();
  EXPECT_FALSE(resolve_expectation({&builtin}, {"copy.h2d", "bandwidth", "cpu arena 0", "", 1 << 20, std::nullopt, ""}));
  const auto site = parse("  - {path: copy.h2d, expect: '10 GB/s'}\n  - {path: copy.h2d, device: 'x*', ceiling_fraction: 0.5}\n");
  const auto r = resolve_expectation({&site}, {"copy.h2d", "bandwidth", "x1", "", 0, std::nullopt, ""});
  ASSERT_TRUE(r);  // the more specific rule needs a ceiling: the absolute one decides
  EXPECT_DOUBLE_EQ(r->expected_bytes_per_second, 10e9);
  EXPECT_EQ(r->rule->text, "copy.h2d bandwidth ≥ 10 GB/s");
}

TEST(Expectations, RulesReadAsOneLine) {
  const auto site = parse("  - {path: copy.h2d, device: 'Ascend*', min_block: 16K, ceiling_fraction: 0.8}\n");
  EXPECT_EQ(site.at(0).text, "copy.h2d bandwidth ≥ 0.8 × ceiling (device Ascend*, blocks ≥ 16K)");
}

TEST(Expectations, JsonIsReadToo) {
  test::TempDir dir;
  const auto file = dir.path() / "site.json";
  std::ofstream(file) << R"({"schema": "xferbench.expectations", "schema_version": 1,
  "rules": [
    {"path": "link", "expect": "40 Gb/s", "warn_below": 0.95, "fail_below": 0.9, "source": "our 40G fabric"}
  ]})";
  const auto rules = load_expectations(file, ExpectLayer::site);
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_DOUBLE_EQ(*rules[0].expect_bytes_per_second, 5e9);
  EXPECT_DOUBLE_EQ(rules[0].warn_below, 0.95);
  EXPECT_EQ(rules[0].origin, file.string() + ":3");
}

TEST(Expectations, EveryMalformedFileIsOneLineNamingFileLineAndRule) {
  EXPECT_EQ(rule_error("  - {path: copy.h2d, expect: '1 GB/s', colour: red}\n"),
            "site.yaml:4: unknown key 'colour' in a rule (known: ceiling_fraction, device, expect, fail_below, "
            "metric, min_block, path, server, source, warn_below)");
  EXPECT_EQ(rule_error("  - {expect: '1 GB/s'}\n").substr(0, 32), "site.yaml:4: a rule needs a path");
  EXPECT_EQ(rule_error("  - {path: cpy.h2d, expect: '1 GB/s'}\n").substr(0, 46),
            "site.yaml:4: path 'cpy.h2d' names no path kind");
  EXPECT_EQ(rule_error("  - {path: p2p}\n"),
            "site.yaml:4: a rule needs exactly one of expect (a bandwidth: '20 GB/s') and ceiling_fraction (0.8)");
  EXPECT_EQ(rule_error("  - {path: p2p, expect: '1 GB/s', ceiling_fraction: 0.5}\n").substr(0, 40),
            "site.yaml:4: a rule needs exactly one of");
  EXPECT_EQ(rule_error("  - path: p2p\n    expect: 20 GBps\n").substr(0, 52),
            "site.yaml:5: expect: '20 GBps' is not a bandwidth (a");
  // A number with more after it before the space is not a number, even with a known unit.
  EXPECT_EQ(rule_error("  - {path: p2p, expect: '20x GB/s'}\n").substr(0, 53),
            "site.yaml:4: expect: '20x GB/s' is not a bandwidth (a");
  EXPECT_EQ(rule_error("  - {path: p2p, ceiling_fraction: 1.5}\n"),
            "site.yaml:4: ceiling_fraction: 1.5 must be above 0 and at most 1");
  EXPECT_EQ(rule_error("  - path: p2p\n    ceiling_fraction: 0.8\n    warn_below: 0.7\n    fail_below: 0.9\n"),
            "site.yaml:7: fail_below 0.9 is above warn_below 0.7: a figure must warn before it fails");
  EXPECT_EQ(rule_error("  - {path: p2p, min_block: 16Q, ceiling_fraction: 0.5}\n").substr(0, 27), "site.yaml:4: min_block 16Q:");
  EXPECT_EQ(rule_error("  - {path: p2p, device: 'x', expect: '1 GB/s'}\n", ExpectLayer::sku),
            "site.yaml:4: a SKU rule needs its source (where the figure comes from)");
  EXPECT_EQ(rule_error("  - [p2p]\n"), "site.yaml:4: a rule must be a map (path, and expect or ceiling_fraction)");
  EXPECT_EQ(error_of("schema: other\nschema_version: 1\nrules: []\n"), "site.yaml:1: schema must be xferbench.expectations");
  EXPECT_EQ(error_of("schema: xferbench.expectations\nschema_version: 2\nrules: []\n"),
            "site.yaml:2: schema_version must be 1 (this xferbench reads version 1)");
  EXPECT_EQ(error_of("schema: xferbench.expectations\nschema_version: 1\nrules: {}\n"),
            "site.yaml:3: rules must be a list of rules");
  EXPECT_EQ(error_of("schema: xferbench.expectations\nschema_version: 1\nrulez: []\n"),
            "site.yaml:3: unknown key 'rulez' (known: schema, schema_version, description, rules)");
  EXPECT_EQ(error_of("rules: [\n  {path: p2p\n").substr(0, 30), "site.yaml:3: not YAML or JSON:");
  EXPECT_EQ(error_of("- 1\n"), "site.yaml:1: an expectation file is a map with schema: xferbench.expectations, "
                               "schema_version: 1 and rules");
  test::TempDir dir;
  try {
    load_expectations(dir.path() / "absent.yaml", ExpectLayer::site);
    ADD_FAILURE() << "a missing file loaded";
  } catch (const ExpectationError& e) {
    EXPECT_EQ(std::string(e.what()), (dir.path() / "absent.yaml").string() + ": cannot read the expectation file");
  }
}

// Equal levels are a rule with no warning band: accepted, not refused as fail above warn.
TEST(Expectations, EqualWarnAndFailLevelsAreOneEdge) {
  const auto site = parse("  - {path: link, expect: '40 Gb/s', warn_below: 0.9, fail_below: 0.9}\n");
  ASSERT_EQ(site.size(), 1u);
  EXPECT_DOUBLE_EQ(site[0].warn_below, 0.9);
  EXPECT_DOUBLE_EQ(site[0].fail_below, 0.9);
}

TEST(Expectations, CommandLineRules) {
  const ExpectRule a = parse_expectation_rule("copy.h2d=20 GB/s", "--expect-rule", 1);
  EXPECT_EQ(a.layer, ExpectLayer::command_line);
  EXPECT_EQ(a.origin, "--expect-rule 1");
  EXPECT_DOUBLE_EQ(*a.expect_bytes_per_second, 20e9);
  const ExpectRule b = parse_expectation_rule("copy.*=0.9", "--expect-rule", 2);
  EXPECT_DOUBLE_EQ(*b.ceiling_fraction, 0.9);
  EXPECT_EQ(b.text, "copy.* bandwidth ≥ 0.9 × ceiling");
  const auto error = [](const std::string& text) {
    try {
      parse_expectation_rule(text, "--expect-rule", 1);
    } catch (const ExpectationError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("copy.h2d"), "--expect-rule 'copy.h2d': a rule is PATH=BANDWIDTH ('copy.h2d=20 GB/s') or PATH=SHARE "
                               "of the ceiling ('link=0.9')");
  // No path, or no value after the '=': the same one rule, not a schema message about an empty value.
  for (const std::string bad : {"copy.h2d=", "=0.5", "="}) {
    EXPECT_EQ(error(bad), "--expect-rule '" + bad + "': a rule is PATH=BANDWIDTH ('copy.h2d=20 GB/s') or PATH=SHARE "
                          "of the ceiling ('link=0.9')");
  }
  EXPECT_EQ(error("copy.h2d=1.5"), "--expect-rule 'copy.h2d=1.5': ceiling_fraction: 1.5 must be above 0 and at most 1");
  EXPECT_EQ(error("cpy=0.5").substr(0, 45), "--expect-rule 'cpy=0.5': path 'cpy' names no ");
  EXPECT_EQ(error("p2p=20 GBps").rfind("--expect-rule 'p2p=20 GBps': expect: '20 GBps' is not a bandwidth", 0), 0u);
}

}  // namespace
}  // namespace xb
