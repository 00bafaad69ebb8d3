#pragma once
// The session token of ranks that share a trusted channel (MPI, started by mpirun over its own
// launcher): so servers off loopback never run on the public built-in token.
#include <string>

#include "runtime/runtime.hpp"

namespace xb {

// `given` when the user gave one, else a fresh random token drawn by rank 0 and broadcast to every
// rank over the runtime. Every rank calls it (even with a token given, so none waits alone).
std::string shared_session_token(Runtime& runtime, const std::string& given);

}  // namespace xb
