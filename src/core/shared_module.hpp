#pragma once
// A shared library loaded at run time (dlopen): what backends (CUDA, CANN), the MPI runtime and the
// UCX transport are, so the xferbench binary starts on a node that has none of their libraries and
// says which one is missing only when a command needs it. One loader and one set of places to look
// for every kind of module (the backend registry, runtime/mpi_library, transport/transport_registry).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace xb {

// Where modules are looked for: $XFERBENCH_MODULE_PATH (colon-separated), then
// <dir of the executable>/../lib/xferbench and <dir of the executable>/modules.
std::vector<std::filesystem::path> default_module_dirs();

// One dlopen()ed library (RTLD_NOW | RTLD_LOCAL), closed when this is destroyed. Whatever was made
// from its code must be destroyed first: its owner keeps the SharedModule beside (after) it.
class SharedModule {
 public:
  SharedModule() = default;
  // Opens `file`; an empty module when it cannot, with dlerror()'s words in `why`.
  static SharedModule open(const std::filesystem::path& file, std::string& why);
  ~SharedModule();
  SharedModule(SharedModule&& other) noexcept;
  SharedModule& operator=(SharedModule&& other) noexcept;
  SharedModule(const SharedModule&) = delete;
  SharedModule& operator=(const SharedModule&) = delete;

  explicit operator bool() const noexcept { return handle_ != nullptr; }
  // The address of `name` in the library, or null.
  void* symbol(const char* name) const noexcept;
  const std::filesystem::path& file() const noexcept { return file_; }

 private:
  void* handle_ = nullptr;
  std::filesystem::path file_;
};

// The first directory of `dirs` holding `file_name`; empty, with the directories looked in named in
// `why`, when none does.
std::filesystem::path find_module_file(const std::vector<std::filesystem::path>& dirs, std::string_view file_name,
                                       std::string& why);

// A module of one kind found and opened, its entry point called and its interface version checked:
// `entry` points into the module (valid while `module` is open). Where any step fails, `module` is
// empty and `why` says which step and why ("libxferbench-runtime-mpi.so: dlopen failed: libmpi.so.40:
// cannot open shared object file").
template <typename Entry>
struct OpenedModule {
  SharedModule module;
  const Entry* entry = nullptr;
  std::string why;
};

// Finds `file_name` in `dirs`, opens it, calls its `symbol` (a function returning const Entry*) and
// compares the entry's interface_version with `version`.
template <typename Entry>
OpenedModule<Entry> open_module(const std::vector<std::filesystem::path>& dirs, std::string_view file_name,
                                const char* symbol, unsigned version);

// The steps open_module shares between kinds, out of line.
namespace module_detail {
SharedModule open_found(const std::vector<std::filesystem::path>& dirs, std::string_view file_name, std::string& why);
std::string version_mismatch(std::string_view file_name, unsigned found, unsigned wanted);
std::string no_entry(std::string_view file_name, const char* symbol);
}  // namespace module_detail

template <typename Entry>
OpenedModule<Entry> open_module(const std::vector<std::filesystem::path>& dirs, std::string_view file_name,
                                const char* symbol, unsigned version) {
  OpenedModule<Entry> out;
  SharedModule lib = module_detail::open_found(dirs, file_name, out.why);
  if (!lib) return out;
  auto* entry_point = reinterpret_cast<const Entry* (*)()>(lib.symbol(symbol));
  const Entry* entry = entry_point != nullptr ? entry_point() : nullptr;
  if (entry == nullptr) {
    out.why = module_detail::no_entry(file_name, symbol);
    return out;
  }
  if (entry->interface_version != version) {
    out.why = module_detail::version_mismatch(file_name, entry->interface_version, version);
    return out;
  }
  out.module = std::move(lib);
  out.entry = entry;
  return out;
}

}  // namespace xb
