#include "report/atomic_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/cleanup.hpp"
#include "core/error.hpp"

namespace xb {

void write_file_atomically(const std::string& path, std::string_view text) {
  const std::string tmp = fmt::format("{}.tmp-{}", path, getpid());
  // Removed by the signal handlers if the run is interrupted while the temporary exists.
  ScopedCleanup cleanup(CleanupKind::file, tmp);
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    f.close();
    if (!f) {
      const int err = errno;
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw SystemError(fmt::format("write({})", tmp), err);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw SystemError(fmt::format("rename({}, {})", tmp, path), err);
  }
}

}  // namespace xb
