#include "storage/manifest.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/unique_fd.hpp"

namespace xb {
namespace {

constexpr std::string_view kMagic = "xferbench-io-manifest 1";

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

}  // namespace

const ManifestFile* Manifest::find(std::string_view name) const {
  for (const auto& f : files) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string manifest_text(const Manifest& m) {
  std::string s = fmt::format("{}\nio_size {}\n", kMagic, m.io_bytes);
  for (const auto& f : m.files) s += fmt::format("file {} {} {}\n", f.seed, f.bytes, f.name);
  s += "end\n";
  return s;
}

Manifest parse_manifest(std::string_view text) {
  Manifest m;
  int line_no = 0;
  bool ended = false, sized = false;
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
    } else if (key == "io_size") {
      if (!parse_u64(rest, m.io_bytes)) throw bad(line, "expected 'io_size BYTES'");
      sized = true;
    } else if (key == "file") {
      ManifestFile f;
      if (!parse_u64(next_word(rest), f.seed) || !parse_u64(next_word(rest), f.bytes) || rest.empty()) {
        throw bad(line, "expected 'file SEED BYTES NAME'");
      }
      f.name = std::string(rest);
      m.files.push_back(std::move(f));
    } else {
      throw bad(line, "unknown item");
    }
  }
  if (line_no == 0) throw std::runtime_error("empty");
  if (!ended) throw std::runtime_error("no 'end' line (the record is cut short)");
  if (!sized) throw std::runtime_error("no 'io_size' line");
  return m;
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
    if (errno == ENOENT) return;
    throw_errno(fmt::format("unlink({}) (the record of the last complete write run)", path.string()));
  }
  sync_directory(directory_of(path));
}

Manifest read_manifest(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw std::runtime_error(path.string() + " does not exist");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{} cannot be read", path.string()));
  std::stringstream s;
  s << in.rdbuf();
  try {
    return parse_manifest(s.str());
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{} is not a valid record: {}", path.string(), e.what()));
  }
}

}  // namespace xb
