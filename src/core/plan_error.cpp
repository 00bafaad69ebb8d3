#include "core/plan_error.hpp"

#include <algorithm>

namespace xb {
namespace {

// Control characters no flag, value or message of ours contains (ASCII's separators).
constexpr char kFieldStart = '\x1e';  // field, then kEnd
constexpr char kValueStart = '\x1c';  // field, kValueSplit, value, then kEnd
constexpr char kValueSplit = '\x1d';
constexpr char kEnd = '\x1f';

// Calls on_text for the plain runs of `marked`, on_field for each field marker and on_value for
// each value marker, in order.
template <typename Text, typename Field, typename Value>
void scan(std::string_view marked, Text on_text, Field on_field, Value on_value) {
  std::size_t i = 0;
  while (i < marked.size()) {
    const std::size_t at = marked.find_first_of(std::string_view("\x1e\x1c", 2), i);
    if (at == std::string_view::npos) {
      on_text(marked.substr(i));
      return;
    }
    on_text(marked.substr(i, at - i));
    const std::size_t end = marked.find(kEnd, at);
    if (end == std::string_view::npos) {  // a broken marker: shown as it is, never lost
      on_text(marked.substr(at + 1));
      return;
    }
    const std::string_view inside = marked.substr(at + 1, end - at - 1);
    if (marked[at] == kFieldStart) {
      on_field(inside);
    } else {
      const std::size_t split = inside.find(kValueSplit);
      if (split == std::string_view::npos) {
        on_value(inside, std::string_view());
      } else {
        on_value(inside.substr(0, split), inside.substr(split + 1));
      }
    }
    i = end + 1;
  }
}

}  // namespace

std::string flag(std::string_view field) {
  std::string s(1, kFieldStart);
  s.append(field);
  s += kEnd;
  return s;
}

std::string flag_value(std::string_view field, std::string_view value) {
  std::string s(1, kValueStart);
  s.append(field);
  s += kValueSplit;
  s.append(value);
  s += kEnd;
  return s;
}

FlagWords FlagWords::with(std::initializer_list<std::pair<const std::string, std::string>> changes) const {
  FlagWords w = *this;
  for (const auto& [field, spelling] : changes) w.flags[field] = spelling;
  return w;
}

std::string FlagWords::flag_of(std::string_view field) const {
  if (const auto it = flags.find(field); it != flags.end()) return it->second;
  const std::size_t dot = field.rfind('.');
  return std::string(dot == std::string_view::npos ? field : field.substr(dot + 1));
}

std::string FlagWords::word(std::string_view marked) const {
  std::string out;
  scan(
      marked, [&](std::string_view text) { out.append(text); },
      [&](std::string_view field) { out += flag_of(field); },
      [&](std::string_view field, std::string_view value) {
        std::optional<std::string> own = values ? values(field, value) : std::nullopt;
        out += own ? *own : std::string(value);
      });
  return out;
}

std::vector<std::string> PlanText::fields() const {
  std::vector<std::string> found;
  const auto add = [&](std::string_view field) {
    if (std::find(found.begin(), found.end(), field) == found.end()) found.emplace_back(field);
  };
  scan(
      marked_, [](std::string_view) {}, add, [&](std::string_view field, std::string_view) { add(field); });
  return found;
}

std::string PlanText::rule() const {
  std::string out;
  scan(
      marked_, [&](std::string_view text) { out.append(text); },
      [&](std::string_view field) { out += "<" + std::string(field) + ">"; },
      [&](std::string_view, std::string_view value) { out.append(value); });
  return out;
}

}  // namespace xb
