#include "report/result_files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/error.hpp"
#include "core/unique_fd.hpp"

namespace xb {
namespace {

// nlohmann's messages start with "[json.exception.parse_error.101] "; the tag says nothing to a user.
std::string without_json_tag(std::string_view what) {
  if (what.starts_with("[json.exception.")) {
    const auto end = what.find("] ");
    if (end != std::string_view::npos) what.remove_prefix(end + 2);
  }
  return std::string(what);
}

std::string read_whole_file(const std::string& path) {
  const auto fail = [&](int err) {
    return UsageError(fmt::format("results file {}: cannot read it: {}", path, std::strerror(err)));
  };
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) throw fail(errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw fail(errno);
  if (S_ISDIR(st.st_mode)) throw UsageError(fmt::format("results file {}: is a directory", path));
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw fail(errno);
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace

LoadedResult load_result_file(const std::string& path) {
  const std::string text = read_whole_file(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(fmt::format("results file {}: not JSON ({})", path, without_json_tag(e.what())));
  }
  try {
    return {path, result_from_json(j)};
  } catch (const nlohmann::json::exception& e) {
    // A result document with a field missing or of the wrong type (cut by hand, another version).
    throw UsageError(fmt::format("results file {}: malformed result document: {}", path, without_json_tag(e.what())));
  } catch (const std::runtime_error& e) {
    // result_from_json's own words: another schema, an unknown schema version, an unknown status.
    throw UsageError(fmt::format("results file {}: {}", path, e.what()));
  }
}

}  // namespace xb
