#include "jobs/io/io_config.hpp"

#include "core/json_optional.hpp"

namespace xb {

void to_json(nlohmann::json& j, const IoConfig& c) {
  j = {{"directory", c.directory},
       {"file", c.file},
       {"files", c.files},
       {"threads", c.threads},
       {"rw", c.rw},
       {"size_per_thread_requested", c.size_per_thread_requested},
       {"size_per_thread", c.size_per_thread},
       {"data_set_requested", c.data_set_requested},
       {"shared_size", c.shared_size},
       {"offset", c.offset},
       {"io_size", c.io_size},
       {"engine", c.engine},
       {"engine_features", c.engine_features},
       {"queue_depth_requested", c.queue_depth_requested},
       {"queue_depth", c.queue_depth},
       {"direct", c.direct},
       {"direct_alignment", c.direct_alignment},
       {"verify", c.verify},
       {"seconds", c.seconds},
       {"seed", c.seed},
       {"io_size_min", c.io_size_min},
       {"io_size_step", c.io_size_step},
       {"random_alignment", c.random_alignment},
       {"buffers", c.buffers},
       {"transfer", c.transfer}};
  put_or_null(j, "order_seed", c.order_seed);
  put_or_null(j, "read_percent", c.read_percent);
  put_or_null(j, "numa_node", c.numa_node);
  if (!c.device) return;
  const IoDeviceConfig& d = *c.device;
  j["backend"] = d.backend;
  j["device"] = d.device;
  j["device_name"] = d.device_name;
  put_optional(j, "direct_storage", d.direct_storage);
  put_optional(j, "direct_storage_mode", d.direct_storage_mode);
  put_optional(j, "registered_buffers", d.registered_buffers);
  put_optional(j, "bounce_buffers_per_thread", d.bounce_buffers_per_thread);
}

void from_json(const nlohmann::json& j, IoConfig& c) {
  j.at("directory").get_to(c.directory);
  j.at("file").get_to(c.file);
  j.at("files").get_to(c.files);
  j.at("threads").get_to(c.threads);
  j.at("rw").get_to(c.rw);
  j.at("size_per_thread_requested").get_to(c.size_per_thread_requested);
  j.at("size_per_thread").get_to(c.size_per_thread);
  j.at("data_set_requested").get_to(c.data_set_requested);
  j.at("shared_size").get_to(c.shared_size);
  j.at("offset").get_to(c.offset);
  j.at("io_size").get_to(c.io_size);
  j.at("engine").get_to(c.engine);
  j.at("engine_features").get_to(c.engine_features);
  j.at("queue_depth_requested").get_to(c.queue_depth_requested);
  j.at("queue_depth").get_to(c.queue_depth);
  j.at("direct").get_to(c.direct);
  j.at("direct_alignment").get_to(c.direct_alignment);
  j.at("verify").get_to(c.verify);
  j.at("seconds").get_to(c.seconds);
  j.at("seed").get_to(c.seed);
  j.at("io_size_min").get_to(c.io_size_min);
  j.at("io_size_step").get_to(c.io_size_step);
  j.at("random_alignment").get_to(c.random_alignment);
  j.at("buffers").get_to(c.buffers);
  j.at("transfer").get_to(c.transfer);
  get_optional(j, "order_seed", c.order_seed);
  get_optional(j, "read_percent", c.read_percent);
  get_optional(j, "numa_node", c.numa_node);
  if (!j.contains("backend")) {
    c.device.reset();
    return;
  }
  IoDeviceConfig d;
  j.at("backend").get_to(d.backend);
  j.at("device").get_to(d.device);
  j.at("device_name").get_to(d.device_name);
  get_optional(j, "direct_storage", d.direct_storage);
  get_optional(j, "direct_storage_mode", d.direct_storage_mode);
  get_optional(j, "registered_buffers", d.registered_buffers);
  get_optional(j, "bounce_buffers_per_thread", d.bounce_buffers_per_thread);
  c.device = std::move(d);
}

}  // namespace xb
