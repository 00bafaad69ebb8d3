// `xferbench devices`: what this machine has for data to move through, as text or --json: the
// backends (and refused modules) with their devices' memory, NUMA node and PCI address; the host's
// NUMA nodes, cores, memory and PCI devices (hwloc); the storage under --dir; the transports (UCX's,
// as ucx_info -d lists them, and TCP); and the ceiling of each PCI path, network port and of host
// memory (judge/), with how it was derived and any link trained below its capability.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/args.hpp"
#include "cli/expect_flags.hpp"
#include "cli/command.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "core/topology_inventory.hpp"
#include "judge/memory_ceiling.hpp"
#include "judge/nic_ceiling.hpp"
#include "judge/pcie_path.hpp"
#include "judge/server_model.hpp"
#include "judge/storage_ceiling.hpp"
#include "runtime/mpi_library.hpp"
#include "storage/storage_inventory.hpp"
#include "transport/transport_inventory.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

// What a path bounded by one ceiling is expected to reach, and which rule of which layer said so
// (no rule: "none", and why).
struct ShownExpectation {
  std::string path;
  std::optional<ResolvedExpectation> resolved;
  bool ceiling_known = false;
};

std::vector<ShownExpectation> expectations_for(const ExpectationLayers& layers, const std::vector<std::string>& paths,
                                               const std::string& device, const std::string& server,
                                               const Ceiling& ceiling) {
  std::vector<ShownExpectation> out;
  for (const auto& path : paths) {
    // At the largest blocks, so rules that hold from some block size up are shown (their text
    // says from which).
    FigureFacts facts{path, "bandwidth", device, server, std::numeric_limits<std::uint64_t>::max(), ceiling.bytes_per_second, ""};
    out.push_back({path, resolve_expectation(layers.in_order(), facts),
                   ceiling.bytes_per_second.has_value()});
  }
  return out;
}

struct DeviceRow {
  std::string name;  // "cpu::device::0"
  DeviceInfo info;
  std::vector<ShownExpectation> expectations;  // copy.h2d and copy.d2h, where its PCI path's ceiling is known
};

struct BackendRow {
  std::string name, where, status;  // where: "built in" or the module file
  bool available = false;
  std::vector<std::string> engines;
  std::vector<DeviceRow> devices;
};

// Everything is gathered first, then rendered as text or JSON.
struct Inventory {
  std::vector<BackendRow> backends;
  std::vector<std::string> refused;  // "module PATH: refused: why"
  std::optional<TopologyInfo> topology;
  std::string topology_problem;
  std::optional<StorageInfo> storage;
  TransportInventory transports;
  // The MPI runtime module: where it was found and its MPI library, or why it is not here.
  std::string mpi_where, mpi_status;
  bool mpi_available = false;
  // The ceiling of every PCI address named above (backend devices, hwloc's PCI devices), and of
  // every network interface but loopback.
  std::map<std::string, Ceiling> pci_ceilings;
  std::vector<NicCeiling> nics;
  std::optional<Ceiling> storage_ceiling;  // where the storage is on a block device
  Ceiling memory_ceiling;                  // host memory's bandwidth, from the firmware's tables
  std::string server;                      // the firmware's product name, "" where it says none
  // What each ceiling's paths are expected to reach (a device's: in its row): per NIC (in the order
  // of nics), for the storage.
  std::vector<std::vector<ShownExpectation>> nic_expectations;
  std::vector<ShownExpectation> storage_expectations;
  std::vector<ShownExpectation> memory_expectations;  // copy.h2h, against half the memory's bandwidth
  std::string sku_note;  // which SKU entries this machine's server and devices meet, or that none does
  std::string site_file;
  std::size_t cli_rules = 0;
};

constexpr const char* kSysfs = "/sys";

Inventory gather(BackendRegistry& registry, const fs::path& dir, const ExpectationLayers& layers) {
  Inventory inv;
  try {
    inv.topology = inspect_topology();
  } catch (const std::exception& e) {
    inv.topology_problem = e.what();
  }
  inv.server = server_model(kSysfs);
  std::vector<std::string> device_names;
  for (const auto& m : registry.modules()) {
    if (!m.loaded) {
      inv.refused.push_back(fmt::format("module {}: refused: {}", m.path.string(), m.reason));
      continue;
    }
    Backend& b = registry.get(m.name);
    const Support s = b.availability();
    BackendRow row{std::string(b.name()), m.path.empty() ? "built in" : m.path.string(),
                   s.ok ? fmt::format("{} device(s)", b.device_count()) : "not available: " + s.reason, s.ok, {}, {}};
    if (s.ok) {
      row.engines = b.capabilities().engines;
      for (int i = 0; i < b.device_count(); ++i) {
        DeviceRow d{fmt::format("{}::device::{}", b.name(), i), b.open_device(i)->info(), {}};
        // A backend that knows the PCI address but not the NUMA node: ask hwloc.
        if (d.info.numa_node < 0 && !d.info.pci_address.empty() && inv.topology) {
          d.info.numa_node = numa_node_of_pci(*inv.topology, d.info.pci_address);
        }
        // Device memory taken from host RAM (the cpu backend's arenas): its NUMA node's memory.
        if (d.info.memory_bytes == 0 && b.capabilities().device_memory_in_host_ram && inv.topology) {
          for (const auto& n : inv.topology->numa_nodes) {
            if (static_cast<int>(n.os_index) == d.info.numa_node) d.info.memory_bytes = n.memory_bytes;
          }
        }
        device_names.push_back(d.info.name);
        if (!d.info.pci_address.empty()) {
          const Ceiling& c = inv.pci_ceilings[d.info.pci_address] = pcie_ceiling_of(kSysfs, d.info.pci_address);
          d.expectations = expectations_for(layers, {"copy.h2d", "copy.d2h"}, d.info.name, inv.server, c);
        }
        row.devices.push_back(std::move(d));
      }
    }
    inv.backends.push_back(std::move(row));
  }
  if (inv.topology) {
    for (const auto& p : inv.topology->pci_devices) inv.pci_ceilings[p.address] = pcie_ceiling_of(kSysfs, p.address);
  }
  inv.nics = nic_ceilings(kSysfs);
  inv.memory_ceiling = host_memory_ceiling(kSysfs);
  inv.site_file = layers.site_file;
  inv.cli_rules = layers.command_line.size();
  inv.memory_expectations = expectations_for(layers, {"copy.h2h"}, "", inv.server, host_copy_ceiling(inv.memory_ceiling));
  for (const auto& n : inv.nics) inv.nic_expectations.push_back(expectations_for(layers, {"link"}, n.name, inv.server, n.ceiling));
  // Unknown SKU: no SKU layer for this machine, said so (not an error).
  inv.sku_note = sku_note(layers, device_names, inv.server);
  inv.storage = inspect_storage(dir);
  if (!inv.storage->block_device.empty()) {
    inv.storage_ceiling = storage_ceiling(kSysfs, inv.storage->block_device);
    inv.storage_expectations = expectations_for(layers, {"io.read", "io.write"}, inv.storage->model, inv.server, *inv.storage_ceiling);
  }
  inv.transports = inspect_transports();
  std::string why;
  if (const auto mpi = MpiLibrary::open(registry.module_dirs(), why)) {
    inv.mpi_available = true;
    inv.mpi_where = mpi->file().string();
    inv.mpi_status = mpi->library_version();
  } else {
    inv.mpi_status = "not here: " + why;
  }
  return inv;
}

std::string storage_line(const StorageInfo& s) {
  std::string disk = "no block device";
  if (!s.block_device.empty()) {
    disk = fmt::format("block device {}{}: {}, logical block {} B, physical block {} B{}{}", s.block_device,
                       s.partition.empty() ? "" : " (partition " + s.partition + ")",
                       !s.rotational ? "rotational unknown" : *s.rotational ? "rotational" : "not rotational",
                       s.logical_block_bytes, s.physical_block_bytes, s.model.empty() ? "" : ", model " + s.model,
                       s.scheduler.empty() ? "" : ", scheduler " + s.scheduler);
  }
  return fmt::format("  file system {} from {} mounted at {}; {} free of {}\n  {}\n", s.fs_type, s.source,
                     s.mount_point, format_bytes_human(s.free_bytes), format_bytes_human(s.capacity_bytes), disk);
}

// "31.5 GB/s (PCIe Gen4 x16 …)", "unknown (why)"; decimal GB/s, as PCIe and Ethernet rates are
// written; the capability where a link trained below it; each warning on its own line.
std::string ceiling_text(const Ceiling& c, std::string_view indent) {
  std::string text = c.bytes_per_second ? fmt::format("{:.1f} GB/s", *c.bytes_per_second / 1e9) : "unknown";
  if (c.bytes_per_second && c.capable_bytes_per_second && *c.capable_bytes_per_second > *c.bytes_per_second) {
    text += fmt::format(" as trained ({:.1f} GB/s capable)", *c.capable_bytes_per_second / 1e9);
  }
  text += fmt::format(" ({})\n", c.derivation);
  for (const auto& w : c.warnings) text += fmt::format("{}warning: {}\n", indent, w);
  return text;
}

void render_expectations(const std::vector<ShownExpectation>& shown, std::string_view indent, std::ostream& out) {
  for (const auto& e : shown) {
    if (!e.resolved) {
      out << fmt::format("{}expect {}: no rule applies{}\n", indent, e.path,
                         e.ceiling_known ? "" : " (the ceiling is unknown, and no SKU, site or command-line rule names a figure)");
      continue;
    }
    const ExpectRule& r = *e.resolved->rule;
    out << fmt::format("{}expect {} ≥ {:.1f} GB/s ({}: {}, {})\n", indent, e.path, e.resolved->expected_bytes_per_second / 1e9,
                       layer_name(r.layer), r.text, r.origin);
  }
}

void render_ceiling_of(const Inventory& inv, const std::string& address, std::ostream& out) {
  const auto it = inv.pci_ceilings.find(address);
  if (it != inv.pci_ceilings.end()) out << "    ceiling " << ceiling_text(it->second, "      ");
}

// A device's links to its peers (NVLink, HCCS), what p2p between devices is judged against.
void render_peer_links(const DeviceInfo& i, std::ostream& out) {
  for (const auto& l : i.peer_links) {
    out << fmt::format("    peer link {} × {} at {:.3f} GB/s each way to {}\n", l.links, l.technology,
                       l.bytes_per_second_each / 1e9,
                       l.through_switch ? std::string("the switch fabric") : l.peer_pci_address);
  }
  if (!i.peer_links_note.empty()) out << "    peer links: " << i.peer_links_note << '\n';
}

void render_text(const Inventory& inv, std::ostream& out) {
  for (const auto& r : inv.refused) out << r << '\n';
  for (const auto& b : inv.backends) {
    out << fmt::format("backend {} ({}): {}\n", b.name, b.where, b.status);
    if (!b.available) continue;
    out << fmt::format("  engines: {}\n", fmt::join(b.engines, ", "));
    for (const auto& d : b.devices) {
      const auto& i = d.info;
      out << fmt::format("  {}  {}{}{}{}{}\n", d.name, i.name,
                         i.memory_bytes ? ", memory " + format_bytes_human(i.memory_bytes) : "",
                         i.numa_node >= 0 ? fmt::format(", NUMA node {}", i.numa_node) : ", NUMA node unknown",
                         i.pci_address.empty() ? "" : ", PCI " + i.pci_address,
                         i.card >= 0 && i.die >= 0 ? fmt::format(", card {} die {}", i.card, i.die) : "");
      render_ceiling_of(inv, i.pci_address, out);
      render_peer_links(i, out);
      render_expectations(d.expectations, "      ", out);
    }
  }
  if (inv.topology) {
    const auto& t = *inv.topology;
    out << fmt::format("host: {} package(s), {} core(s), {} hardware thread(s), memory {}\n", t.packages, t.cores,
                       t.pus, format_bytes_human(t.memory_bytes));
    for (const auto& n : t.numa_nodes) {
      out << fmt::format("  NUMA node {}: memory {}, {} core(s), CPUs {}\n", n.os_index, format_bytes_human(n.memory_bytes),
                         n.cores, n.cpus);
    }
    for (const auto& p : t.pci_devices) {
      out << fmt::format("  PCI {} {} {:04x}:{:04x}{}{}\n", p.address, p.kind, p.vendor_id, p.device_id,
                         p.numa_node >= 0 ? fmt::format(", NUMA node {}", p.numa_node) : "",
                         p.os_names.empty() ? "" : " (" + p.os_names + ")");
      render_ceiling_of(inv, p.address, out);
    }
  } else {
    out << "host: topology unknown: " << inv.topology_problem << '\n';
  }
  out << "  memory ceiling " << ceiling_text(inv.memory_ceiling, "    ");
  render_expectations(inv.memory_expectations, "    ", out);
  out << "network:\n";
  if (inv.nics.empty()) out << "  no interface but loopback\n";
  for (std::size_t k = 0; k < inv.nics.size(); ++k) {
    const auto& n = inv.nics[k];
    out << fmt::format("  {}{}  ceiling {}", n.name, n.pci_address.empty() ? "" : " (PCI " + n.pci_address + ")",
                       ceiling_text(n.ceiling, "    "));
    render_expectations(inv.nic_expectations[k], "    ", out);
  }
  out << fmt::format("storage under {}:\n{}", inv.storage->directory.string(), storage_line(*inv.storage));
  if (inv.storage_ceiling) out << "    ceiling " << ceiling_text(*inv.storage_ceiling, "      ");
  render_expectations(inv.storage_expectations, "      ", out);
  const auto& tr = inv.transports;
  out << fmt::format("transports: {}{}\n", fmt::join(tr.built, ", "),
                     tr.ucx_version.empty() ? "" : fmt::format(" (UCX {})", tr.ucx_version));
  for (const auto& r : tr.rows) {
    out << fmt::format("  {}{}  {}\n", r.transport, r.device.empty() ? "" : "/" + r.device, r.kind);
  }
  for (const auto& p : tr.problems) out << "  (" << p << ")\n";
  out << fmt::format("runtime mpi{}: {}\n", inv.mpi_available ? " (" + inv.mpi_where + ")" : "", inv.mpi_status);
  out << fmt::format("expectations: built-in defaults; SKU file: {}{}{}\n", inv.sku_note,
                     inv.site_file.empty() ? "" : "; site file " + inv.site_file,
                     inv.cli_rules == 0 ? "" : fmt::format("; {} command-line rule(s)", inv.cli_rules));
}

nlohmann::json to_json(const Ceiling& c) {
  using nlohmann::json;
  return {{"bytes_per_second", c.bytes_per_second ? json(*c.bytes_per_second) : json(nullptr)},
          {"capable_bytes_per_second", c.capable_bytes_per_second ? json(*c.capable_bytes_per_second) : json(nullptr)},
          {"derivation", c.derivation},
          {"warnings", c.warnings}};
}

nlohmann::json to_json(const std::vector<ShownExpectation>& shown) {
  using nlohmann::json;
  json out = json::array();
  for (const auto& e : shown) {
    if (!e.resolved) {
      out.push_back({{"path", e.path}, {"expected_bytes_per_second", nullptr}});
      continue;
    }
    const ExpectRule& r = *e.resolved->rule;
    out.push_back({{"path", e.path},
                   {"expected_bytes_per_second", e.resolved->expected_bytes_per_second},
                   {"layer", layer_name(r.layer)},
                   {"rule", r.text},
                   {"origin", r.origin},
                   {"source", r.source}});
  }
  return out;
}

nlohmann::json ceiling_of(const Inventory& inv, const std::string& address) {
  const auto it = inv.pci_ceilings.find(address);
  return it == inv.pci_ceilings.end() ? nlohmann::json(nullptr) : to_json(it->second);
}

nlohmann::json peer_links_json(const DeviceInfo& i) {
  nlohmann::json links = nlohmann::json::array();
  for (const auto& l : i.peer_links) {
    links.push_back({{"technology", l.technology}, {"peer_pci_address", l.peer_pci_address},
                     {"through_switch", l.through_switch}, {"links", l.links},
                     {"bytes_per_second_each", l.bytes_per_second_each}});
  }
  return links;
}

nlohmann::json to_json(const Inventory& inv) {
  using nlohmann::json;
  json backends = json::array();
  for (const auto& b : inv.backends) {
    json devices = json::array();
    for (const auto& d : b.devices) {
      devices.push_back({{"name", d.name}, {"description", d.info.name}, {"memory_bytes", d.info.memory_bytes},
                         {"numa_node", d.info.numa_node}, {"pci_address", d.info.pci_address},
                         {"card", d.info.card}, {"die", d.info.die},
                         {"ceiling", ceiling_of(inv, d.info.pci_address)},
                         {"peer_links", peer_links_json(d.info)},
                         {"peer_links_down", d.info.peer_links_down},
                         {"peer_links_note", d.info.peer_links_note},
                         {"expectations", to_json(d.expectations)}});
    }
    backends.push_back({{"name", b.name}, {"where", b.where}, {"available", b.available}, {"status", b.status},
                        {"engines", b.engines}, {"devices", devices}});
  }
  json j = {{"backends", backends}, {"refused_modules", inv.refused}};
  if (inv.topology) {
    const auto& t = *inv.topology;
    json nodes = json::array(), pci = json::array();
    for (const auto& n : t.numa_nodes) {
      nodes.push_back({{"os_index", n.os_index}, {"memory_bytes", n.memory_bytes}, {"cores", n.cores}, {"pus", n.pus},
                       {"cpus", n.cpus}});
    }
    for (const auto& p : t.pci_devices) {
      pci.push_back({{"address", p.address}, {"kind", p.kind}, {"class_id", p.class_id}, {"vendor_id", p.vendor_id},
                     {"device_id", p.device_id}, {"numa_node", p.numa_node}, {"os_names", p.os_names},
                     {"ceiling", ceiling_of(inv, p.address)}});
    }
    j["host"] = {{"packages", t.packages}, {"cores", t.cores},   {"pus", t.pus},
                 {"memory_bytes", t.memory_bytes}, {"numa_nodes", nodes}, {"pci_devices", pci}};
  } else {
    j["host"] = {{"problem", inv.topology_problem}};
  }
  j["host"]["memory_ceiling"] = to_json(inv.memory_ceiling);
  j["host"]["memory_expectations"] = to_json(inv.memory_expectations);
  json nics = json::array();
  for (std::size_t k = 0; k < inv.nics.size(); ++k) {
    const auto& n = inv.nics[k];
    nics.push_back({{"name", n.name}, {"pci_address", n.pci_address}, {"ceiling", to_json(n.ceiling)},
                    {"expectations", to_json(inv.nic_expectations[k])}});
  }
  j["network_interfaces"] = nics;
  const auto& s = *inv.storage;
  j["storage"] = {{"directory", s.directory.string()}, {"fs_type", s.fs_type}, {"mount_point", s.mount_point},
                  {"source", s.source}, {"capacity_bytes", s.capacity_bytes}, {"free_bytes", s.free_bytes},
                  {"block_device", s.block_device}, {"partition", s.partition},
                  {"rotational", s.rotational ? json(*s.rotational) : json(nullptr)},
                  {"logical_block_bytes", s.logical_block_bytes}, {"physical_block_bytes", s.physical_block_bytes},
                  {"model", s.model}, {"scheduler", s.scheduler},
                  {"ceiling", inv.storage_ceiling ? to_json(*inv.storage_ceiling) : json(nullptr)},
                  {"expectations", to_json(inv.storage_expectations)}};
  j["expectations"] = {{"server", inv.server}, {"sku", inv.sku_note}, {"site_file", inv.site_file},
                       {"command_line_rules", inv.cli_rules}};
  json rows = json::array();
  for (const auto& r : inv.transports.rows) rows.push_back({{"transport", r.transport}, {"device", r.device}, {"kind", r.kind}});
  j["transports"] = {{"built", inv.transports.built}, {"ucx_version", inv.transports.ucx_version}, {"resources", rows},
                     {"problems", inv.transports.problems}};
  j["runtimes"] = json::array(
      {{{"name", "mpi"}, {"where", inv.mpi_where}, {"available", inv.mpi_available}, {"status", inv.mpi_status}}});
  return j;
}

int run_devices(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"List backends, devices and their placement, storage and transports", "devices"};
  std::string dir = ".", format = "table";
  bool json = false;
  app.add_option("--dir", dir, "describe the storage under this directory (default: the working directory)");
  app.add_option("--format", format, "table (text, the default) or json (one JSON object, for scripts)");
  app.add_flag("--json", json, "the same as --format json");
  ExpectFlags expect;
  expect.add_to(app);
  parse_args(app, args);
  if (format != "table" && format != "json") {
    throw UsageError(fmt::format("--format {}: devices prints table or json", format));
  }
  if (json && app.count("--format") > 0 && format != "json") {
    throw UsageError(fmt::format("--json and --format {}: choose one", format));
  }
  json = json || format == "json";
  std::error_code ec;
  if (dir.empty() || !fs::exists(dir, ec)) throw UsageError(fmt::format("--dir '{}': no such directory", dir));
  if (!fs::is_directory(dir, ec)) throw UsageError(fmt::format("--dir {}: not a directory", dir));

  const ExpectationLayers layers = expect.load();  // a malformed file: exit 2 before anything is read
  const Inventory inv = gather(ctx.registry, dir, layers);
  if (json) {
    ctx.out << to_json(inv).dump(2) << '\n';
  } else {
    render_text(inv, ctx.out);
  }
  return kExitOk;
}

}  // namespace

extern const Command kDevicesCommand{"devices", "backends, devices and placement (NUMA, PCI), storage, transports",
                                     run_devices};

}  // namespace xb
