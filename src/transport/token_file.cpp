#include "transport/token_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"
#include "core/unique_fd.hpp"
#include "transport/control_messages.hpp"

namespace xb {

std::string read_token_file(const std::string& path, std::string_view what) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) {
    const char* hint = errno == ELOOP ? " (a symbolic link: name the file itself)" : "";
    throw UsageError(fmt::format("{} {}: cannot open it: {}{}", what, path, std::strerror(errno), hint));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw UsageError(fmt::format("{} {}: fstat: {}", what, path, std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) throw UsageError(fmt::format("{} {}: not a regular file", what, path));
  if (st.st_uid != ::geteuid()) {
    throw UsageError(fmt::format("{} {}: owned by uid {}, not this user ({})", what, path, st.st_uid, ::geteuid()));
  }
  if ((st.st_mode & 077) != 0) {
    throw UsageError(fmt::format("{} {}: mode {:04o}, open to others (chmod 600 it)", what, path,
                                 static_cast<unsigned>(st.st_mode & 07777)));
  }
  std::string text(kMaxTokenBytes + 2, '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd.get(), text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError(fmt::format("{} {}: read: {}", what, path, std::strerror(errno)));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  if (const auto eol = text.find_first_of("\r\n"); eol != std::string::npos) text.resize(eol);
  if (text.empty()) throw UsageError(fmt::format("{} {}: empty (the token is the file's first line)", what, path));
  if (text.size() > kMaxTokenBytes) {
    throw UsageError(fmt::format("{} {}: a token of more than {} bytes", what, path, kMaxTokenBytes));
  }
  return text;
}

}  // namespace xb
