#include "cli/ready_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"

namespace xb {

void check_ready_file_path(const std::string& path) {
  if (path.empty()) return;
  const auto parent = std::filesystem::absolute(path).parent_path();
  std::error_code ec;
  if (!std::filesystem::is_directory(parent, ec)) {
    throw UsageError(fmt::format("--ready-file {}: directory {} does not exist", path, parent.string()));
  }
}

ReadyFile::~ReadyFile() {
  if (written_) std::remove(path_.c_str());
}

void ReadyFile::write(const SocketAddress& control, const SocketAddress& data) {
  if (path_.empty()) return;
  cleanup_.emplace(CleanupKind::file, path_);
  const std::string tmp = fmt::format("{}.tmp-{}", path_, getpid());
  ScopedCleanup tmp_cleanup(CleanupKind::file, tmp);
  std::ofstream f(tmp, std::ios::trunc);
  f << "control " << control.to_string() << "\ndata " << data.to_string() << "\n";
  f.close();
  if (!f || std::rename(tmp.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw SystemError(fmt::format("--ready-file: write({})", path_), err);
  }
  written_ = true;
}

}  // namespace xb
