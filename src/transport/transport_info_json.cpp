#include "transport/transport_info_json.hpp"

namespace xb {

void to_json(nlohmann::json& j, const TransportInfo& t) {
  j = {{"name", t.name}, {"version", t.version}, {"lanes", t.lanes}, {"settings", t.settings}};
}

void from_json(const nlohmann::json& j, TransportInfo& t) {
  j.at("name").get_to(t.name);
  j.at("version").get_to(t.version);
  j.at("lanes").get_to(t.lanes);
  j.at("settings").get_to(t.settings);
}

}  // namespace xb
