#include "backends/acl/acl_probe.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "backends/acl/acl_error.hpp"
#include "backends/acl/acl_library.hpp"
#include "backends/child_answer.hpp"
#include "backends/pci_numa.hpp"

namespace xb::acl {
namespace {

// Cards from the die-to-die links: a device joined to an earlier one shares its card.
void assign_cards(const AclApi& api, AclProbe& p) {
  if (api.aclrtGetDevicesTopo == nullptr) {
    p.topology_note = "cards not known: the runtime lacks aclrtGetDevicesTopo (each device is its own card)";
    for (std::size_t i = 0; i < p.devices.size(); ++i) p.devices[i].card = static_cast<int>(i);
    return;
  }
  int cards = 0;
  for (std::size_t i = 0; i < p.devices.size(); ++i) {
    ProbedNpu& d = p.devices[i];
    for (std::size_t j = 0; j < i && d.card < 0; ++j) {
      std::uint64_t links = 0;
      check(api, api.aclrtGetDevicesTopo(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j), &links),
            "aclrtGetDevicesTopo", fmt::format("acl devices {} and {}", i, j));
      if ((links & kDevsTopologySio) == 0) continue;
      d.card = p.devices[j].card;
      int on_card = 0;
      for (std::size_t k = 0; k < i; ++k) on_card += p.devices[k].card == d.card ? 1 : 0;
      d.die = on_card;
    }
    if (d.card < 0) {
      d.card = cards;
      d.die = 0;
    }
    cards = std::max(cards, d.card + 1);
  }
  p.topology_note = "cards from die-to-die links (aclrtGetDevicesTopo)";
}

// Each device's name, memory and PCI address; the device is set only while it is read.
ProbedNpu read_device(const AclApi& api, int index) {
  check(api, api.aclrtSetDevice(index), "aclrtSetDevice", fmt::format("acl device {}", index));
  ProbedNpu d;
  const char* soc = api.aclrtGetSocName();
  d.name = soc != nullptr ? soc : "Ascend NPU";
  std::size_t free = 0, total = 0;
  check(api, api.aclrtGetMemInfo(kHbmMem, &free, &total), "aclrtGetMemInfo", fmt::format("HBM of acl device {}", index));
  d.memory_bytes = total;
  if (api.aclrtDeviceGetPCIBusId != nullptr) {
    char bus[32] = {};
    if (api.aclrtDeviceGetPCIBusId(index, bus, static_cast<std::int32_t>(sizeof bus)) == kAclSuccess) {
      d.pci_address = bus;
    } else {
      (void)api.aclGetRecentErrMsg();  // a device not on PCIe (HCCS, UB): the address stays unknown
    }
  }
  check(api, api.aclrtResetDevice(index), "aclrtResetDevice", fmt::format("acl device {}", index));
  return d;
}

}  // namespace

AclProbe probe_in_this_process(const std::filesystem::path& library) {
  AclProbe p;
  p.library = library;
  std::string why;
  auto lib = AclLibrary::open(library, why);
  if (!lib) {
    p.support = Support::no(why);
    return p;
  }
  const AclApi& api = lib->api();
  p.batch_copies = api.aclrtMemcpyBatchAsync != nullptr;
  p.host_register = api.aclrtHostRegister != nullptr;
  const aclError init = api.aclInit(nullptr);
  if (init != kAclSuccess && init != kAclErrorRepeatInitialize) {
    p.support = Support::no(failure_text(api, init, "aclInit", library.string()));
    return p;
  }
  try {
    std::uint32_t count = 0;
    check(api, api.aclrtGetDeviceCount(&count), "aclrtGetDeviceCount");
    if (count == 0) throw std::runtime_error(fmt::format("{} is loaded but reports no NPU", library.string()));
    for (std::uint32_t i = 0; i < count; ++i) p.devices.push_back(read_device(api, static_cast<int>(i)));
    assign_cards(api, p);
  } catch (const std::exception& e) {
    p.support = Support::no(e.what());
    p.devices.clear();
  }
  (void)api.aclFinalize();
  return p;
}

std::string encode_acl_probe(const AclProbe& p) {
  nlohmann::json j{{"ok", p.support.ok},
                   {"reason", p.support.reason},
                   {"library", p.library.string()},
                   {"batch_copies", p.batch_copies},
                   {"host_register", p.host_register},
                   {"topology_note", p.topology_note},
                   {"devices", nlohmann::json::array()}};
  for (const auto& d : p.devices) {
    j["devices"].push_back({{"name", d.name},
                            {"memory_bytes", d.memory_bytes},
                            {"pci_address", d.pci_address},
                            {"card", d.card},
                            {"die", d.die}});
  }
  return j.dump();
}

AclProbe decode_acl_probe(const std::string& text) {
  AclProbe p;
  try {
    const auto j = nlohmann::json::parse(text);
    p.support = j.at("ok").get<bool>() ? Support::yes() : Support::no(j.at("reason").get<std::string>());
    p.library = j.at("library").get<std::string>();
    p.batch_copies = j.at("batch_copies").get<bool>();
    p.host_register = j.at("host_register").get<bool>();
    p.topology_note = j.at("topology_note").get<std::string>();
    for (const auto& d : j.at("devices")) {
      p.devices.push_back({d.at("name").get<std::string>(), d.at("memory_bytes").get<std::uint64_t>(),
                           d.at("pci_address").get<std::string>(), -1, d.at("card").get<int>(),
                           d.at("die").get<int>()});
    }
  } catch (const nlohmann::json::exception& e) {
    return {Support::no(fmt::format("the acl probe sent an unreadable answer ({})", e.what())), {}, {}, false, false, {}};
  }
  if (p.support.ok && p.devices.empty()) p.support = Support::no("the acl probe found no NPU");
  return p;
}

AclProbe probe_npus(int timeout_ms) {
  std::string why;
  const auto library = find_acl_library(why);
  if (!library) return {Support::no(why), {}, {}, false, false, {}};
  const ChildAnswer answer =
      answer_from_child([&] { return encode_acl_probe(probe_in_this_process(*library)); }, "the acl probe", timeout_ms);
  if (!answer.ok) return {Support::no(answer.text), *library, {}, false, false, {}};
  AclProbe p = decode_acl_probe(answer.text);
  for (auto& d : p.devices) d.numa_node = numa_node_of_pci(d.pci_address);
  return p;
}

}  // namespace xb::acl
