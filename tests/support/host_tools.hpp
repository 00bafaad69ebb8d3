#pragma once
// Running the host's network tools (ip, tc) from tests, output captured: what the namespace
// helpers (netns.hpp, netns_bridge.hpp) are made of.
#include <string>
#include <vector>

namespace xb::test {

struct ToolRun {
  int status = -1;     // exit status, -1 when it could not run or was killed
  std::string output;  // stdout and stderr together: the message of a failure
};

// Runs `program` (a path) with `args` and waits for it.
ToolRun run_tool(const std::string& program, const std::vector<std::string>& args);

// The path of a system program ("ip", "tc") in the sbin/bin directories, "" when none.
std::string find_tool(const std::string& name);

// Deletes what tests named with `prefix` followed by a pid left behind when their process was
// killed before its destructors ran: network namespaces (/run/netns) and links in this namespace
// (/sys/class/net). The pid is the decimal or hex digits after the prefix, up to `end_mark`.
void sweep_stale_netns(const std::string& ip, const std::string& prefix, char end_mark, int base);
void sweep_stale_links(const std::string& ip, const std::string& prefix, char end_mark, int base);

}  // namespace xb::test
