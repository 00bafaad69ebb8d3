#pragma once
// Every backend the program can use: the built-in cpu backend plus modules found at run time
// (libxferbench-backend-*.so in the module directories), so one binary runs with or without CUDA
// or CANN installed. Modeled on nixl's plugin manager.
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/device.hpp"
#include "core/shared_module.hpp"

namespace xb {

struct ModuleRecord {
  std::string name;            // the backend name, or the file name when it could not be read
  std::filesystem::path path;  // empty for built-ins
  bool loaded = false;
  std::string reason;          // why refused, when !loaded
};

class BackendRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Backend>()>;

  BackendRegistry();
  ~BackendRegistry();
  BackendRegistry(const BackendRegistry&) = delete;
  BackendRegistry& operator=(const BackendRegistry&) = delete;

  // A registry holding the built-in backends (cpu) and the modules found in `module_dirs`.
  static std::unique_ptr<BackendRegistry> create(const std::vector<std::filesystem::path>& module_dirs);

  void add_builtin(std::string name, Factory factory);
  // Loads every libxferbench-backend-*.so in `dir`; a module that cannot be loaded is recorded as
  // refused with its reason, never fatal. A directory already read (by its canonical path) is not
  // read again.
  void load_modules_from(const std::filesystem::path& dir);
  // Loads one module file; returns the record (also kept in modules()).
  const ModuleRecord& load_module(const std::filesystem::path& file);

  std::vector<std::string> names() const;
  const std::vector<ModuleRecord>& modules() const { return records_; }
  // Every directory modules were looked for in, in order (also those that do not exist): where the
  // other kinds of module (the MPI runtime, the UCX transport) are looked for too.
  const std::vector<std::filesystem::path>& module_dirs() const { return searched_dirs_; }
  // The backend of that name (created on first use); throws UsageError for an unknown name.
  Backend& get(std::string_view name);
  // The first available accelerator backend (anything but cpu), else cpu. `why_cpu` says why no
  // accelerator was chosen, when cpu is returned.
  Backend& preferred(std::string* why_cpu = nullptr);
  // The one backend choice of every command: `name` when given (get), else preferred(why_cpu).
  Backend& choose(std::string_view name, std::string* why_cpu = nullptr);

 private:
  struct Entry;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::vector<ModuleRecord> records_;
  std::vector<std::filesystem::path> module_dirs_;  // canonical paths of the directories read
  std::vector<std::filesystem::path> searched_dirs_;  // as given
};

}  // namespace xb
