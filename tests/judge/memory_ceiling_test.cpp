// Host memory's ceiling from SMBIOS type 17 tables built here byte by byte as DSP0134 lays them
// out: structures of each version's length (2.3: no configured speed; 2.8; 3.3 with the 32-bit
// extended speeds), empty slots, a module set below its rating (a warning, as a PCIe link trained
// low), other structure types between, a non-volatile module, a truncated table; then through a
// synthetic sysfs file, and the copy job's figure on the cpu backend (copy.h2h against half of it).
#include <gtest/gtest.h>

#include <fstream>

#include "jobs/copy/copy_config.hpp"
#include "judge/copy_figure.hpp"
#include "judge/memory_ceiling.hpp"
#include "support/temp_dir.hpp"
#include "support/text_checks.hpp"
#include "support/wrapped_cpu_backend.hpp"

namespace xb {
namespace {

using test::has;

struct Dimm {
  std::string locator, bank;
  unsigned size_field = 0x4000;  // 16384 MiB
  unsigned type = 0x22;          // DDR5
  unsigned width = 64;
  unsigned speed = 4800, configured = 4800;
  std::size_t length = 0x28;               // SMBIOS 2.8's structure
  std::uint32_t extended_size = 0;         // MiB, with size_field 0x7FFF
  std::uint32_t extended_speed = 0, extended_configured = 0;  // with speed/configured 0xFFFF (3.3, length 0x5C)
  unsigned technology = 0;  // Memory Technology (3.2, length 0x54 on): 0x03 DRAM, 0x07 Optane persistent memory
};

void put_word(std::string& s, std::size_t at, unsigned v) {
  s[at] = static_cast<char>(v & 0xFF);
  s[at + 1] = static_cast<char>((v >> 8) & 0xFF);
}
void put_dword(std::string& s, std::size_t at, std::uint32_t v) {
  put_word(s, at, v & 0xFFFF);
  put_word(s, at + 2, v >> 16);
}

// One structure: the formatted area, then its strings, then the set's closing NUL.
std::string structure(unsigned type, std::string formatted, const std::vector<std::string>& strings) {
  formatted[0] = static_cast<char>(type);
  formatted[1] = static_cast<char>(formatted.size());
  std::string out = formatted;
  for (const auto& s : strings) out += s + '\0';
  if (strings.empty()) out += '\0';
  out += '\0';
  return out;
}

std::string dimm(const Dimm& d) {
  std::string f(d.length, '\0');
  put_word(f, 0x08, d.width + 8);  // total width: ECC included
  put_word(f, 0x0A, d.width);
  put_word(f, 0x0C, d.size_field);
  // Strings are never empty: a field without one holds 0.
  std::vector<std::string> strings;
  for (const auto& [at, text] : {std::pair{0x10, d.locator}, std::pair{0x11, d.bank}}) {
    if (text.empty()) continue;
    strings.push_back(text);
    f[static_cast<std::size_t>(at)] = static_cast<char>(strings.size());
  }
  f[0x12] = static_cast<char>(d.type);
  if (d.length > 0x16) put_word(f, 0x15, d.speed);
  if (d.length > 0x1F) put_dword(f, 0x1C, d.extended_size);
  if (d.length > 0x21) put_word(f, 0x20, d.configured);
  if (d.length > 0x28) f[0x28] = static_cast<char>(d.technology);
  if (d.length > 0x5B) {
    put_dword(f, 0x54, d.extended_speed);
    put_dword(f, 0x58, d.extended_configured);
  }
  return structure(17, f, strings);
}

std::string end_of_table() { return structure(127, std::string(4, '\0'), {}); }

// A BIOS information structure (type 0) with a string, between the modules: skipped.
std::string bios() {
  std::string f(0x18, '\0');
  f[0x04] = 1;
  return structure(0, f, {"Vendor BIOS 1.2.3"});
}

TEST(MemoryCeiling, EightDdr5ModulesAreEightChannels) {
  std::string table = bios();
  for (int i = 0; i < 8; ++i) table += dimm({"DIMM_" + std::string(1, static_cast<char>('A' + i)) + "1", "P0 CHANNEL " + std::string(1, static_cast<char>('A' + i))});
  Dimm empty{"DIMM_A2", "P0 CHANNEL A"};
  empty.size_field = 0;  // an empty slot: left out
  table += dimm(empty) + end_of_table();
  const MemoryModules m = smbios_memory_modules(table);
  EXPECT_EQ(m.problem, "");
  ASSERT_EQ(m.modules.size(), 8u);
  EXPECT_EQ(m.modules[0].locator, "DIMM_A1");
  EXPECT_EQ(m.modules[0].bank, "P0 CHANNEL A");
  EXPECT_EQ(m.modules[0].type, "DDR5");
  EXPECT_EQ(m.modules[0].size_bytes, 16ull << 30);
  EXPECT_EQ(m.modules[7].locator, "DIMM_H1");
  const Ceiling c = memory_bandwidth_ceiling(m, "the table");
  ASSERT_TRUE(c.bytes_per_second) << c.derivation;
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 8 * 4800e6 * 8);  // 307.2 GB/s
  EXPECT_DOUBLE_EQ(*c.capable_bytes_per_second, *c.bytes_per_second);
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_TRUE(has(c.derivation, "8 x DDR5 4800 MT/s x 64 bit (the table)")) << c.derivation;
  EXPECT_TRUE(has(c.derivation, "each module taken as its own channel")) << c.derivation;
  const Ceiling copy = host_copy_ceiling(c);
  EXPECT_DOUBLE_EQ(*copy.bytes_per_second, 4 * 4800e6 * 8);
  EXPECT_TRUE(has(copy.derivation, "a copy reads and writes each byte: half of host memory: 8 x DDR5")) << copy.derivation;
}

TEST(MemoryCeiling, AModuleSetBelowItsRatingIsAWarningAndTheCapabilityStays) {
  Dimm slow{"DIMM_B1", "P0 CHANNEL B"};
  slow.type = 0x1A;  // DDR4
  slow.speed = 3200;
  slow.configured = 2933;
  Dimm fast{"DIMM_A1", "P0 CHANNEL A"};
  fast.type = 0x1A;
  fast.speed = fast.configured = 3200;
  const MemoryModules m = smbios_memory_modules(dimm(fast) + dimm(slow) + end_of_table());
  const Ceiling c = memory_bandwidth_ceiling(m, "t");
  ASSERT_TRUE(c.bytes_per_second);
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, (3200e6 + 2933e6) * 8);
  EXPECT_DOUBLE_EQ(*c.capable_bytes_per_second, 2 * 3200e6 * 8);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], "DIMM_B1 (P0 CHANNEL B) runs at 2933 MT/s of its rated 3200");
  EXPECT_TRUE(has(c.derivation, "1 x DDR4 2933 MT/s x 64 bit + 1 x DDR4 3200 MT/s x 64 bit")) << c.derivation;
}

TEST(MemoryCeiling, EveryVersionsLengthAndTheExtendedFields) {
  Dimm old{"DIMM0", ""};  // SMBIOS 2.3: rated speed only (what it runs at is not said: the rating stands)
  old.length = 0x1B;
  old.type = 0x18;  // DDR3
  old.speed = 1600;
  old.size_field = 0x8000 | 512;  // KiB units: 512 KiB
  Dimm big{"DIMM1", "BANK 1"};    // 3.3: size and speeds in their extended fields
  big.length = 0x5C;
  big.size_field = 0x7FFF;
  big.extended_size = 256 * 1024;  // 256 GiB in MiB
  big.speed = big.configured = 0xFFFF;
  big.extended_speed = 70000;
  big.extended_configured = 66000;
  big.type = 0x99;  // a code this program does not name
  const MemoryModules m = smbios_memory_modules(dimm(old) + dimm(big) + end_of_table());
  ASSERT_EQ(m.modules.size(), 2u);
  EXPECT_EQ(m.modules[0].size_bytes, 512u << 10);
  EXPECT_EQ(m.modules[0].configured_speed_mts, 0u);
  EXPECT_EQ(m.modules[0].bank, "");
  EXPECT_EQ(m.modules[1].size_bytes, 256ull << 30);
  EXPECT_EQ(m.modules[1].speed_mts, 70000u);
  EXPECT_EQ(m.modules[1].configured_speed_mts, 66000u);
  EXPECT_EQ(m.modules[1].type, "type 0x99");
  const Ceiling c = memory_bandwidth_ceiling(m, "t");
  ASSERT_TRUE(c.bytes_per_second) << c.derivation;
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, (1600e6 + 66000e6) * 8);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], "DIMM1 (BANK 1) runs at 66000 MT/s of its rated 70000");
}

TEST(MemoryCeiling, UnknownWhereAModuleLacksASpeedOrNoModuleIsListed) {
  Dimm nospeed{"DIMM_C1", "P1 CHANNEL C"};
  nospeed.speed = nospeed.configured = 0;
  Ceiling c = memory_bandwidth_ceiling(smbios_memory_modules(dimm({"DIMM_A1", "A"}) + dimm(nospeed)), "t");
  EXPECT_FALSE(c.bytes_per_second);
  EXPECT_EQ(c.derivation, "host memory: DIMM_C1 (P1 CHANNEL C) in t has no speed");
  EXPECT_FALSE(host_copy_ceiling(c).bytes_per_second);
  EXPECT_EQ(host_copy_ceiling(c).derivation, c.derivation);  // unknown: the memory's reason, unchanged
  Dimm nvdimm{"NVDIMM_1", "P0"};
  nvdimm.type = 0x1F;  // a logical non-volatile device: not DRAM bandwidth
  Dimm optane{"DIMM_P1", "P0"};  // persistent memory calling itself DDR4: its Memory Technology says so
  optane.type = 0x1A;
  optane.length = 0x54;
  optane.technology = 0x07;
  c = memory_bandwidth_ceiling(smbios_memory_modules(bios() + dimm(nvdimm) + dimm(optane) + end_of_table()), "t");
  EXPECT_FALSE(c.bytes_per_second);
  EXPECT_EQ(c.derivation, "host memory: t lists no memory module");
  // DRAM by its Memory Technology, and a module of unknown size (0xFFFF): both count.
  Dimm dram = optane;
  dram.technology = 0x03;
  Dimm unknown_size{"DIMM_Q1", "P1"};
  unknown_size.size_field = 0xFFFF;
  const MemoryModules m = smbios_memory_modules(dimm(dram) + dimm(unknown_size) + end_of_table());
  ASSERT_EQ(m.modules.size(), 2u);
  EXPECT_EQ(m.modules[1].size_bytes, 0u);
  c = memory_bandwidth_ceiling(m, "t");
  ASSERT_TRUE(c.bytes_per_second) << c.derivation;
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 2 * 4800e6 * 8);
}

// A Memory Device structure whose length ends before its Memory Type byte (0x12) describes no
// module: it is skipped, not read past its end into the strings after it.
TEST(MemoryCeiling, AModuleTooShortToHoldItsTypeIsSkipped) {
  std::string f(0x12, '\0');
  put_word(f, 0x0A, 64);
  put_word(f, 0x0C, 0x4000);
  const MemoryModules m = smbios_memory_modules(structure(17, f, {}) + dimm({"DIMM_A1", "A"}) + end_of_table());
  ASSERT_EQ(m.modules.size(), 1u);
  EXPECT_EQ(m.modules[0].locator, "DIMM_A1");
}

TEST(MemoryCeiling, ATruncatedTableIsReadInPartAndSaysSo) {
  const std::string whole = dimm({"DIMM_A1", "A"}) + dimm({"DIMM_B1", "B"});
  // Cut inside the second structure's formatted area, then inside its strings.
  for (const std::size_t cut : {whole.size() - 0x30, whole.size() - 3}) {
    const MemoryModules m = smbios_memory_modules(std::string_view(whole).substr(0, cut));
    ASSERT_EQ(m.modules.size(), 1u) << cut;
    EXPECT_TRUE(has(m.problem, "run")) << cut << " of " << whole.size() << ": " << m.problem;
    const Ceiling c = memory_bandwidth_ceiling(m, "t");
    ASSERT_TRUE(c.bytes_per_second);
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_TRUE(has(c.warnings[0], "t: read in part: ")) << c.warnings[0];
  }
  EXPECT_TRUE(smbios_memory_modules("").modules.empty());
}

// The sysfs file and the copy job on the cpu backend (its arenas are host RAM without a link).
TEST(MemoryCeiling, TheCpuBackendsCopyIsJudgedAgainstHalfTheMemory) {
  test::TempDir sys;
  const auto dir = sys.path() / "firmware" / "dmi" / "tables";
  const Ceiling none = host_memory_ceiling(sys.path());
  EXPECT_FALSE(none.bytes_per_second);
  EXPECT_EQ(none.derivation, "host memory: no SMBIOS table at " + (dir / "DMI").string() + " (firmware without one, as most VMs)");
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "DMI", std::ios::binary) << dimm({"DIMM_A1", "A"}) + dimm({"DIMM_B1", "B"}) + end_of_table();
  const Ceiling memory = host_memory_ceiling(sys.path());
  ASSERT_TRUE(memory.bytes_per_second) << memory.derivation;
  EXPECT_DOUBLE_EQ(*memory.bytes_per_second, 2 * 4800e6 * 8);
  EXPECT_TRUE(has(memory.derivation, "(SMBIOS type 17 in " + (dir / "DMI").string() + ")")) << memory.derivation;

  const auto backend = test::make_wrapped_cpu_backend({});
  for (const std::string direction : {"h2d", "d2d", "h2h"}) {
    CopyConfig config;
    config.backend = "cpu";
    config.direction = direction;
    config.block_bytes = 4 << 20;
    config.devices = 2;
    config.device_info = {backend->open_device(0)->info(), backend->open_device(1)->info()};
    config.device_memory_in_host_ram = backend->capabilities().device_memory_in_host_ram;
    CaseResult c;
    c.config = config;
    const JudgedFigure f = copy_figure(c, sys.path(), "");
    EXPECT_EQ(f.facts.path, "copy.h2h") << direction;
    ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
    EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 4800e6 * 8) << direction;  // once, not per device
    if (direction != "h2h") {
      EXPECT_TRUE(has(f.ceiling.derivation, direction + " within host memory (cpu::device::0 is host RAM): a copy reads"))
          << f.ceiling.derivation;
    }
  }
}

}  // namespace
}  // namespace xb
