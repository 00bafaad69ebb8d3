#include "runtime/session_token.hpp"

#include "transport/auth.hpp"

namespace xb {

std::string shared_session_token(Runtime& runtime, const std::string& given) {
  const std::string drawn = runtime.broadcast(runtime.rank() == 0 && given.empty() ? random_token() : "", 0);
  return given.empty() ? drawn : given;
}

}  // namespace xb
