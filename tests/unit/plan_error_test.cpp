// A job's rule without flag names (src/core/plan_error.hpp): the fields it names, the rule, and the
// same message worded by each command's own spellings.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <string>

#include "cli/native_flag_words.hpp"
#include "core/plan_error.hpp"

namespace xb {
namespace {

PlanError threads_rule() {
  return PlanError(fmt::format("{} {} x {} {}: more than {} in all; lower {}", flag("io.size"), "1T", flag("io.threads"),
                               8, "4T", flag("io.size")));
}

TEST(PlanError, NamesItsFieldsAndItsRule) {
  const PlanError e = threads_rule();
  EXPECT_EQ(e.text().fields(), (std::vector<std::string>{"io.size", "io.threads"}));
  EXPECT_EQ(e.text().rule(), "<io.size> 1T x <io.threads> 8: more than 4T in all; lower <io.size>");
  // Unworded, a field reads as its own name: never a blank where the flag goes, never a marker.
  EXPECT_STREQ(e.what(), "size 1T x threads 8: more than 4T in all; lower size");
}

TEST(PlanError, EachCommandWordsItWithItsOwnFlags) {
  const PlanError e = threads_rule();
  EXPECT_EQ(e.text().worded(native_flag_words()), "-s 1T x -w 8: more than 4T in all; lower -s");
  const FlagWords ucm = native_flag_words().with({{"io.size", "--io-size"}, {"io.threads", "--threads"}});
  EXPECT_EQ(e.text().worded(ucm), "--io-size 1T x --threads 8: more than 4T in all; lower --io-size");
  // The native words are not changed by a dialect's copy.
  EXPECT_EQ(native_flag_words().flag_of("io.size"), "-s");
}

TEST(PlanError, ValuesInTheCommandsOwnTerms) {
  const PlanText t(fmt::format("{} {}: needs cuFile", flag("io.transfer"), flag_value("io.transfer", "gpu-direct")));
  EXPECT_EQ(t.worded(native_flag_words()), "--xfer gpu-direct: needs cuFile");
  FlagWords gdsio = native_flag_words().with({{"io.transfer", "-x"}});
  gdsio.values = [](std::string_view field, std::string_view value) -> std::optional<std::string> {
    if (field == "io.transfer" && value == "gpu-direct") return "0 (GPUD)";
    return std::nullopt;
  };
  EXPECT_EQ(t.worded(gdsio), "-x 0 (GPUD): needs cuFile");
  EXPECT_EQ(t.fields(), (std::vector<std::string>{"io.transfer"}));
}

TEST(PlanError, WordedByRethrowsTheSameKindInTheCommandsWords) {
  const FlagWords words = native_flag_words().with({{"kv.blocks", "--io-number"}});
  try {
    worded_by(words, [] { throw PlanError(flag("kv.blocks") + " 0: at least one block"); });
    FAIL() << "nothing thrown";
  } catch (const PlanError& e) {
    EXPECT_STREQ(e.what(), "--io-number 0: at least one block");
  }
  try {
    worded_by(words, [] { throw MachineLimit(flag("kv.blocks") + " 9999999: more than the memory available"); });
    FAIL() << "nothing thrown";
  } catch (const MachineLimit& e) {  // still a limit of the machine (exit 3), not a usage error
    EXPECT_STREQ(e.what(), "--io-number 9999999: more than the memory available");
  }
  // What it returns passes through; other errors are left alone.
  EXPECT_EQ(worded_by(words, [] { return 42; }), 42);
  EXPECT_THROW(worded_by(words, [] { throw UsageError("-x: plain"); }), UsageError);
}

TEST(PlanError, ABrokenMarkerIsShownNotLost) {
  const PlanText t(std::string("\x1e") + "io.size 1T: no end");
  EXPECT_EQ(t.worded(native_flag_words()), "io.size 1T: no end");
}

}  // namespace
}  // namespace xb
