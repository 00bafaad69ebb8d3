#include "jobs/xfer/xfer_config.hpp"

#include <stdexcept>

namespace xb {
namespace {

template <typename Config>
void write_as(nlohmann::json& j, const Config& c, const char* role) {
  j = {{"role", role}};
  write_fields(j, c);
}

template <typename Config>
void read_as(const nlohmann::json& j, Config& c, const char* role) {
  if (j.at("role") != role) {
    throw std::invalid_argument(std::string("an xfer ") + j.at("role").dump() + " case read as a " + role + "'s");
  }
  read_fields(j, c);
}

}  // namespace

bool is_xfer_client_config(const nlohmann::json& config) {
  return config.is_object() && config.value("role", "") == "client";
}

void to_json(nlohmann::json& j, const XferClientConfig& c) { write_as(j, c, "client"); }
void from_json(const nlohmann::json& j, XferClientConfig& c) { read_as(j, c, "client"); }
void to_json(nlohmann::json& j, const XferServerConfig& c) { write_as(j, c, "server"); }
void from_json(const nlohmann::json& j, XferServerConfig& c) { read_as(j, c, "server"); }

}  // namespace xb
