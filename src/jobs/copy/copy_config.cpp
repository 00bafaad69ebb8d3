#include "jobs/copy/copy_config.hpp"

#include "core/json_optional.hpp"

namespace xb {

void to_json(nlohmann::json& j, const CopyTiming& t) {
  j = {{"submit", t.submit}, {"copy", t.copy}};
  put_optional(j, "device", t.device);
}

void from_json(const nlohmann::json& j, CopyTiming& t) {
  j.at("submit").get_to(t.submit);
  j.at("copy").get_to(t.copy);
  get_optional(j, "device", t.device);
}

void to_json(nlohmann::json& j, const CopyConfig& c) {
  j = {{"backend", c.backend},
       {"direction", c.direction},
       {"host_memory", c.host_memory},
       {"topology", c.topology},
       {"engine", c.engine},
       {"batch", c.batch},
       {"streams", c.streams},
       {"block_bytes", c.block_bytes},
       {"blocks", c.blocks},
       {"iterations", c.iterations},
       {"warmup", c.warmup},
       {"devices", c.devices},
       {"first_device", c.first_device},
       {"fragments", c.fragments},
       {"verify", c.verify},
       {"seed", c.seed},
       {"launcher", c.launcher},
       {"timing", c.timing}};
  put_optional(j, "submission", c.submission);
}

void from_json(const nlohmann::json& j, CopyConfig& c) {
  j.at("backend").get_to(c.backend);
  j.at("direction").get_to(c.direction);
  j.at("host_memory").get_to(c.host_memory);
  j.at("topology").get_to(c.topology);
  j.at("engine").get_to(c.engine);
  j.at("batch").get_to(c.batch);
  j.at("streams").get_to(c.streams);
  j.at("block_bytes").get_to(c.block_bytes);
  j.at("blocks").get_to(c.blocks);
  j.at("iterations").get_to(c.iterations);
  j.at("warmup").get_to(c.warmup);
  j.at("devices").get_to(c.devices);
  j.at("first_device").get_to(c.first_device);
  j.at("fragments").get_to(c.fragments);
  j.at("verify").get_to(c.verify);
  j.at("seed").get_to(c.seed);
  j.at("launcher").get_to(c.launcher);
  j.at("timing").get_to(c.timing);
  get_optional(j, "submission", c.submission);
}

}  // namespace xb
