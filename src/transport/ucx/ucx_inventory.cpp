#include "transport/ucx/ucx_inventory.hpp"

#include <fmt/format.h>
#include <ucp/api/ucp.h>
#include <uct/api/uct.h>

#include <memory>
#include <stdexcept>

namespace xb {
namespace {

struct ComponentList {
  uct_component_h* list = nullptr;
  unsigned count = 0;
  ~ComponentList() {
    if (list != nullptr) uct_release_component_list(list);
  }
};

struct MdConfigDeleter {
  void operator()(uct_md_config_t* c) const { uct_config_release(c); }
};
struct MdDeleter {
  void operator()(uct_md* md) const { uct_md_close(md); }
};
struct ResourcesDeleter {
  void operator()(uct_tl_resource_desc_t* r) const { uct_release_tl_resource_list(r); }
};

const char* device_type_name(uct_device_type_t type) {
  switch (type) {
    case UCT_DEVICE_TYPE_NET: return "network";
    case UCT_DEVICE_TYPE_SHM: return "shared memory";
    case UCT_DEVICE_TYPE_ACC: return "accelerator";
    case UCT_DEVICE_TYPE_SELF: return "loopback";
    default: return "other";
  }
}

// Every transport/device of one memory domain.
void list_memory_domain(uct_component_h component, const std::string& component_name, const char* md_name,
                        UcxInventory& out) {
  uct_md_config_t* raw_config = nullptr;
  ucs_status_t s = uct_md_config_read(component, nullptr, nullptr, &raw_config);
  if (s != UCS_OK) {
    out.problems.push_back(fmt::format("{}: uct_md_config_read: {}", md_name, ucs_status_string(s)));
    return;
  }
  const std::unique_ptr<uct_md_config_t, MdConfigDeleter> config(raw_config);
  uct_md_h raw_md = nullptr;
  s = uct_md_open(component, md_name, config.get(), &raw_md);
  if (s != UCS_OK) {
    out.problems.push_back(fmt::format("{}: uct_md_open: {}", md_name, ucs_status_string(s)));
    return;
  }
  const std::unique_ptr<uct_md, MdDeleter> md(raw_md);
  uct_tl_resource_desc_t* raw_resources = nullptr;
  unsigned count = 0;
  s = uct_md_query_tl_resources(md.get(), &raw_resources, &count);
  if (s != UCS_OK) {
    out.problems.push_back(fmt::format("{}: uct_md_query_tl_resources: {}", md_name, ucs_status_string(s)));
    return;
  }
  const std::unique_ptr<uct_tl_resource_desc_t, ResourcesDeleter> resources(raw_resources);
  for (unsigned i = 0; i < count; ++i) {
    const auto& r = raw_resources[i];
    out.resources.push_back({component_name, md_name, r.tl_name, r.dev_name, device_type_name(r.dev_type)});
  }
}

}  // namespace

UcxInventory ucx_inventory() {
  UcxInventory out;
  out.version = ucp_get_version_string();
  ComponentList components;
  const ucs_status_t s = uct_query_components(&components.list, &components.count);
  if (s != UCS_OK) throw std::runtime_error(fmt::format("uct_query_components: {}", ucs_status_string(s)));
  for (unsigned c = 0; c < components.count; ++c) {
    uct_component_attr_t attr{};
    attr.field_mask = UCT_COMPONENT_ATTR_FIELD_NAME | UCT_COMPONENT_ATTR_FIELD_MD_RESOURCE_COUNT;
    if (uct_component_query(components.list[c], &attr) != UCS_OK) continue;
    std::vector<uct_md_resource_desc_t> mds(attr.md_resource_count);
    attr.field_mask = UCT_COMPONENT_ATTR_FIELD_MD_RESOURCES;
    attr.md_resources = mds.data();
    if (!mds.empty() && uct_component_query(components.list[c], &attr) != UCS_OK) continue;
    for (const auto& md : mds) list_memory_domain(components.list[c], attr.name, md.md_name, out);
  }
  return out;
}

}  // namespace xb
