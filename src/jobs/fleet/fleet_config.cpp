#include "jobs/fleet/fleet_config.hpp"

namespace xb {

void to_json(nlohmann::json& j, const FleetListedLink& l) {
  j = {{"from_rank", l.from_rank}, {"to_rank", l.to_rank},     {"from", l.from},
       {"to", l.to},               {"bandwidth", l.bandwidth}, {"of_median", l.of_median}};
}

void from_json(const nlohmann::json& j, FleetListedLink& l) {
  j.at("from_rank").get_to(l.from_rank);
  j.at("to_rank").get_to(l.to_rank);
  j.at("from").get_to(l.from);
  j.at("to").get_to(l.to);
  j.at("bandwidth").get_to(l.bandwidth);
  j.at("of_median").get_to(l.of_median);
}

void to_json(nlohmann::json& j, const FleetMatrixConfig& c) {
  j = {{"ranks", c.ranks},         {"size", c.size},           {"executions", c.executions},
       {"warmup", c.warmup},       {"max_pairs", c.max_pairs}, {"threshold", c.threshold},
       {"transport", c.transport}, {"device", c.device},       {"confirm", c.confirm},
       {"matrix", c.matrix},       {"flagged", c.flagged},     {"cleared", c.cleared}};
}

void from_json(const nlohmann::json& j, FleetMatrixConfig& c) {
  j.at("ranks").get_to(c.ranks);
  j.at("size").get_to(c.size);
  j.at("executions").get_to(c.executions);
  j.at("warmup").get_to(c.warmup);
  j.at("max_pairs").get_to(c.max_pairs);
  j.at("threshold").get_to(c.threshold);
  j.at("transport").get_to(c.transport);
  j.at("device").get_to(c.device);
  j.at("confirm").get_to(c.confirm);
  c.matrix = j.at("matrix");
  j.at("flagged").get_to(c.flagged);
  j.at("cleared").get_to(c.cleared);
}

}  // namespace xb
