#include "jobs/link/link_config.hpp"

#include "core/json_optional.hpp"

namespace xb {

void to_json(nlohmann::json& j, const LinkConfig& c) {
  j = {{"size", c.size},
       {"sweep", {{"min", c.sweep.min}, {"max", c.sweep.max}, {"step", c.sweep.step}}},
       {"iterations", c.iterations},
       {"warmup", c.warmup},
       {"memory", c.memory},
       {"src", {{"memory", c.src.memory}, {"description", c.src.description}}},
       {"dst", {{"memory", c.dst.memory}, {"description", c.dst.description}}},
       {"cuda", c.cuda},
       {"backend", c.backend},
       {"device", c.device},
       {"peer", c.peer},
       {"server", c.server},
       {"transport", c.transport},
       {"transfer", c.transfer},
       {"timing", c.timing},
       {"check", c.check}};
  put_optional(j, "device_path", c.device_path);
  put_optional(j, "check_method", c.check_method);
}

void from_json(const nlohmann::json& j, LinkConfig& c) {
  j.at("size").get_to(c.size);
  const auto& sweep = j.at("sweep");
  sweep.at("min").get_to(c.sweep.min);
  sweep.at("max").get_to(c.sweep.max);
  sweep.at("step").get_to(c.sweep.step);
  j.at("iterations").get_to(c.iterations);
  j.at("warmup").get_to(c.warmup);
  j.at("memory").get_to(c.memory);
  j.at("src").at("memory").get_to(c.src.memory);
  j.at("src").at("description").get_to(c.src.description);
  j.at("dst").at("memory").get_to(c.dst.memory);
  j.at("dst").at("description").get_to(c.dst.description);
  j.at("cuda").get_to(c.cuda);
  j.at("backend").get_to(c.backend);
  j.at("device").get_to(c.device);
  j.at("peer").get_to(c.peer);
  j.at("server").get_to(c.server);
  j.at("transport").get_to(c.transport);
  j.at("transfer").get_to(c.transfer);
  j.at("timing").get_to(c.timing);
  j.at("check").get_to(c.check);
  get_optional(j, "device_path", c.device_path);
  get_optional(j, "check_method", c.check_method);
}

}  // namespace xb
