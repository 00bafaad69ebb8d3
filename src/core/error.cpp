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

}  // namespace xb
