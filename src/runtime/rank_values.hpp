#pragma once
// A rank's result as a typed value: `run_ranks` runs a body on every rank of a Launcher and gives
// the root each rank's value, in rank order, as the type the body returned. The one place a rank's
// result is serialized: CBOR through the type's nlohmann to_json/from_json (exact doubles, any
// size; the fork launcher carries it in a memory file of its own), so no job parses another
// process's JSON text and no caller sizes a slot.
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/runtime.hpp"

namespace xb {

template <typename Body>
auto run_ranks(Launcher& launcher, Body&& body) -> std::vector<std::remove_cvref_t<std::invoke_result_t<Body&, Runtime&>>> {
  using Value = std::remove_cvref_t<std::invoke_result_t<Body&, Runtime&>>;
  const std::vector<std::string> encoded = launcher.run([&body](Runtime& rt) {
    const std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(nlohmann::json(body(rt)));
    return std::string(bytes.begin(), bytes.end());
  });
  std::vector<Value> values;
  values.reserve(encoded.size());
  for (const std::string& e : encoded) values.push_back(nlohmann::json::from_cbor(e).template get<Value>());
  return values;
}

}  // namespace xb
