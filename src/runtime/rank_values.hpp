#pragma once
// A rank's result as a typed value: `run_ranks` runs a body on every rank of a Launcher and gives
// the root each rank's value, in rank order, as the type the body returned; `gather_values`,
// `allgather_values` and `broadcast_value` do the same over the ranks of a Runtime that is already
// running (MPI, a TCP pair). The one place a rank's result is serialized: CBOR through the type's
// nlohmann to_json/from_json (exact doubles, any size; the fork launcher carries it in a memory
// file of its own), so no job parses another process's JSON text and no caller sizes a slot.
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/runtime.hpp"

namespace xb {

namespace rank_values_detail {

template <typename T>
std::string encode(const T& value) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(nlohmann::json(value));
  return std::string(bytes.begin(), bytes.end());
}

template <typename T>
std::vector<T> decode_all(const std::vector<std::string>& encoded) {
  std::vector<T> values;
  values.reserve(encoded.size());
  for (const std::string& e : encoded) values.push_back(nlohmann::json::from_cbor(e).template get<T>());
  return values;
}

}  // namespace rank_values_detail

template <typename Body>
auto run_ranks(Launcher& launcher, Body&& body) -> std::vector<std::remove_cvref_t<std::invoke_result_t<Body&, Runtime&>>> {
  using Value = std::remove_cvref_t<std::invoke_result_t<Body&, Runtime&>>;
  return rank_values_detail::decode_all<Value>(
      launcher.run([&body](Runtime& rt) { return rank_values_detail::encode(body(rt)); }));
}

// Every rank's `mine` at `root`, in rank order; empty at the other ranks.
template <typename T>
std::vector<T> gather_values(Runtime& rt, const T& mine, int root) {
  return rank_values_detail::decode_all<T>(rt.gather(rank_values_detail::encode(mine), root));
}

// Every rank's `mine` at every rank, in rank order.
template <typename T>
std::vector<T> allgather_values(Runtime& rt, const T& mine) {
  return rank_values_detail::decode_all<T>(rt.allgather(rank_values_detail::encode(mine)));
}

// The root's `value` at every rank (what the others pass is ignored).
template <typename T>
T broadcast_value(Runtime& rt, const T& value, int root) {
  const std::string e = rt.broadcast(rank_values_detail::encode(value), root);
  return nlohmann::json::from_cbor(e).template get<T>();
}

}  // namespace xb
