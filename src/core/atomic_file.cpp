#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/error.hpp"

namespace xb {
namespace {

// Enough names drawn that only a directory full of someone's planted names exhausts them.
constexpr int kNameAttempts = 16;

std::uint64_t random_word() {
  std::uint64_t v = 0;
  auto* p = reinterpret_cast<char*>(&v);
  std::size_t got = 0;
  while (got < sizeof v) {
    const ssize_t n = getrandom(p + got, sizeof v - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw_errno("getrandom (a temporary file's name)");
    got += static_cast<std::size_t>(n);
  }
  return v;
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::filesystem::path target, mode_t mode) : target_(std::move(target)) {
  for (int attempt = 0; attempt < kNameAttempts; ++attempt) {
    temp_ = target_;
    temp_ += fmt::format(".tmp-{}-{:016x}", getpid(), random_word());
    // Registered before it exists: a signal between open() and here would otherwise leave it.
    cleanup_.emplace(CleanupKind::file, temp_.string());
    const int fd =
        creating_names([&] { return open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode); });
    if (fd >= 0) {
      fd_ = UniqueFd(fd);
      return;
    }
    const int err = errno;
    cleanup_.reset();
    if (err != EEXIST) throw SystemError(fmt::format("open({}, O_CREAT | O_EXCL)", temp_.string()), err);
  }
  throw SystemError(fmt::format("open({}.tmp-*, O_CREAT | O_EXCL): {} random names all taken", target_.string(),
                                kNameAttempts),
                    EEXIST);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (!committed_) {
    fd_.reset();
    unlink(temp_.c_str());
  }
}

void AtomicFileWriter::write(std::string_view text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw_errno(fmt::format("write({})", temp_.string()));
    done += static_cast<std::size_t>(n);
  }
}

void AtomicFileWriter::commit(bool durable) {
  if (durable && fsync(fd_.get()) != 0) throw_errno(fmt::format("fsync({})", temp_.string()));
  if (close(fd_.release()) != 0) throw_errno(fmt::format("close({})", temp_.string()));
  if (creating_names([&] { return std::rename(temp_.c_str(), target_.c_str()); }) != 0) {
    throw_errno(fmt::format("rename({}, {})", temp_.string(), target_.string()));
  }
  committed_ = true;
  cleanup_.reset();  // the name is gone: nothing for a signal to remove
}

std::string why_not_writable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return "is a directory, expected a file name";
  const auto parent = fs::absolute(path, ec).parent_path();
  if (ec || !fs::is_directory(parent, ec)) return fmt::format("directory {} does not exist", parent.string());
  try {
    const AtomicFileWriter probe(path);  // removed again: never committed
  } catch (const SystemError& e) {
    return fmt::format("cannot create a file in {}: {}", parent.string(), std::strerror(e.error_number()));
  }
  return {};
}

void write_file_atomically(const std::string& path, std::string_view text) {
  AtomicFileWriter file(path);
  file.write(text);
  file.commit();
}

}  // namespace xb
