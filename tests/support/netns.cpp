#include "support/netns.hpp"

#include <unistd.h>

#include <atomic>
#include <stdexcept>

#include "support/host_tools.hpp"

namespace xb::test {
namespace {

constexpr const char* kPrefix = "xbx";  // every namespace these tests make starts with it

}  // namespace

std::unique_ptr<NetnsPair> NetnsPair::create(std::string* why_not) {
  const auto fail = [&](std::string why) {
    if (why_not != nullptr) *why_not = std::move(why);
    return nullptr;
  };
  if (geteuid() != 0) return fail("needs root to create network namespaces (runs as root in CI)");
  const std::string ip = find_tool("ip");
  if (ip.empty()) return fail("the `ip` program (iproute2) is not installed");
  sweep_stale_netns(ip, kPrefix, 'n', 10);  // "xbx<pid>n…" of test processes that were killed

  static std::atomic<unsigned> counter{0};  // per process; the pid separates processes
  const unsigned k = counter.fetch_add(1);
  const std::string tag = std::to_string(getpid()) + "n" + std::to_string(k);
  std::unique_ptr<NetnsPair> pair(new NetnsPair());
  pair->ip_ = ip;
  // Each pair's subnet is its own (10.213.k.0/24); being inside the two namespaces only, it could
  // not clash with the host's networks anyway.
  const std::string subnet = "10.213." + std::to_string(k % 256) + ".";
  const std::string veth[2] = {"xv" + tag + "a", "xv" + tag + "b"};
  for (int side = 0; side < 2; ++side) {
    pair->names_[side] = kPrefix + tag + (side == 0 ? "a" : "b");
    pair->addresses_[side] = subnet + std::to_string(side + 1);
  }
  const auto step = [&](const std::vector<std::string>& args) {
    const ToolRun r = run_tool(ip, args);
    if (r.status != 0) throw std::runtime_error("ip " + args.front() + " … failed: " + r.output);
  };
  try {
    for (int side = 0; side < 2; ++side) {
      step({"netns", "add", pair->names_[side]});
      pair->made_[side] = true;
    }
    step({"link", "add", veth[0], "netns", pair->names_[0], "type", "veth", "peer", "name", veth[1], "netns",
          pair->names_[1]});
    for (int side = 0; side < 2; ++side) {
      step({"-n", pair->names_[side], "addr", "add", pair->addresses_[side] + "/24", "dev", veth[side]});
      step({"-n", pair->names_[side], "link", "set", veth[side], "up"});
      step({"-n", pair->names_[side], "link", "set", "lo", "up"});
    }
  } catch (const std::exception& e) {
    return fail(std::string("cannot make network namespaces here: ") + e.what());  // pair's destructor cleans up
  }
  return pair;
}

NetnsPair::~NetnsPair() {
  for (int side = 0; side < 2; ++side) {
    if (made_[side]) run_tool(ip_, {"netns", "del", names_[side]});
  }
}

std::vector<std::string> NetnsPair::args_to_run(int side, const std::vector<std::string>& command) const {
  std::vector<std::string> args{"netns", "exec", names_[side]};
  args.insert(args.end(), command.begin(), command.end());
  return args;
}

}  // namespace xb::test
