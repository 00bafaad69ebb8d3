#include "core/error.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace xb {

SystemError::SystemError(std::string_view context, int error_number)
    : std::runtime_error(fmt::format("{} failed: {}", context, std::strerror(error_number))),
      error_number_(error_number) {}

void throw_errno(std::string_view context) { throw SystemError(context, errno); }

}  // namespace xb
