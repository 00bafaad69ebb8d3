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

// A module of one kind found and opened, its entry (core/module_entry.hpp) read and checked: its
// kind and interface version. `ops` points into the module (the kind's operations, valid while
// `module` is open). Where any step fails, `module` is empty and `why` says which step and why
// ("libxferbench-runtime-mpi.so: dlopen failed: libmpi.so.40: cannot open shared object file").
struct OpenedModule {
  SharedModule module;
  std::string name;  // the module's own name, read even when it is refused for its version or kind
  std::string why;
  const void* ops = nullptr;

  // The operations, as the kind asked for says they are.
  template <typename Ops>
  const Ops* ops_as() const noexcept {
    return static_cast<const Ops*>(ops);
  }
};

// Finds `file_name` in `dirs` and opens it as a module of `kind`; `why` names the file.
OpenedModule open_module(const std::vector<std::filesystem::path>& dirs, std::string_view file_name,
                         std::string_view kind);
// Opens `file` as a module of `kind` (the backend registry, which lists its directories itself);
// `why` does not repeat the file's name.
OpenedModule open_module_file(const std::filesystem::path& file, std::string_view kind);

}  // namespace xb
