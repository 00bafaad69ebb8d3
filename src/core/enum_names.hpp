#pragma once
// An enum's names as one table, so the name of a value and the value of a name come from the same
// list: `constexpr NamedValue<E> kNames[] = {{E::a, "a"}, …};` then name_of(kNames, e) and
// value_named(kNames, "a").
#include <optional>
#include <string_view>
#include <utility>

namespace xb {

template <class E>
using NamedValue = std::pair<E, std::string_view>;

template <class E, std::size_t N>
constexpr std::string_view name_of(const NamedValue<E> (&table)[N], E value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "?";
}

template <class E, std::size_t N>
constexpr std::optional<E> value_named(const NamedValue<E> (&table)[N], std::string_view name) {
  for (const auto& [v, n] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

}  // namespace xb
