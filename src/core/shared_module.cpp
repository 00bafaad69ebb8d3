#include "core/shared_module.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>

#include <array>

#include <cstdlib>
#include <utility>

#include "core/module_entry.hpp"

namespace xb {

std::vector<std::filesystem::path> default_module_dirs() {
  std::vector<std::filesystem::path> dirs;
  if (const char* env = std::getenv("XFERBENCH_MODULE_PATH"); env != nullptr) {
    std::string_view rest(env);
    while (!rest.empty()) {
      const auto colon = rest.find(':');
      if (colon != 0) dirs.emplace_back(rest.substr(0, colon));
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back(exe.parent_path() / ".." / "lib" / "xferbench");
    dirs.push_back(exe.parent_path() / "modules");
  }
  return dirs;
}

namespace {

// The signal dispositions of the process, restored after a library is loaded: a library's
// constructor may take a signal the program handles (UCX's libucs takes SIGHUP for its debug mode
// when it loads), and an interrupted run must still clean up (core/cleanup.hpp). When UCX was
// linked, its constructor ran before main and the program's handlers replaced its own; loaded
// later, it must not replace them. The signals are blocked in this thread meanwhile, so one that
// arrives while the library's handler is in place waits and meets the program's (modules are
// opened at start-up, on the main thread, often the only one).
class SignalDispositions {
 public:
  SignalDispositions() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &mask_);
    for (int sig = 1; sig < kSignals; ++sig) saved_[sig].ok = sigaction(sig, nullptr, &saved_[sig].action) == 0;
  }
  ~SignalDispositions() {
    for (int sig = 1; sig < kSignals; ++sig) {
      if (!saved_[sig].ok || sig == SIGKILL || sig == SIGSTOP) continue;
      struct sigaction now {};
      if (sigaction(sig, nullptr, &now) != 0) continue;
      if (now.sa_handler != saved_[sig].action.sa_handler) sigaction(sig, &saved_[sig].action, nullptr);
    }
    pthread_sigmask(SIG_SETMASK, &mask_, nullptr);
  }
  SignalDispositions(const SignalDispositions&) = delete;
  SignalDispositions& operator=(const SignalDispositions&) = delete;

 private:
  static constexpr int kSignals = 32;  // the standard signals; real-time ones are nobody's here
  struct Saved {
    struct sigaction action {};
    bool ok = false;
  };
  std::array<Saved, kSignals> saved_{};
  sigset_t mask_{};
};

}  // namespace

SharedModule SharedModule::open(const std::filesystem::path& file, std::string& why) {
  SharedModule m;
  const SignalDispositions keep;  // restored when this returns, the library loaded
  // RTLD_NODELETE: closing the handle never unmaps the library. A module's own libraries (Open MPI,
  // UCX, the CUDA runtime) keep threads, atexit hooks and allocations past their last use; unmapping
  // them mid-process or before exit runs those hooks on unmapped code, and LeakSanitizer cannot name
  // (nor suppress) what an unmapped library left.
  m.handle_ = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (m.handle_ == nullptr) {
    const char* err = dlerror();
    why = fmt::format("dlopen failed: {}", err != nullptr ? err : "unknown error");
    return m;
  }
  m.file_ = file;
  return m;
}

SharedModule::~SharedModule() {
  if (handle_ != nullptr) dlclose(handle_);
}

SharedModule::SharedModule(SharedModule&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), file_(std::move(other.file_)) {}

SharedModule& SharedModule::operator=(SharedModule&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    file_ = std::move(other.file_);
  }
  return *this;
}

void* SharedModule::symbol(const char* name) const noexcept {
  return handle_ != nullptr ? dlsym(handle_, name) : nullptr;
}

std::filesystem::path find_module_file(const std::vector<std::filesystem::path>& dirs, std::string_view file_name,
                                       std::string& why) {
  std::string looked;
  for (const auto& dir : dirs) {
    std::error_code ec;
    const auto candidate = dir / file_name;
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
    looked += fmt::format("{}{}", looked.empty() ? "" : ", ", dir.lexically_normal().string());
  }
  why = fmt::format("{} is not installed (looked in: {}; XFERBENCH_MODULE_PATH adds places)", file_name,
                    looked.empty() ? "nowhere" : looked);
  return {};
}

namespace {

// Reads and checks the entry of the library `opened.module` holds; empties the module when it is
// refused.
void check_entry(OpenedModule& opened, std::string_view kind) {
  auto* entry_point = reinterpret_cast<const XbModule* (*)()>(opened.module.symbol(kXbModuleSymbol));
  const XbModule* entry = entry_point != nullptr ? entry_point() : nullptr;
  if (entry == nullptr) {
    opened.why = fmt::format("no {} symbol: not an xferbench module", kXbModuleSymbol);
  } else {
    // Copied before a refusal closes the library: the entry lives in the module's memory.
    opened.name = entry->name != nullptr ? entry->name : "";
    const std::string_view found = entry->kind != nullptr ? entry->kind : "";
    if (found != kind) {
      opened.why = fmt::format("a {} module, not a {} module", found.empty() ? "nameless kind of" : found, kind);
    } else if (entry->interface_version != kModuleInterfaceVersion) {
      opened.why = fmt::format("interface version {} does not match this xferbench's {}; rebuild the module",
                               entry->interface_version, kModuleInterfaceVersion);
    } else {
      opened.ops = entry->ops;
      return;
    }
  }
  opened.module = SharedModule{};
}

}  // namespace

OpenedModule open_module_file(const std::filesystem::path& file, std::string_view kind) {
  OpenedModule opened;
  opened.module = SharedModule::open(file, opened.why);
  if (opened.module) check_entry(opened, kind);
  return opened;
}

OpenedModule open_module(const std::vector<std::filesystem::path>& dirs, std::string_view file_name,
                         std::string_view kind) {
  OpenedModule opened;
  const auto file = find_module_file(dirs, file_name, opened.why);
  if (file.empty()) return opened;
  opened = open_module_file(file, kind);
  if (!opened.module) opened.why = fmt::format("{}: {}", file.string(), opened.why);
  return opened;
}

}  // namespace xb
