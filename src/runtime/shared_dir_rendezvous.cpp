#include "runtime/shared_dir_rendezvous.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "core/error.hpp"
#include "core/unique_fd.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// A directory made by us or found: a real directory (no link followed), this user's, 0700 at most.
// `make`: made here when missing (true returned); else only checked.
bool ensure_private_dir(const std::string& path, bool make = true) {
  const bool made = make && mkdir(path.c_str(), 0700) == 0;
  if (make && !made && errno != EEXIST) throw_errno(fmt::format("mkdir({})", path));
  UniqueFd fd(open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) throw_errno(fmt::format("open({}) (a shared-directory entry must be a real directory)", path));
  struct stat st {};
  if (fstat(fd.get(), &st) != 0) throw_errno(fmt::format("fstat({})", path));
  if (st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
    throw std::runtime_error(fmt::format("{}: not this user's private directory (owner uid {}, mode {:04o})", path,
                                         st.st_uid, static_cast<unsigned>(st.st_mode & 07777)));
  }
  return made;
}

// What another node wrote for us: trusted only if it is a regular file of this user that nobody else
// may write (another uid could otherwise plant the address a node connects to and hands its token).
// Empty while it does not exist yet.
std::string read_trusted_file(const std::string& path) {
  UniqueFd fd(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == ENOENT) return {};
    throw_errno(fmt::format("open({}) (a file of the shared directory must be a regular file)", path));
  }
  struct stat st {};
  if (fstat(fd.get(), &st) != 0) throw_errno(fmt::format("fstat({})", path));
  if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022) != 0) {
    throw std::runtime_error(
        fmt::format("{}: not trusted: {} of uid {}, mode {:04o} (it must be a regular file of this "
                    "user, writable by nobody else); remove it",
                    path, S_ISREG(st.st_mode) ? "a file" : "not a regular file", st.st_uid,
                    static_cast<unsigned>(st.st_mode & 07777)));
  }
  char buf[512] = {};
  const ssize_t n = read(fd.get(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

// The directories above the shared one, as OpenSSH's StrictModes judges a path: each owned by root
// or this user, and writable by nobody else unless sticky (as /tmp): otherwise whoever may write
// there could swap the directory for their own. Empty when they pass; else why not.
std::string untrusted_ancestor(const std::string& path) {
  char* real = realpath(path.c_str(), nullptr);
  if (real == nullptr) return {};  // the open below names the error
  std::string dir(real);
  free(real);  // NOLINT: realpath's buffer
  while (dir.size() > 1) {
    dir.resize(std::max<std::size_t>(dir.rfind('/'), 1));
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0) return fmt::format("{}: stat failed: {}", dir, std::strerror(errno));
    if (st.st_uid != 0 && st.st_uid != geteuid()) {
      return fmt::format("it lies under {}, owned by uid {} (neither root nor this user)", dir, st.st_uid);
    }
    if ((st.st_mode & 022) != 0 && (st.st_mode & S_ISVTX) == 0) {
      return fmt::format("it lies under {}, mode {:04o}: others may replace what is in it", dir,
                         static_cast<unsigned>(st.st_mode & 07777));
    }
  }
  return {};
}

}  // namespace

void check_shared_dir(const std::string& path, const std::string& flag) {
  if (path.empty()) throw UsageError(fmt::format("{}: an empty path", flag));
  if (path.find('*') != std::string::npos) {
    throw UsageError(fmt::format("{} {}: the path may not contain a wildcard (*)", flag, path));
  }
  // A symbolic link is refused by name first (open with O_NOFOLLOW | O_DIRECTORY says only
  // ENOTDIR); the open then makes sure what is checked (fstat) is what the path names now. Trailing
  // slashes go first: "link/" would make both follow the link.
  std::string bare = path;
  while (bare.size() > 1 && bare.back() == '/') bare.pop_back();
  struct stat link_st {};
  if (lstat(bare.c_str(), &link_st) == 0 && S_ISLNK(link_st.st_mode)) {
    throw UsageError(fmt::format("{} {}: a symbolic link (the shared directory must be a real directory)", flag, path));
  }
  const UniqueFd fd(open(bare.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) {
    const int err = errno;
    throw UsageError(fmt::format("{} {}: {}", flag, path,
                                 err == ELOOP     ? "a symbolic link (the shared directory must be a real directory)"
                                 : err == ENOTDIR ? "not a directory"
                                                  : std::strerror(err)));
  }
  struct stat st {};
  if (fstat(fd.get(), &st) != 0) {
    throw UsageError(fmt::format("{} {}: fstat failed: {}", flag, path, std::strerror(errno)));
  }
  if (st.st_uid != geteuid()) {
    throw UsageError(
        fmt::format("{} {}: owned by uid {}, not by this user (uid {})", flag, path, st.st_uid, geteuid()));
  }
  if ((st.st_mode & 077) != 0) {
    throw UsageError(fmt::format("{} {}: mode {:04o} gives group or others access; it must give none (chmod 700)", flag,
                                 path, static_cast<unsigned>(st.st_mode & 07777)));
  }
  if ((st.st_mode & 0700) != 0700) {
    throw UsageError(fmt::format("{} {}: mode {:04o}: this user needs read, write and search permission (chmod 700)",
                                 flag, path, static_cast<unsigned>(st.st_mode & 07777)));
  }
  if (const std::string why = untrusted_ancestor(bare); !why.empty()) {
    throw UsageError(fmt::format("{} {}: {}", flag, path, why));
  }
}

SharedDirRendezvous::SharedDirRendezvous(const std::string& dir, int rank, const std::string& host_ip,
                                         const std::string& peer_ip, int device0, int device1, bool card)
    : rank_(rank), check_dir_(dir + "/ascend_check") {
  const char* mode = card ? "card" : "device";
  // The pair is named from the rank 0 (--sp 0) node's view: its address first.
  const std::string& src = rank == 0 ? host_ip : peer_ip;
  const std::string& dst = rank == 0 ? peer_ip : host_ip;
  pair_dir_ = fmt::format("{}/{}_{}_{}_{}_{}", check_dir_, src, device0, dst, device1, mode);
  // Directories are removed by a signal's handler after the files in them, and only once empty
  // (the other node's files keep them): so an interrupted run leaves no pair directory that the
  // next run's mkdir would fail on. ascend_check too, whoever made it, as the normal end does.
  // Registered before it is made (core/cleanup's handler then sees it whenever it runs).
  cleanups_.push_back(std::make_unique<ScopedCleanup>(CleanupKind::directory, check_dir_));
  made_check_dir_ = creating_names([&] { return ensure_private_dir(check_dir_); });
  try {
    create_file(fmt::format("{}/{}_{}_{}.flag", check_dir_, host_ip, rank == 0 ? device0 : device1, mode),
                fmt::format("{}\n", getpid()));
    if (rank == 0) {
      // Made and registered in one bracket (core/cleanup): never registered when it is another run's.
      const CreatingNames bracket(NameRegistered::after);
      if (mkdir(pair_dir_.c_str(), 0700) != 0) {
        throw std::runtime_error(fmt::format("mkdir({}) failed: {}{}", pair_dir_, std::strerror(errno),
                                             errno == EEXIST ? " (another run of this pair, or one that was killed: "
                                                               "remove it)"
                                                             : ""));
      }
      made_pair_dir_ = true;
      cleanups_.push_back(std::make_unique<ScopedCleanup>(CleanupKind::directory, pair_dir_));
      ensure_private_dir(pair_dir_);
    }
  } catch (...) {
    remove_created();  // the destructor does not run for a constructor that throws
    throw;
  }
}

SharedDirRendezvous::~SharedDirRendezvous() { remove_created(); }

void SharedDirRendezvous::remove_created() noexcept {
  for (auto it = files_.rbegin(); it != files_.rend(); ++it) unlink(it->c_str());
  files_.clear();
  cleanups_.clear();
  if (made_pair_dir_) {
    // The peer's procInfoBi may still be there for a moment: it removes it right after its run.
    for (int i = 0; i < 50 && rmdir(pair_dir_.c_str()) != 0 && errno == ENOTEMPTY; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    made_pair_dir_ = false;
  }
  // ascend_check goes once empty, whoever made it (the other node may still use it: then ENOTEMPTY).
  rmdir(check_dir_.c_str());
}

void SharedDirRendezvous::create_file(const std::string& path, const std::string& content) {
  // Made and registered in one bracket (core/cleanup): a file that exists already is another run's,
  // never registered.
  const CreatingNames bracket(NameRegistered::after);
  UniqueFd fd(open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd.valid()) {
    const int err = errno;
    throw std::runtime_error(fmt::format("create {} failed: {}{}", path, std::strerror(err),
                                         err == EEXIST ? " (another run, or one that was killed: remove it)" : ""));
  }
  files_.push_back(path);
  cleanups_.push_back(std::make_unique<ScopedCleanup>(CleanupKind::file, path));
  if (write(fd.get(), content.data(), content.size()) != static_cast<ssize_t>(content.size())) {
    throw_errno(fmt::format("write({})", path));
  }
}

void SharedDirRendezvous::publish(const SocketAddress& listening) {
  create_file(pair_dir_ + "/procInfo", fmt::format("{} {}\n", listening.to_string(), getpid()));
}

SocketAddress SharedDirRendezvous::await_peer(std::chrono::steady_clock::time_point deadline,
                                              std::chrono::milliseconds window, const std::string& own_address,
                                              const std::string& listener) {
  const std::string info = pair_dir_ + "/procInfo";
  for (;;) {
    // The pair's directory is the other node's (rank 0 makes it): trusted only as a private one.
    struct stat st {};
    if (lstat(pair_dir_.c_str(), &st) == 0) ensure_private_dir(pair_dir_, false);
    const std::string text = read_trusted_file(info);
    const auto space = text.find(' ');
    if (space != std::string::npos) {
      const SocketAddress peer = parse_address(text.substr(0, space), info, true);
      create_file(pair_dir_ + "/procInfoBi", fmt::format("{} {}\n", own_address, getpid()));
      return peer;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      throw TransportError(fmt::format("no peer: {} did not appear within {} s: start {} within the start window", info,
                                       window.count() / 1000, listener));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace xb
