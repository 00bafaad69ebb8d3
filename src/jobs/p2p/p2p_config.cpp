#include "jobs/p2p/p2p_config.hpp"

#include "core/json_optional.hpp"

namespace xb {

void to_json(nlohmann::json& j, const P2pConfig& c) {
  j = {{"backend", c.backend}, {"direction", c.direction}, {"size_bytes", c.size_bytes},
       {"executions", c.executions}, {"warmup", c.warmup}, {"engine", c.engine},
       {"verify", c.verify},   {"seed", c.seed},           {"timing", c.timing},
       {"scope", c.scope}};
  put_optional(j, "from", c.from);
  put_optional(j, "to", c.to);
  put_optional(j, "devices", c.devices);
  put_optional(j, "matrix", c.matrix);
  put_optional(j, "launcher", c.launcher);
  put_optional(j, "transport", c.transport);
  put_optional(j, "from_rank", c.from_rank);
  put_optional(j, "to_rank", c.to_rank);
  put_optional(j, "from_device", c.from_device);
  put_optional(j, "to_device", c.to_device);
  put_optional(j, "from_node", c.from_node);
  put_optional(j, "to_node", c.to_node);
  put_optional(j, "device", c.device);
}

void from_json(const nlohmann::json& j, P2pConfig& c) {
  j.at("backend").get_to(c.backend);
  j.at("direction").get_to(c.direction);
  j.at("size_bytes").get_to(c.size_bytes);
  j.at("executions").get_to(c.executions);
  j.at("warmup").get_to(c.warmup);
  j.at("engine").get_to(c.engine);
  j.at("verify").get_to(c.verify);
  j.at("seed").get_to(c.seed);
  j.at("timing").get_to(c.timing);
  j.at("scope").get_to(c.scope);
  get_optional(j, "from", c.from);
  get_optional(j, "to", c.to);
  get_optional(j, "devices", c.devices);
  get_optional(j, "matrix", c.matrix);
  get_optional(j, "launcher", c.launcher);
  get_optional(j, "transport", c.transport);
  get_optional(j, "from_rank", c.from_rank);
  get_optional(j, "to_rank", c.to_rank);
  get_optional(j, "from_device", c.from_device);
  get_optional(j, "to_device", c.to_device);
  get_optional(j, "from_node", c.from_node);
  get_optional(j, "to_node", c.to_node);
  get_optional(j, "device", c.device);
}

std::pair<int, int> p2p_ranks_of(const nlohmann::json& config) {
  return {config.at("from_rank").get<int>(), config.at("to_rank").get<int>()};
}

}  // namespace xb
