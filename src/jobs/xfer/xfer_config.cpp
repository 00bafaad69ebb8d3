#include "jobs/xfer/xfer_config.hpp"

#include <stdexcept>

#include "core/json_optional.hpp"

namespace xb {
namespace {

void require_role(const nlohmann::json& j, const char* role) {
  if (j.at("role") != role) {
    throw std::invalid_argument(std::string("an xfer ") + j.at("role").dump() + " case read as a " + role + "'s");
  }
}

}  // namespace

bool is_xfer_client_config(const nlohmann::json& config) {
  return config.is_object() && config.value("role", "") == "client";
}

void to_json(nlohmann::json& j, const XferClientConfig& c) {
  j = {{"role", "client"},
       {"peer", c.peer},
       {"op", c.op},
       {"mode", c.mode},
       {"local_place", c.local_place},
       {"remote_place", c.remote_place},
       {"block", c.block},
       {"total", c.total},
       {"transfers", c.transfers},
       {"iters", c.iters},
       {"warmup", c.warmup},
       {"latency_pass", c.latency_pass},
       {"verify", c.verify},
       {"verified", c.verified},
       {"seed", c.seed},
       {"wait_ms", c.wait_ms},
       {"transport", c.transport},
       {"server", c.server},
       {"remote_memory", c.remote_memory},
       {"local_memory", c.local_memory},
       {"backend", c.backend},
       {"device", c.device},
       {"device_name", c.device_name},
       {"pool", c.pool},
       {"mover", c.mover},
       {"timing", c.timing}};
  put_optional(j, "device_path", c.device_path);
  put_optional(j, "server_index", c.server_index);
  put_optional(j, "servers", c.servers);
}

void from_json(const nlohmann::json& j, XferClientConfig& c) {
  require_role(j, "client");
  j.at("peer").get_to(c.peer);
  j.at("op").get_to(c.op);
  j.at("mode").get_to(c.mode);
  j.at("local_place").get_to(c.local_place);
  j.at("remote_place").get_to(c.remote_place);
  j.at("block").get_to(c.block);
  j.at("total").get_to(c.total);
  j.at("transfers").get_to(c.transfers);
  j.at("iters").get_to(c.iters);
  j.at("warmup").get_to(c.warmup);
  j.at("latency_pass").get_to(c.latency_pass);
  j.at("verify").get_to(c.verify);
  j.at("verified").get_to(c.verified);
  j.at("seed").get_to(c.seed);
  j.at("wait_ms").get_to(c.wait_ms);
  j.at("transport").get_to(c.transport);
  j.at("server").get_to(c.server);
  j.at("remote_memory").get_to(c.remote_memory);
  j.at("local_memory").get_to(c.local_memory);
  j.at("backend").get_to(c.backend);
  j.at("device").get_to(c.device);
  j.at("device_name").get_to(c.device_name);
  j.at("pool").get_to(c.pool);
  c.mover = j.at("mover");
  j.at("timing").get_to(c.timing);
  get_optional(j, "device_path", c.device_path);
  get_optional(j, "server_index", c.server_index);
  get_optional(j, "servers", c.servers);
}

void to_json(nlohmann::json& j, const XferServerConfig& c) {
  j = {{"role", "server"},       {"listen", c.listen},   {"data", c.data},
       {"client", c.client},     {"clients", c.clients}, {"wait_ms", c.wait_ms},
       {"transport", c.transport}, {"backend", c.backend}, {"device", c.device},
       {"device_name", c.device_name}};
}

void from_json(const nlohmann::json& j, XferServerConfig& c) {
  require_role(j, "server");
  j.at("listen").get_to(c.listen);
  j.at("data").get_to(c.data);
  j.at("client").get_to(c.client);
  j.at("clients").get_to(c.clients);
  j.at("wait_ms").get_to(c.wait_ms);
  j.at("transport").get_to(c.transport);
  j.at("backend").get_to(c.backend);
  j.at("device").get_to(c.device);
  j.at("device_name").get_to(c.device_name);
}

}  // namespace xb
