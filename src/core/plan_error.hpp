#pragma once
// A plan that breaks a rule, said without flag names: a job checks its plan against fields of its
// own ("io.threads", "copy.size") and the rule; the command that took the flags words the message
// with its own spellings (native `-w`, gdsio's `-w`, dev-sandbox aio's `-w` or UCM's
// `--workspace`). So no flag name lives in a job, and every tool's users read their own flags.
//
// A job writes a field into its message with flag("io.threads") (and a value a dialect may spell
// its own way with flag_value("io.transfer", "gpu_batch")); the markers are invisible control
// characters that only FlagWords reads. Two kinds, as the exit status tells them apart:
//   PlanError    bad input (a UsageError: exit 2, nothing run or left behind);
//   MachineLimit the plan is sound but this machine cannot hold it (memory, free space): an
//                Unavailable (exit 3; the survey waives the step), never a usage error.
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace xb {

// A field of a plan, as a marker in a message.
std::string flag(std::string_view field);
// A value of a field, as a marker: the canonical `value` unless the words spell it their own way.
std::string flag_value(std::string_view field, std::string_view value);

// How one command spells fields and values. A field it has no flag for is written as the field's
// own name (the last part: "threads"), so a message is never empty of its subject.
struct FlagWords {
  std::map<std::string, std::string, std::less<>> flags;  // field -> the flag as the command's users type it
  // A value in the command's own terms (gdsio: io.transfer "gpu_batch" -> "6 (GPU_BATCH)"); nullopt or
  // unset: the canonical value.
  std::function<std::optional<std::string>(std::string_view field, std::string_view value)> values;

  // These words with `changes` on top (a dialect's few differences from the native flags).
  FlagWords with(std::initializer_list<std::pair<const std::string, std::string>> changes) const;
  std::string flag_of(std::string_view field) const;
  // `marked` with every marker replaced by the flag or value these words give.
  std::string word(std::string_view marked) const;
};

// The text of a rule with its markers: which fields it names, and the message in any words.
class PlanText {
 public:
  explicit PlanText(std::string marked) : marked_(std::move(marked)) {}
  // Every field the message names, in order, each once.
  std::vector<std::string> fields() const;
  // The message with each field as <field> (for logs and tests: the rule without a command's words).
  std::string rule() const;
  std::string worded(const FlagWords& words) const { return words.word(marked_); }
  const std::string& marked() const { return marked_; }

 private:
  std::string marked_;
};

// A broken rule as an exception of the kind `Kind` (UsageError or Unavailable, which decides the
// exit status): what() is the message with bare field names, for a caller that words nothing;
// text() keeps the markers for a command to word.
template <typename Kind>
class PlanRule : public Kind {
 public:
  explicit PlanRule(std::string marked) : Kind(FlagWords{}.word(marked)), text_(std::move(marked)) {}
  const PlanText& text() const { return text_; }

 private:
  PlanText text_;
};

class PlanError final : public PlanRule<UsageError> {
  using PlanRule::PlanRule;
};

class MachineLimit final : public PlanRule<Unavailable> {
  using PlanRule::PlanRule;
};

// PlanError "FIELD VALUE: expected WHAT from MIN to MAX" unless `value` is in [min, max].
template <class T, class Min, class Max>
void require_in_range(T value, std::string_view field, std::string_view what, Min min, Max max) {
  if (std::cmp_less(value, min) || std::cmp_greater(value, max)) {
    throw PlanError(flag(field) + " " + std::to_string(value) + ": expected " + std::string(what) + " from " +
                    std::to_string(min) + " to " + std::to_string(max));
  }
}

// The ranks of one run were given plans that differ (each node's command line is its own): found
// at run time, once the ranks met, so a failed run (exit 1), not bad input; worded by the command
// as the two above are, so each tool's users read their own flags.
class PlanMismatch final : public PlanRule<std::runtime_error> {
  using PlanRule::PlanRule;
};

// Runs `check` and rethrows a PlanError, MachineLimit or PlanMismatch from it worded by `words` (the
// same kind, its message now in the command's flags).
template <typename F>
decltype(auto) worded_by(const FlagWords& words, F&& check) {
  try {
    return std::forward<F>(check)();
  } catch (const PlanError& e) {
    throw PlanError(e.text().worded(words));
  } catch (const MachineLimit& e) {
    throw MachineLimit(e.text().worded(words));
  } catch (const PlanMismatch& e) {
    throw PlanMismatch(e.text().worded(words));
  }
}

}  // namespace xb
