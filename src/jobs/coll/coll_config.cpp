#include "jobs/coll/coll_config.hpp"

#include "core/json_optional.hpp"

namespace xb {

void to_json(nlohmann::json& j, const CollConfig& c) {
  j = {{"collective", c.collective}, {"size", c.size},   {"block_bytes", c.block_bytes},
       {"count", c.count},           {"datatype", c.datatype}, {"ranks", c.ranks},
       {"group", c.group},           {"iterations", c.iterations}, {"warmup", c.warmup},
       {"line_up", c.line_up},       {"path", c.path}};
  put_optional(j, "outstanding", c.outstanding);
  put_optional(j, "root", c.root);
  put_optional(j, "checked", c.checked);
  put_optional(j, "net_device", c.net_device);
}

void from_json(const nlohmann::json& j, CollConfig& c) {
  j.at("collective").get_to(c.collective);
  j.at("size").get_to(c.size);
  j.at("block_bytes").get_to(c.block_bytes);
  j.at("count").get_to(c.count);
  j.at("datatype").get_to(c.datatype);
  j.at("ranks").get_to(c.ranks);
  j.at("group").get_to(c.group);
  j.at("iterations").get_to(c.iterations);
  j.at("warmup").get_to(c.warmup);
  j.at("line_up").get_to(c.line_up);
  j.at("path").get_to(c.path);
  get_optional(j, "outstanding", c.outstanding);
  get_optional(j, "root", c.root);
  get_optional(j, "checked", c.checked);
  get_optional(j, "net_device", c.net_device);
}

}  // namespace xb
