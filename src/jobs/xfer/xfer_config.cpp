#include "jobs/xfer/xfer_config.hpp"

#include <stdexcept>

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
  j = {{"role", "client"}};
  write_fields(j, c);
}

void from_json(const nlohmann::json& j, XferClientConfig& c) {
  require_role(j, "client");
  read_fields(j, c);
}

void to_json(nlohmann::json& j, const XferServerConfig& c) {
  j = {{"role", "server"}};
  write_fields(j, c);
}

void from_json(const nlohmann::json& j, XferServerConfig& c) {
  require_role(j, "server");
  read_fields(j, c);
}

}  // namespace xb
