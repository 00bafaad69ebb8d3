#pragma once
// A typed record's JSON written and read from one list of its fields (the jobs' configs): each
// field's key is its name, and its type says how it is written.
//   T                 always written; read back required (a missing key throws nlohmann's
//                     out_of_range naming it).
//   std::optional<T>  written only when set; read back empty when absent or null.
//   OrNull<T>         written as null when unset (records whose keys have always been there).
//   Beside<T>         a record whose own fields sit beside its owner's, not in a sub-object; present
//                     when the owner's JSON has this field's key, which the record must write too.
// nlohmann's own macros (NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE) write every std::optional as a null and
// read every key as required; these keep the records' documents as they always were.
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace xb {

template <typename T>
struct OrNull : std::optional<T> {
  using std::optional<T>::optional;
  template <typename U>
  OrNull& operator=(U&& v) {
    std::optional<T>::operator=(std::forward<U>(v));
    return *this;
  }
};

template <typename T>
struct Beside : std::optional<T> {
  using std::optional<T>::optional;
  template <typename U>
  Beside& operator=(U&& v) {
    std::optional<T>::operator=(std::forward<U>(v));
    return *this;
  }
};

namespace json_record {

template <typename T>
void write(nlohmann::json& j, const char* key, const T& v) {
  j[key] = v;
}
template <typename T>
void write(nlohmann::json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}
template <typename T>
void write(nlohmann::json& j, const char* key, const OrNull<T>& v) {
  j[key] = v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
template <typename T>
void write(nlohmann::json& j, const char* key, const Beside<T>& v) {
  if (!v) return;
  const nlohmann::json own = *v;
  if (!own.contains(key)) throw std::logic_error(std::string("a record beside its owner does not write ") + key);
  j.update(own);
}

template <typename T>
void read(const nlohmann::json& j, const char* key, T& v) {
  j.at(key).get_to(v);
}
template <typename T>
void read_optional(const nlohmann::json& j, const char* key, std::optional<T>& v) {
  const auto it = j.find(key);
  v = it == j.end() || it->is_null() ? std::nullopt : std::optional<T>(it->template get<T>());
}
template <typename T>
void read(const nlohmann::json& j, const char* key, std::optional<T>& v) {
  read_optional(j, key, v);
}
template <typename T>
void read(const nlohmann::json& j, const char* key, OrNull<T>& v) {
  read_optional<T>(j, key, v);
}
template <typename T>
void read(const nlohmann::json& j, const char* key, Beside<T>& v) {
  v = j.contains(key) ? std::optional<T>(j.get<T>()) : std::nullopt;
}

}  // namespace json_record
}  // namespace xb

#define XB_JSON_RECORD_WRITE(field) ::xb::json_record::write(j, #field, c.field);
#define XB_JSON_RECORD_READ(field) ::xb::json_record::read(j, #field, c.field);

// write_fields/read_fields of Type over the fields named, for a record that adds to them (a
// constant key, a check). The fields are written into a document of write_fields' own, moved into j
// at the end: `nlohmann::json j = record;` calls to_json on a j still under construction, whose
// destructor never runs if a field throws (Beside's refusal), so anything written into j itself
// before the throw would leak.
#define XB_JSON_FIELDS(Type, ...)                                                            \
  inline void write_fields(nlohmann::json& out, const Type& c) {                             \
    nlohmann::json j = out.is_object() ? std::move(out) : nlohmann::json::object();          \
    out = nullptr;                                                                           \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(XB_JSON_RECORD_WRITE, __VA_ARGS__))             \
    out = std::move(j);                                                                      \
  }                                                                                          \
  inline void read_fields(const nlohmann::json& j, Type& c) {                                \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(XB_JSON_RECORD_READ, __VA_ARGS__))              \
  }

// to_json/from_json of Type over the fields named.
#define XB_JSON_RECORD(Type, ...)                                                            \
  XB_JSON_FIELDS(Type, __VA_ARGS__)                                                          \
  inline void to_json(nlohmann::json& j, const Type& c) {                                    \
    j = nlohmann::json::object();                                                            \
    write_fields(j, c);                                                                      \
  }                                                                                          \
  inline void from_json(const nlohmann::json& j, Type& c) { read_fields(j, c); }
