#include "backends/registry.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/module_abi.hpp"
#include "core/error.hpp"

namespace xb {

// One backend: how to make it, the instance once made, and the module handle keeping its code
// mapped. The instance is destroyed before the handle is closed.
struct BackendRegistry::Entry {
  std::string name;
  Factory factory;
  SharedModule module;                 // empty for built-ins; declared first, so closed last
  std::unique_ptr<Backend> instance;   // made from the module's code: destroyed before it closes
};

BackendRegistry::BackendRegistry() = default;
BackendRegistry::~BackendRegistry() = default;

std::unique_ptr<BackendRegistry> BackendRegistry::create(const std::vector<std::filesystem::path>& module_dirs) {
  auto registry = std::make_unique<BackendRegistry>();
  registry->add_builtin("cpu", [] { return make_cpu_backend(); });
  for (const auto& dir : module_dirs) registry->load_modules_from(dir);
  return registry;
}

void BackendRegistry::add_builtin(std::string name, Factory factory) {
  auto e = std::make_unique<Entry>();
  e->name = name;
  e->factory = std::move(factory);
  entries_.push_back(std::move(e));
  records_.push_back({std::move(name), {}, true, {}});
}

void BackendRegistry::load_modules_from(const std::filesystem::path& dir) {
  if (std::find(searched_dirs_.begin(), searched_dirs_.end(), dir) == searched_dirs_.end()) {
    searched_dirs_.push_back(dir);
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return;
  // One directory named twice (XFERBENCH_MODULE_PATH set to <exe>/modules, a symlink, a trailing
  // "/.") is read once: a second pass would refuse every module as "already registered".
  const std::filesystem::path canonical = std::filesystem::canonical(dir, ec);
  const std::filesystem::path& key = ec ? dir : canonical;
  if (std::find(module_dirs_.begin(), module_dirs_.end(), key) != module_dirs_.end()) return;
  module_dirs_.push_back(key);
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const auto fname = entry.path().filename().string();
    if (fname.rfind("libxferbench-backend-", 0) == 0 && entry.path().extension() == ".so") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());  // a stable order whatever the directory order
  for (const auto& f : files) load_module(f);
}

const ModuleRecord& BackendRegistry::load_module(const std::filesystem::path& file) {
  ModuleRecord rec{file.filename().string(), file, false, {}};
  OpenedModule opened = open_module_file(file, kXbBackendKind);
  if (!opened.name.empty()) rec.name = opened.name;  // read from the module, even when refused
  if (!opened.module) {
    rec.reason = std::move(opened.why);
    return records_.emplace_back(std::move(rec));
  }
  const bool duplicate = std::any_of(entries_.begin(), entries_.end(),
                                     [&](const auto& e) { return e->name == rec.name; });
  if (duplicate) {
    rec.reason = fmt::format("a backend named '{}' is already registered", rec.name);
    return records_.emplace_back(std::move(rec));
  }
  auto e = std::make_unique<Entry>();
  e->name = rec.name;
  auto create = opened.ops_as<XbBackendOps>()->create;
  e->module = std::move(opened.module);
  e->factory = [create] { return std::unique_ptr<Backend>(create()); };
  entries_.push_back(std::move(e));
  rec.loaded = true;
  return records_.emplace_back(std::move(rec));
}

std::vector<std::string> BackendRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e->name);
  return out;
}

Backend& BackendRegistry::get(std::string_view name) {
  for (auto& e : entries_) {
    if (e->name != name) continue;
    if (!e->instance) e->instance = e->factory();
    return *e->instance;
  }
  std::string known;
  for (const auto& e : entries_) known += (known.empty() ? "" : ", ") + e->name;
  throw UsageError(fmt::format("--backend {}: no such backend here (available: {})", name, known));
}

Backend& BackendRegistry::preferred(std::string* why_cpu) {
  std::string reasons;
  for (auto& e : entries_) {
    if (e->name == "cpu") continue;
    Backend& b = get(e->name);
    const Support s = b.availability();
    if (s.ok && b.device_count() > 0) return b;
    reasons += fmt::format("{}{}: {}", reasons.empty() ? "" : "; ", e->name, s.ok ? "no devices" : s.reason);
  }
  if (why_cpu != nullptr) {
    *why_cpu = reasons.empty() ? "no accelerator backend module is installed" : reasons;
  }
  return get("cpu");
}

Backend& BackendRegistry::choose(std::string_view name, std::string* why_cpu) {
  return name.empty() ? preferred(why_cpu) : get(name);
}

}  // namespace xb
