#include "jobs/kv/kv_config.hpp"

#include "core/json_optional.hpp"

namespace xb {

void to_json(nlohmann::json& j, const KvConfig& c) {
  j = {{"op", c.op},
       {"store", c.store},
       {"layout", c.layout},
       {"blocks", c.blocks},
       {"block_bytes", c.block_bytes},
       {"threads", c.threads},
       {"passes", c.passes},
       {"io", c.io},
       {"direct", c.direct},
       {"direct_alignment", c.direct_alignment},
       {"seed", c.seed},
       {"latency_span", c.latency_span}};
  put_optional(j, "sync", c.sync);
  put_optional(j, "publish", c.publish);
  put_optional(j, "to", c.to);
  put_optional(j, "verify", c.verify);
  if (!c.device) return;
  j["backend"] = c.device->backend;
  j["device"] = c.device->device;
  j["engine"] = c.device->engine;
  j["device_memory"] = c.device->device_memory;
}

void from_json(const nlohmann::json& j, KvConfig& c) {
  j.at("op").get_to(c.op);
  j.at("store").get_to(c.store);
  j.at("layout").get_to(c.layout);
  j.at("blocks").get_to(c.blocks);
  j.at("block_bytes").get_to(c.block_bytes);
  j.at("threads").get_to(c.threads);
  j.at("passes").get_to(c.passes);
  j.at("io").get_to(c.io);
  j.at("direct").get_to(c.direct);
  j.at("direct_alignment").get_to(c.direct_alignment);
  j.at("seed").get_to(c.seed);
  j.at("latency_span").get_to(c.latency_span);
  get_optional(j, "sync", c.sync);
  get_optional(j, "publish", c.publish);
  get_optional(j, "to", c.to);
  get_optional(j, "verify", c.verify);
  if (!j.contains("backend")) {
    c.device.reset();
    return;
  }
  KvDeviceConfig d;
  j.at("backend").get_to(d.backend);
  j.at("device").get_to(d.device);
  j.at("engine").get_to(d.engine);
  j.at("device_memory").get_to(d.device_memory);
  c.device = std::move(d);
}

}  // namespace xb
