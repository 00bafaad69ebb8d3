#pragma once
// Optional fields of the typed config records (jobs/*/*_config.hpp), spelled once: an empty field
// is an absent key (or, where a record has always written it so, a null), and an absent or null
// key reads back empty.
#include <optional>

#include <nlohmann/json.hpp>

namespace xb {

template <typename T>
void put_optional(nlohmann::json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

// The key is always there: the value, or null.
template <typename T>
void put_or_null(nlohmann::json& j, const char* key, const std::optional<T>& v) {
  j[key] = v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

template <typename T>
void get_optional(const nlohmann::json& j, const char* key, std::optional<T>& v) {
  const auto it = j.find(key);
  v = it == j.end() || it->is_null() ? std::nullopt : std::optional<T>(it->template get<T>());
}

}  // namespace xb
