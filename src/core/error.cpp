#include "core/error.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace xb {

SystemError::SystemError(std::string_view context, int error_number)
    : std::runtime_error(fmt::format("{} failed: {}", context, std::strerror(error_number))),
      error_number_(error_number) {}

void throw_errno(std::string_view context) { throw SystemError(context, errno); }

std::string error_text(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    return ex.what();
  } catch (...) {
    return "unknown error";
  }
}

std::string printable_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;  // bytes >= 0x80 pass: UTF-8 in paths and names stays readable
    }
  }
  return out;
}

}  // namespace xb
