#include "storage/manifest.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/unique_fd.hpp"

namespace xb {
namespace {

constexpr std::string_view kMagic = "xferbench-io-record 2";

// A rename or an unlink is durable only once the directory holding it is fsync'd.
void sync_directory(const std::filesystem::path& dir) {
  UniqueFd d{open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (d.get() < 0) throw_errno(fmt::format("open({})", dir.string()));
  if (fsync(d.get()) != 0) throw_errno(fmt::format("fsync({})", dir.string()));
}

std::filesystem::path directory_of(const std::filesystem::path& path) {
  const auto parent = std::filesystem::absolute(path).parent_path();
  return parent.empty() ? std::filesystem::path("/") : parent;
}

bool parse_u64(std::string_view s, std::uint64_t& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// The next space-separated word of `rest`, consumed.
std::string_view next_word(std::string_view& rest) {
  const auto space = rest.find(' ');
  const std::string_view word = rest.substr(0, space);
  rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
  return word;
}


bool parse_words(std::string_view rest, std::initializer_list<std::uint64_t*> out) {
  for (std::uint64_t* o : out) {
    if (!parse_u64(next_word(rest), *o)) return false;
  }
  return rest.empty();
}

// A directory made by this user for this user alone: records are trusted only from there.
void make_private_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir.parent_path(), ec);
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) throw_errno(fmt::format("mkdir({})", dir.string()));
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0) throw_errno(fmt::format("lstat({})", dir.string()));
  if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022) != 0) {
    throw std::runtime_error(fmt::format("{}: the state directory must be a directory of this user that no one else "
                                         "may write to",
                                         dir.string()));
  }
}

std::filesystem::path records_of(const std::filesystem::path& state) { return state / "io-written"; }

// The name a record keeps of its file: absolute and normal, so a check under another spelling of
// the same name still matches.
std::string record_name(const std::string& path) {
  return std::filesystem::absolute(path).lexically_normal().string();
}

}  // namespace

FileIdentity identity_of(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
          static_cast<std::uint64_t>(st.st_size),
          static_cast<std::uint64_t>(st.st_ctim.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(st.st_ctim.tv_nsec)};
}

std::string manifest_text(const Manifest& m) {
  return fmt::format("{}\npath {}\nidentity {} {} {} {}\npattern {} {} {}\nio_size {}\nend\n", kMagic, m.path,
                     m.identity.device, m.identity.inode, m.identity.size, m.identity.ctime_ns, m.seed, m.begin, m.end,
                     m.io_bytes);
}

Manifest parse_manifest(std::string_view text) {
  Manifest m;
  int line_no = 0;
  bool ended = false, has_path = false, has_identity = false, has_pattern = false, has_io = false;
  const auto bad = [&](std::string_view line, std::string_view why) {
    return std::runtime_error(fmt::format("line {} ('{}'): {}", line_no, line, why));
  };
  while (!text.empty()) {
    const auto nl = text.find('\n');
    if (nl == std::string_view::npos) throw bad(text, "no end of line (the record is cut short)");
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl + 1);
    ++line_no;
    if (ended) throw bad(line, "text after 'end'");
    if (line_no == 1) {
      if (line != kMagic) throw bad(line, fmt::format("expected '{}'", kMagic));
      continue;
    }
    std::string_view rest = line;
    const std::string_view key = next_word(rest);
    if (key == "end") {
      ended = true;
    } else if (key == "path") {
      if (rest.empty()) throw bad(line, "expected 'path PATH'");
      m.path = std::string(rest);
      has_path = true;
    } else if (key == "identity") {
      auto& id = m.identity;
      if (!parse_words(rest, {&id.device, &id.inode, &id.size, &id.ctime_ns})) {
        throw bad(line, "expected 'identity DEV INO SIZE CTIME_NS'");
      }
      has_identity = true;
    } else if (key == "pattern") {
      if (!parse_words(rest, {&m.seed, &m.begin, &m.end}) || m.end < m.begin) {
        throw bad(line, "expected 'pattern SEED BEGIN END' with BEGIN <= END");
      }
      has_pattern = true;
    } else if (key == "io_size") {
      if (!parse_words(rest, {&m.io_bytes})) throw bad(line, "expected 'io_size BYTES'");
      has_io = true;
    } else {
      throw bad(line, "unknown item");
    }
  }
  if (line_no == 0) throw std::runtime_error("empty");
  if (!ended) throw std::runtime_error("no 'end' line (the record is cut short)");
  if (!has_path || !has_identity || !has_pattern || !has_io) {
    throw std::runtime_error("a 'path', 'identity', 'pattern' or 'io_size' line is missing");
  }
  return m;
}

std::filesystem::path state_directory_from(const char* xferbench_state_dir, const char* xdg_state_home,
                                           const char* home) {
  const auto set = [](const char* v) { return v != nullptr && *v != '\0'; };
  if (set(xferbench_state_dir)) return std::filesystem::absolute(xferbench_state_dir);
  // XDG: a relative $XDG_STATE_HOME is invalid and ignored.
  if (set(xdg_state_home) && *xdg_state_home == '/') return std::filesystem::path(xdg_state_home) / "xferbench";
  if (set(home)) return std::filesystem::path(home) / ".local/state/xferbench";
  return "/var/lib/xferbench";
}

std::filesystem::path state_directory() {
  return state_directory_from(std::getenv("XFERBENCH_STATE_DIR"), std::getenv("XDG_STATE_HOME"), std::getenv("HOME"));
}

std::filesystem::path manifest_path(const std::filesystem::path& state, const FileIdentity& id) {
  return records_of(state) / fmt::format("{:x}-{:x}", id.device, id.inode);
}

void forget_written(const std::filesystem::path& state, int fd, const std::string& path) {
  struct stat st {};
  if (fstat(fd, &st) != 0) throw_errno(fmt::format("fstat({})", path));
  remove_manifest(manifest_path(state, identity_of(st)));
}

void record_written(const std::filesystem::path& state, int fd, const std::string& path, std::uint64_t seed,
                    std::uint64_t begin, std::uint64_t end, std::uint64_t io_bytes) {
  struct stat st {};
  if (fstat(fd, &st) != 0) throw_errno(fmt::format("fstat({})", path));
  make_private_directory(state);
  const auto dir = records_of(state);
  make_private_directory(dir);
  Manifest m;
  m.path = record_name(path);
  m.identity = identity_of(st);
  m.seed = seed;
  m.begin = begin;
  m.end = end;
  m.io_bytes = io_bytes;
  write_manifest(manifest_path(state, m.identity), m);
}

// Records of files gone from their names (removed, or replaced by another file) are never read again.
void prune_written_records(const std::filesystem::path& state) {
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(records_of(state), ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const auto& p = it->path();
    if (p.filename().string().find(".tmp") != std::string::npos) continue;
    try {
      const Manifest m = read_manifest(p);
      struct stat st {};
      if (stat(m.path.c_str(), &st) == 0 && manifest_path(state, identity_of(st)) == p) continue;
    } catch (const std::exception&) {
      // Unreadable or damaged: of no use to any verify.
    }
    unlink(p.c_str());
  }
}

void check_written(const std::filesystem::path& state, const std::string& path, std::uint64_t seed,
                   std::uint64_t begin, std::uint64_t end) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throw_errno(fmt::format("stat({})", path));
  const FileIdentity now = identity_of(st);
  const auto record = manifest_path(state, now);
  Manifest m;
  try {
    m = read_manifest(record);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format(
        "{}: no record of a complete write run ({}); the last write run failed, was interrupted or killed, or the "
        "file was not written by xferbench",
        path, e.what()));
  }
  // The same file (device, inode) under the same name. Its size and change time are not compared: a
  // byte changed in place is the verify's to find and locate, which it does better than a refusal.
  if (m.path != record_name(path)) {
    throw std::runtime_error(fmt::format("{}: the record {} is of {}, another name of the file; write it again under "
                                         "this name",
                                         path, record.string(), m.path));
  }
  if (m.seed != seed) {
    throw std::runtime_error(
        fmt::format("{}: written with pattern seed {}, this run expects {}", path, m.seed, seed));
  }
  if (m.begin > begin || m.end < end) {
    throw std::runtime_error(fmt::format("{}: the last complete write run wrote bytes [{}, {}), this run reads [{}, {})",
                                         path, m.begin, m.end, begin, end));
  }
}

void write_manifest(const std::filesystem::path& path, const Manifest& m) {
  // Durable before the rename, the directory synced after: a crash leaves the old record or the new.
  AtomicFileWriter file(path, 0600);
  file.write(manifest_text(m));
  file.commit(true);
  sync_directory(directory_of(path));
}

void remove_manifest(const std::filesystem::path& path) {
  if (unlink(path.c_str()) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return;
    throw_errno(fmt::format("unlink({}) (the record of the last complete write run)", path.string()));
  }
  sync_directory(directory_of(path));
}

Manifest read_manifest(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw std::runtime_error(path.string() + " does not exist");
  UniqueFd fd{open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)};
  if (fd.get() < 0) throw std::runtime_error(fmt::format("{} cannot be read: {}", path.string(), std::strerror(errno)));
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd.get(), buf, sizeof buf);
    if (n < 0) throw std::runtime_error(fmt::format("{} cannot be read: {}", path.string(), std::strerror(errno)));
    if (n == 0 || text.size() > (1u << 16)) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  try {
    return parse_manifest(text);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{} is not a valid record: {}", path.string(), e.what()));
  }
}

}  // namespace xb
