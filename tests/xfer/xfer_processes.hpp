#pragma once
// Starting xfer servers and clients as real processes, on loopback or inside a namespace of a
// NetnsPair, and learning the server's bound addresses from its --ready-file (it listens on port
// 0, so parallel tests never collide on a port).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "run_binary.hpp"
#include "support/netns.hpp"
#include "system_state.hpp"

namespace xb::test {

// Where a process runs: this namespace (ns == nullptr) or side `side` of a pair.
struct Place {
  const NetnsPair* ns = nullptr;
  int side = 0;
};

xbtest::Process start_in(const Place& where, const std::vector<std::string>& command);
xbtest::RunResult run_in(const Place& where, const std::vector<std::string>& command);

struct StartedServer {
  xbtest::Process process;
  std::string control;  // "127.0.0.1:41234"
  std::string data;
};

// `xferbench xfer server --listen HOST:0 --ready-file DIR/ready ARGS…`, returned once the ready file
// names its addresses. Fails the test (ADD_FAILURE + throw) when the server ends first.
StartedServer start_xfer_server(const Place& where, const std::string& host, const std::filesystem::path& dir,
                                const std::vector<std::string>& args);

// A free port on 127.0.0.1: system_state's.
using xbtest::free_tcp_port;

// A whole run's stderr as one line, or a note saying it is more than one.
bool is_one_line(const std::string& text);

}  // namespace xb::test
