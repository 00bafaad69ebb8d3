#include "cli/ready_file.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace xb {

void check_ready_file_path(const std::string& path) {
  if (path.empty()) return;
  if (const std::string why = why_not_writable(path); !why.empty()) {
    throw UsageError(fmt::format("--ready-file {}: {}", path, why));
  }
}

ReadyFile::~ReadyFile() {
  if (written_) std::remove(path_.c_str());
}

void ReadyFile::write(const SocketAddress& control, const SocketAddress& data) {
  if (path_.empty()) return;
  cleanup_.emplace(CleanupKind::file, path_);
  try {
    write_file_atomically(path_, fmt::format("control {}\ndata {}\n", control.to_string(), data.to_string()));
  } catch (const SystemError& e) {
    throw SystemError(fmt::format("--ready-file {}: {}", path_, e.what()), e.error_number());
  }
  written_ = true;
}

}  // namespace xb
