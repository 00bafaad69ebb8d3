// The backend registry with real modules: shared libraries built next to this test and loaded with
// dlopen, one good, one built against another interface version, one without the entry symbol.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "backends/module_abi.hpp"
#include "backends/registry.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
#include "core/shared_module.hpp"
#include "transport/transport_module.hpp"
#include "jobs/copy/copy_job.hpp"
#include "runtime/fork_launcher.hpp"

#include "support/temp_dir.hpp"
#include "support/run_job.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kTestModuleDir = XB_TEST_MODULE_DIR;

const xb::ModuleRecord* record_of(const xb::BackendRegistry& r, const std::string& file_name) {
  for (const auto& m : r.modules()) {
    if (m.path.filename() == file_name) return &m;
  }
  return nullptr;
}

const xb::ModuleRecord* record_named(const xb::BackendRegistry& r, const std::string& name) {
  for (const auto& m : r.modules()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

// A fresh directory, removed with everything in it at the end of the test.
using xb::test::TempDir;

TEST(ModuleDir, HoldsTheThreeTestModules) {
  for (const char* f : {"libxferbench-backend-testgood.so", "libxferbench-backend-testbadversion.so",
                        "libxferbench-backend-testnosymbol.so"}) {
    EXPECT_TRUE(fs::is_regular_file(kTestModuleDir / f)) << kTestModuleDir / f;
  }
}

TEST(Registry, ADirectoryNamedTwiceIsReadOnce) {
  // XFERBENCH_MODULE_PATH naming <exe>/modules, or the same directory through a link or "/.":
  // the modules load once, and none is refused as already registered.
  TempDir dir;
  const fs::path link = dir.path() / "modules-link";
  fs::create_directory_symlink(kTestModuleDir, link);
  const auto registry = xb::BackendRegistry::create({kTestModuleDir, link, kTestModuleDir / ".", kTestModuleDir});
  EXPECT_EQ(registry->modules().size(), 4u);  // cpu and the three files, once each
  const auto* good = record_named(*registry, "testgood");
  ASSERT_NE(good, nullptr);
  EXPECT_TRUE(good->loaded) << good->reason;
  for (const auto& m : registry->modules()) {
    EXPECT_EQ(m.reason.find("already registered"), std::string::npos) << m.path;
  }
  const auto names = registry->names();
  EXPECT_EQ(std::count(names.begin(), names.end(), "testgood"), 1);
}

TEST(Registry, RecordsEveryModuleWithItsOutcome) {
  const auto registry = xb::BackendRegistry::create({kTestModuleDir});
  const auto& mods = registry->modules();
  // The built-in cpu backend first, then the three files in name order.
  ASSERT_EQ(mods.size(), 4u);
  EXPECT_EQ(mods[0].name, "cpu");
  EXPECT_TRUE(mods[0].loaded);
  EXPECT_TRUE(mods[0].path.empty());
  EXPECT_EQ(mods[1].path.filename(), "libxferbench-backend-testbadversion.so");
  EXPECT_EQ(mods[2].path.filename(), "libxferbench-backend-testgood.so");
  EXPECT_EQ(mods[3].path.filename(), "libxferbench-backend-testnosymbol.so");

  const auto* good = record_of(*registry, "libxferbench-backend-testgood.so");
  ASSERT_NE(good, nullptr);
  EXPECT_TRUE(good->loaded) << good->reason;
  EXPECT_EQ(good->name, "testgood");
  EXPECT_TRUE(good->reason.empty()) << good->reason;
  EXPECT_EQ(fs::canonical(good->path), fs::canonical(kTestModuleDir / "libxferbench-backend-testgood.so"));

  const auto* bad = record_of(*registry, "libxferbench-backend-testbadversion.so");
  ASSERT_NE(bad, nullptr);
  EXPECT_FALSE(bad->loaded);
  EXPECT_EQ(bad->name, "testbadversion");  // read from the module, though it was refused
  EXPECT_NE(bad->reason.find("interface version"), std::string::npos) << bad->reason;
  EXPECT_NE(bad->reason.find(std::to_string(xb::kModuleInterfaceVersion + 1)), std::string::npos) << bad->reason;
  EXPECT_NE(bad->reason.find(std::to_string(xb::kModuleInterfaceVersion)), std::string::npos) << bad->reason;

  const auto* nosym = record_of(*registry, "libxferbench-backend-testnosymbol.so");
  ASSERT_NE(nosym, nullptr);
  EXPECT_FALSE(nosym->loaded);
  EXPECT_NE(nosym->reason.find(kXbModuleSymbol), std::string::npos) << nosym->reason;

  // Only what loaded is a backend.
  EXPECT_EQ(registry->names(), (std::vector<std::string>{"cpu", "testgood"}));
}

TEST(Registry, GetCreatesTheModulesBackendOnce) {
  const auto registry = xb::BackendRegistry::create({kTestModuleDir});
  xb::Backend& b = registry->get("testgood");
  EXPECT_EQ(b.name(), "testgood");
  EXPECT_TRUE(b.availability().ok) << b.availability().reason;
  EXPECT_GE(b.device_count(), 1);
  EXPECT_FALSE(b.capabilities().engines.empty());
  EXPECT_EQ(&registry->get("testgood"), &b);
  EXPECT_EQ(registry->get("cpu").name(), "cpu");
  EXPECT_NE(&registry->get("cpu"), &b);
}

TEST(Registry, UnknownBackendIsAUsageErrorListingTheAvailableOnes) {
  const auto registry = xb::BackendRegistry::create({kTestModuleDir});
  try {
    registry->get("nope");
    FAIL() << "get(\"nope\") did not throw";
  } catch (const xb::UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("nope"), std::string::npos) << what;
    EXPECT_NE(what.find("cpu"), std::string::npos) << what;
    EXPECT_NE(what.find("testgood"), std::string::npos) << what;
    EXPECT_EQ(what.find("testbadversion"), std::string::npos) << "a refused module is not available: " << what;
  }
  // A refused module is no backend either.
  EXPECT_THROW(registry->get("testbadversion"), xb::UsageError);
}

TEST(Registry, ModuleStreamCopiesData) {
  const auto registry = xb::BackendRegistry::create({kTestModuleDir});
  xb::Backend& b = registry->get("testgood");
  const std::string engine = b.capabilities().engines.front();
  constexpr std::size_t kBytes = (1u << 20) + 4096;
  {
    auto dev = b.open_device(0);
    auto host_src = dev->allocate_host(kBytes, true);
    auto host_dst = dev->allocate_host(kBytes, false);
    auto device = dev->allocate(kBytes);
    ASSERT_GE(host_src->size(), kBytes);
    ASSERT_GE(device->size(), kBytes);
    EXPECT_EQ(device->place(), xb::MemoryPlace::device);
    EXPECT_EQ(host_src->place(), xb::MemoryPlace::host_pinned);
    EXPECT_EQ(host_dst->place(), xb::MemoryPlace::host_pageable);

    const std::span<std::byte> src(static_cast<std::byte*>(host_src->data()), kBytes);
    xb::fill_pattern(src, 7, 0);
    std::memset(host_dst->data(), 0, kBytes);

    // Host to device in one copy, device back to host as a batch of uneven pieces.
    auto stream = dev->create_stream(engine);
    EXPECT_EQ(stream->engine(), engine);
    stream->copy({device->data(), host_src->data(), kBytes});
    auto done = dev->create_event();
    stream->record(*done);
    done->synchronize();
    EXPECT_TRUE(done->ready());
    std::vector<xb::CopyOp> pieces;
    auto* d = static_cast<std::byte*>(host_dst->data());
    const auto* s = static_cast<const std::byte*>(device->data());
    for (std::size_t off = 0; off < kBytes; off += 333333) {
      pieces.push_back({d + off, s + off, std::min<std::size_t>(333333, kBytes - off)});
    }
    stream->copy_batch(pieces);
    stream->synchronize();
    EXPECT_EQ(xb::find_pattern_mismatch({d, kBytes}, 7, 0), std::nullopt);
    EXPECT_EQ(std::memcmp(host_src->data(), host_dst->data(), kBytes), 0);
    EXPECT_THROW(dev->create_stream("no-such-engine"), xb::Unavailable);
  }  // the module's objects go before the registry unloads the module
}

TEST(Registry, CopyJobRunsOnTheModulesBackend) {
  const auto registry = xb::BackendRegistry::create({kTestModuleDir});
  xb::Backend& b = registry->get("testgood");
  xb::CopyPlan plan;
  plan.backend = "testgood";
  plan.block_bytes = 16 << 10;
  plan.blocks = 8;
  plan.iterations = 3;
  plan.warmup = 1;
  plan.devices = 2;
  plan.fragments = 3;
  plan.verify = true;
  ASSERT_NO_THROW(xb::validate_copy_plan(plan, b));
  xb::ForkLauncher launcher(plan.devices);
  const xb::CaseResult result = xb::test::run_one(plan, &b, &launcher);
  EXPECT_EQ(result.config.at("backend"), "testgood");
  EXPECT_EQ(result.label("from"), "testgood::host::all");
  EXPECT_EQ(result.label("to"), "testgood::device::all");
  ASSERT_EQ(result.ranks.size(), 2u);
  const xb::Series* copy = result.find_series("copy");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->samples.size(), 3u);
  const xb::Metric* bw = result.find_metric("bandwidth");
  ASSERT_NE(bw, nullptr);
  EXPECT_GT(bw->value, 0.0);
}

TEST(Registry, PreferredPicksTheModuleBackend) {
  const auto registry = xb::BackendRegistry::create({kTestModuleDir});
  std::string why = "untouched";
  xb::Backend& b = registry->preferred(&why);
  EXPECT_EQ(b.name(), "testgood");
  EXPECT_EQ(why, "untouched") << "why_cpu is only set when cpu is chosen";
}

TEST(Registry, PreferredIsCpuWithOnlyBuiltIns) {
  const auto registry = xb::BackendRegistry::create({});
  std::string why;
  xb::Backend& b = registry->preferred(&why);
  EXPECT_EQ(b.name(), "cpu");
  EXPECT_FALSE(why.empty());
  EXPECT_NE(why.find("no accelerator"), std::string::npos) << why;
  EXPECT_EQ(&registry->preferred(), &b);  // why_cpu is optional
}

TEST(Registry, MissingModuleDirectoryIsIgnored) {
  const auto registry = xb::BackendRegistry::create({"/nonexistent/xferbench-modules", kTestModuleDir / "no-such-dir"});
  ASSERT_EQ(registry->modules().size(), 1u);
  EXPECT_EQ(registry->modules()[0].name, "cpu");
  EXPECT_EQ(registry->names(), (std::vector<std::string>{"cpu"}));
}

TEST(Registry, SameModuleTwiceIsRefusedTheSecondTime) {
  // The same backend from two different directories (a site's build beside the shipped one).
  TempDir other;
  fs::copy_file(kTestModuleDir / "libxferbench-backend-testgood.so", other.path() / "libxferbench-backend-testgood.so");
  const auto registry = xb::BackendRegistry::create({kTestModuleDir, other.path()});
  int loaded = 0, refused_as_duplicate = 0;
  for (const auto& m : registry->modules()) {
    if (m.name != "testgood") continue;
    if (m.loaded) ++loaded;
    if (!m.loaded && m.reason.find("already registered") != std::string::npos) ++refused_as_duplicate;
  }
  EXPECT_EQ(loaded, 1);
  EXPECT_EQ(refused_as_duplicate, 1);
  EXPECT_EQ(registry->names(), (std::vector<std::string>{"cpu", "testgood"}));
}

// Files that are not shared objects, and other names, in a module directory.
TEST(Registry, NonModulesAreRefusedOrSkippedNeverFatal) {
  TempDir dir;
  std::ofstream(dir.path() / "libxferbench-backend-garbage.so") << "not an ELF file\n";
  std::ofstream(dir.path() / "libsomething-else.so") << "ignored: not named like a module\n";
  std::ofstream(dir.path() / "libxferbench-backend-readme.txt") << "ignored: not a .so\n";
  fs::copy_file(kTestModuleDir / "libxferbench-backend-testgood.so", dir.path() / "libxferbench-backend-copy.so");

  const auto registry = xb::BackendRegistry::create({dir.path()});
  ASSERT_EQ(registry->modules().size(), 3u);  // cpu, copy, garbage
  const auto* copy = record_of(*registry, "libxferbench-backend-copy.so");
  ASSERT_NE(copy, nullptr);
  EXPECT_TRUE(copy->loaded) << copy->reason;
  EXPECT_EQ(copy->name, "testgood");  // the backend's name comes from the module, not the file
  const auto* garbage = record_of(*registry, "libxferbench-backend-garbage.so");
  ASSERT_NE(garbage, nullptr);
  EXPECT_FALSE(garbage->loaded);
  EXPECT_NE(garbage->reason.find("dlopen"), std::string::npos) << garbage->reason;
  EXPECT_EQ(registry->get("testgood").name(), "testgood");
}

TEST(Registry, LoadModuleReportsAMissingFile) {
  xb::BackendRegistry registry;
  const auto& rec = registry.load_module(kTestModuleDir / "libxferbench-backend-absent.so");
  EXPECT_FALSE(rec.loaded);
  EXPECT_NE(rec.reason.find("dlopen"), std::string::npos) << rec.reason;
  EXPECT_EQ(registry.modules().size(), 1u);
  EXPECT_TRUE(registry.names().empty());
  EXPECT_THROW(registry.get("cpu"), xb::UsageError);  // a bare registry has no built-ins
  EXPECT_EQ(record_named(registry, "cpu"), nullptr);
}

}  // namespace

// open_module, the one loader under every kind of module (the MPI runtime and the UCX transport open
// through it): each step that fails says which, and only a module that passes them all is open.
namespace {

xb::OpenedModule open_backend(const std::vector<fs::path>& dirs, const char* file) {
  return xb::open_module(dirs, file, kXbBackendKind);
}

TEST(OpenModule, AGoodModuleIsOpenWithItsEntry) {
  const auto m = open_backend({"/nonexistent", kTestModuleDir}, "libxferbench-backend-testgood.so");
  ASSERT_TRUE(m.module) << m.why;
  ASSERT_NE(m.ops_as<XbBackendOps>(), nullptr);
  EXPECT_EQ(m.name, "testgood");
  // The operations are the module's: the backend they make is the module's own.
  const std::unique_ptr<xb::Backend> made(m.ops_as<XbBackendOps>()->create());
  EXPECT_EQ(made->name(), "testgood");
  EXPECT_EQ(m.module.file(), kTestModuleDir / "libxferbench-backend-testgood.so");
  EXPECT_TRUE(m.why.empty()) << m.why;
}

TEST(OpenModule, AnotherInterfaceVersionIsRefusedNamingBoth) {
  const auto m = open_backend({kTestModuleDir}, "libxferbench-backend-testbadversion.so");
  EXPECT_FALSE(m.module);
  EXPECT_EQ(m.ops, nullptr);
  EXPECT_EQ(m.name, "testbadversion");  // read before the library closed
  const std::string want = "interface version " + std::to_string(xb::kModuleInterfaceVersion + 1) +
                           " does not match this xferbench's " + std::to_string(xb::kModuleInterfaceVersion);
  EXPECT_NE(m.why.find(want), std::string::npos) << m.why;
}

TEST(OpenModule, AModuleOfAnotherKindIsRefusedNamingBoth) {
  // A backend module asked for as a transport: the one entry says which kind it is.
  const auto m = xb::open_module({kTestModuleDir}, "libxferbench-backend-testgood.so", kXbTransportKind);
  EXPECT_FALSE(m.module);
  EXPECT_EQ(m.ops, nullptr);
  EXPECT_NE(m.why.find("libxferbench-backend-testgood.so: a backend module, not a transport module"),
            std::string::npos)
      << m.why;
}

TEST(OpenModule, ALibraryWithoutTheEntryIsRefused) {
  const auto m = open_backend({kTestModuleDir}, "libxferbench-backend-testnosymbol.so");
  EXPECT_FALSE(m.module);
  EXPECT_NE(m.why.find("no xferbench_module symbol"), std::string::npos) << m.why;
}

TEST(OpenModule, AMissingFileNamesEveryPlaceLookedIn) {
  const auto m = open_backend({"/nonexistent/a", kTestModuleDir}, "libxferbench-backend-absent.so");
  EXPECT_FALSE(m.module);
  EXPECT_NE(m.why.find("libxferbench-backend-absent.so is not installed"), std::string::npos) << m.why;
  EXPECT_NE(m.why.find("/nonexistent/a, " + kTestModuleDir.lexically_normal().string()), std::string::npos) << m.why;
}

TEST(OpenModule, AFileThatIsNotALibrarySaysWhatDlopenSaid) {
  TempDir dir;
  std::ofstream(dir.path() / "libxferbench-backend-empty.so") << "";
  const auto m = open_backend({dir.path()}, "libxferbench-backend-empty.so");
  EXPECT_FALSE(m.module);
  EXPECT_NE(m.why.find("libxferbench-backend-empty.so: dlopen failed: "), std::string::npos) << m.why;
}

}  // namespace
