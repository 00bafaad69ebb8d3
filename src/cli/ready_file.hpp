#pragma once
// --ready-file of the server commands (xfer server, link --listen): the bound addresses
// ("control HOST:PORT", "data HOST:PORT"), for scripts and tests that start a server on port 0.
#include <optional>
#include <string>

#include "core/cleanup.hpp"
#include "transport/address.hpp"

namespace xb {

// Refuses (UsageError naming --ready-file) a path whose directory does not exist, before anything
// is started. An empty path is fine: no ready file asked for.
void check_ready_file_path(const std::string& path);

// Written whole under a temporary name and renamed; removed when the server ends (and on
// SIGINT/SIGTERM through core/cleanup).
class ReadyFile {
 public:
  explicit ReadyFile(std::string path) : path_(std::move(path)) {}
  ~ReadyFile();
  ReadyFile(const ReadyFile&) = delete;
  ReadyFile& operator=(const ReadyFile&) = delete;

  void write(const SocketAddress& control, const SocketAddress& data);

 private:
  std::string path_;
  bool written_ = false;
  std::optional<ScopedCleanup> cleanup_;
};

}  // namespace xb
