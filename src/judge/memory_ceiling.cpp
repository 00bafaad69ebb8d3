#include "judge/memory_ceiling.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "core/whole_file.hpp"

namespace xb {
namespace {

// Offsets into a type 17 structure (DSP0134 7.18); the structure's length says which are present.
constexpr std::size_t kDataWidth = 0x0A, kSize = 0x0C, kLocator = 0x10, kBank = 0x11, kType = 0x12, kSpeed = 0x15,
                      kExtendedSize = 0x1C, kConfiguredSpeed = 0x20, kExtendedSpeed = 0x54, kExtendedConfiguredSpeed = 0x58;
constexpr unsigned kMemoryDevice = 17, kEndOfTable = 127;
constexpr unsigned kLogicalNonVolatile = 0x1F;  // memory type: NVDIMM space, not DRAM bandwidth
// Memory Technology (SMBIOS 3.2 on): 0x04-0x07 are NVDIMM-N, -F, -P and Optane persistent memory,
// which may call themselves DDR4 in Memory Type. 0x01 other, 0x02 unknown, 0x03 DRAM count.
constexpr std::size_t kTechnology = 0x28;

unsigned byte_at(std::string_view s, std::size_t at) { return static_cast<unsigned char>(s[at]); }

bool persistent(std::string_view s) {
  if (s.size() <= kTechnology) return false;
  const unsigned t = byte_at(s, kTechnology);
  return t >= 0x04 && t <= 0x07;
}

unsigned word_at(std::string_view s, std::size_t at) { return byte_at(s, at) | (byte_at(s, at + 1) << 8); }
std::uint32_t dword_at(std::string_view s, std::size_t at) {
  return word_at(s, at) | (static_cast<std::uint32_t>(word_at(s, at + 2)) << 16);
}

std::string type_name(unsigned code) {
  static const std::map<unsigned, const char*> kNames{
      {0x12, "DDR"},   {0x13, "DDR2"},   {0x18, "DDR3"},   {0x1A, "DDR4"}, {0x1B, "LPDDR"}, {0x1C, "LPDDR2"},
      {0x1D, "LPDDR3"}, {0x1E, "LPDDR4"}, {0x20, "HBM"},   {0x21, "HBM2"}, {0x22, "DDR5"},  {0x23, "LPDDR5"},
      {0x24, "HBM3"}};
  const auto it = kNames.find(code);
  return it != kNames.end() ? it->second : fmt::format("type 0x{:02x}", code);
}

// A speed field: 0 unknown; 0xFFFF means "see the 32-bit extended field" (SMBIOS 3.3, speeds above 65534 MT/s).
unsigned speed_of(std::string_view s, std::size_t field, std::size_t extended) {
  if (s.size() < field + 2) return 0;
  const unsigned v = word_at(s, field);
  if (v != 0xFFFF) return v;
  return s.size() >= extended + 4 ? dword_at(s, extended) & 0x7FFFFFFFu : 0;
}

// Size: 0 no module; 0xFFFF a module of unknown size (0 here); 0x7FFF "see the extended size" (MiB,
// bits 30:0); bit 15 set: KiB units.
std::uint64_t size_of(std::string_view s) {
  const unsigned v = word_at(s, kSize);
  if (v == 0 || v == 0xFFFF) return 0;
  if (v == 0x7FFF && s.size() >= kExtendedSize + 4) return static_cast<std::uint64_t>(dword_at(s, kExtendedSize) & 0x7FFFFFFFu) << 20;
  return (v & 0x8000) ? static_cast<std::uint64_t>(v & 0x7FFF) << 10 : static_cast<std::uint64_t>(v) << 20;
}

// The strings after a structure's formatted area: numbered from 1, each NUL-terminated, the set
// ended by a second NUL.
std::string string_of(const std::vector<std::string_view>& strings, unsigned index) {
  return index >= 1 && index <= strings.size() ? std::string(strings[index - 1]) : "";
}

std::string module_name(const MemoryModule& m) {
  if (m.bank.empty()) return m.locator.empty() ? "a module" : m.locator;
  return m.locator.empty() ? m.bank : fmt::format("{} ({})", m.locator, m.bank);
}

}  // namespace

MemoryModules smbios_memory_modules(std::string_view table) {
  MemoryModules out;
  std::size_t at = 0;
  while (at + 4 <= table.size()) {
    const unsigned type = byte_at(table, at);
    const std::size_t length = byte_at(table, at + 1);
    if (length < 4 || at + length > table.size()) {
      out.problem = fmt::format("structure at byte {} runs past the table's end", at);
      return out;
    }
    const std::string_view formatted = table.substr(at, length);
    // The string set: up to the double NUL (a structure without strings has just the two NULs).
    std::vector<std::string_view> strings;
    std::size_t s = at + length;
    if (s + 2 <= table.size() && table[s] == '\0' && table[s + 1] == '\0') {
      s += 2;
    } else {
      for (;;) {
        const std::size_t end = table.find('\0', s);
        if (end == std::string_view::npos || end + 1 >= table.size()) {
          out.problem = fmt::format("the strings of the structure at byte {} run past the table's end", at);
          return out;
        }
        strings.push_back(table.substr(s, end - s));
        s = end + 1;
        if (table[s] == '\0') break;  // the set's closing NUL
      }
      ++s;
    }
    if (type == kEndOfTable) return out;
    if (type == kMemoryDevice && length > kType) {
      MemoryModule m;
      m.size_bytes = size_of(formatted);
      const unsigned code = byte_at(formatted, kType);
      const bool installed = word_at(formatted, kSize) != 0;  // 0xFFFF: installed, its size unknown
      if (installed && code != kLogicalNonVolatile && !persistent(formatted)) {
        const unsigned width = word_at(formatted, kDataWidth);
        m.data_width_bits = width == 0xFFFF ? 0 : width;
        m.locator = string_of(strings, byte_at(formatted, kLocator));
        m.bank = string_of(strings, byte_at(formatted, kBank));
        m.type = type_name(code);
        m.speed_mts = speed_of(formatted, kSpeed, kExtendedSpeed);
        m.configured_speed_mts = speed_of(formatted, kConfiguredSpeed, kExtendedConfiguredSpeed);
        out.modules.push_back(std::move(m));
      }
    }
    at = s;
  }
  if (at < table.size()) out.problem = fmt::format("structure at byte {} runs past the table's end", at);
  return out;
}

Ceiling memory_bandwidth_ceiling(const MemoryModules& m, const std::string& where) {
  Ceiling c;
  if (!m.problem.empty()) c.warnings.push_back(fmt::format("{}: read in part: {}", where, m.problem));
  if (m.modules.empty()) {
    c.derivation = fmt::format("host memory: {} lists no memory module", where);
    return c;
  }
  double now = 0, capable = 0;
  // Modules alike are written once: "8 x DDR5 4800 MT/s x 64 bit".
  std::map<std::tuple<std::string, unsigned, unsigned>, int> kinds;
  for (const MemoryModule& mod : m.modules) {
    const unsigned runs_at = mod.configured_speed_mts != 0 ? mod.configured_speed_mts : mod.speed_mts;
    if (runs_at == 0 || mod.data_width_bits == 0) {
      c.derivation = fmt::format("host memory: {} in {} has no {}", module_name(mod), where, runs_at == 0 ? "speed" : "data width");
      c.bytes_per_second.reset();
      return c;
    }
    const double bytes_per_transfer = mod.data_width_bits / 8.0;
    now += runs_at * 1e6 * bytes_per_transfer;
    capable += std::max(runs_at, mod.speed_mts) * 1e6 * bytes_per_transfer;
    if (mod.speed_mts != 0 && runs_at < mod.speed_mts) {
      c.warnings.push_back(fmt::format("{} runs at {} MT/s of its rated {}", module_name(mod), runs_at, mod.speed_mts));
    }
    ++kinds[{mod.type, runs_at, mod.data_width_bits}];
  }
  std::vector<std::string> parts;
  for (const auto& [kind, count] : kinds) {
    parts.push_back(fmt::format("{} x {} {} MT/s x {} bit", count, std::get<0>(kind), std::get<1>(kind), std::get<2>(kind)));
  }
  c.bytes_per_second = now;
  c.capable_bytes_per_second = capable;
  c.derivation = fmt::format("host memory: {} ({}), each module taken as its own channel (the table does not say "
                             "which share one: an upper bound), the whole machine's (a NUMA node has its share)",
                             fmt::join(parts, " + "), where);
  return c;
}

Ceiling host_memory_ceiling(const std::filesystem::path& sysfs) {
  const auto file = sysfs / "firmware" / "dmi" / "tables" / "DMI";
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    Ceiling c;
    c.derivation = fmt::format("host memory: no SMBIOS table at {} (firmware without one, as most VMs)", file.string());
    return c;
  }
  const std::optional<std::string> table = read_whole_file(file);
  if (!table) {
    Ceiling c;
    c.derivation = fmt::format("host memory: {} cannot be read (it is root's alone)", file.string());
    return c;
  }
  return memory_bandwidth_ceiling(smbios_memory_modules(*table), "SMBIOS type 17 in " + file.string());
}

Ceiling host_copy_ceiling(const Ceiling& memory) {
  if (!memory.bytes_per_second) return memory;  // unknown: the memory's reason says why
  return scaled_by(memory, 0.5, "a copy reads and writes each byte: half of ");
}

}  // namespace xb
