#include "synthetic_sysfs.hpp"

#include <array>
#include <fstream>
#include <stdexcept>

namespace xb::test {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

// 256 bytes: a type-0/1 header whose capability list holds one PCI Express capability at 0x40.
std::string config_space(PciePortType type, bool root_only) {
  std::string c(256, '\0');
  c[0x06] = 0x10;  // status: capability list present
  c[0x34] = 0x40;
  c[0x40] = 0x10;  // PCI Express
  c[0x41] = 0x00;  // last capability
  c[0x42] = static_cast<char>((static_cast<int>(type) << 4) | 0x2);
  if (root_only) c.resize(64);
  return c;
}

}  // namespace

SyntheticSysfs::SyntheticSysfs() : root_(dir_.path() / "sys") {
  fs::create_directories(root_ / "devices" / "pci0000:00");
  fs::create_directories(root_ / "bus" / "pci" / "devices");
  fs::create_directories(root_ / "class" / "net");
}

fs::path SyntheticSysfs::add(const FakePort& p, const fs::path& parent) {
  const fs::path dir = (parent.empty() ? root_ / "devices" / "pci0000:00" : parent) / p.address;
  fs::create_directories(dir);
  if (!p.current_speed.empty()) write(dir / "current_link_speed", p.current_speed + "\n");
  if (p.current_width > 0) write(dir / "current_link_width", std::to_string(p.current_width) + "\n");
  if (!p.max_speed.empty()) write(dir / "max_link_speed", p.max_speed + "\n");
  if (p.max_width > 0) write(dir / "max_link_width", std::to_string(p.max_width) + "\n");
  write(dir / "config", config_space(p.type, p.config_root_only));
  fs::create_symlink(fs::relative(dir, root_ / "bus" / "pci" / "devices"), root_ / "bus" / "pci" / "devices" / p.address);
  return dir;
}

void SyntheticSysfs::add_nic(const std::string& name, const std::string& speed, const fs::path& pci_dir,
                             const std::string& operstate) {
  const fs::path dir = root_ / "class" / "net" / name;
  fs::create_directories(dir);
  if (!speed.empty()) write(dir / "speed", speed + "\n");
  write(dir / "operstate", operstate + "\n");
  if (!pci_dir.empty()) fs::create_symlink(pci_dir, dir / "device");
}

fs::path SyntheticSysfs::add_disk(const fs::path& under, const std::string& name) {
  const fs::path dir = under / "block" / name;
  fs::create_directories(dir);
  fs::create_directories(root_ / "class" / "block");
  fs::create_symlink(fs::relative(dir, root_ / "class" / "block"), root_ / "class" / "block" / name);
  return dir;
}

void SyntheticSysfs::add_rdma_port(const std::string& device, int port, const std::string& rate, const fs::path& pci_dir) {
  const fs::path dir = root_ / "class" / "infiniband" / device;
  fs::create_directories(dir / "ports" / std::to_string(port));
  if (!rate.empty()) write(dir / "ports" / std::to_string(port) / "rate", rate + "\n");
  if (!pci_dir.empty() && !fs::exists(dir / "device")) fs::create_symlink(pci_dir, dir / "device");
}

void SyntheticSysfs::add_sata_link(int port, const std::string& speed) {
  const fs::path dir = root_ / "class" / "ata_link" / ("link" + std::to_string(port));
  fs::create_directories(dir);
  write(dir / "sata_spd", speed + "\n");
}

std::string speed_text(int generation) {
  constexpr std::array<const char*, 7> kText{"", "2.5 GT/s PCIe", "5.0 GT/s PCIe", "8.0 GT/s PCIe",
                                             "16.0 GT/s PCIe", "32.0 GT/s PCIe", "64.0 GT/s PCIe"};
  return kText.at(static_cast<std::size_t>(generation));
}

}  // namespace xb::test
