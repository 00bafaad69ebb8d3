#include "support/netns_bridge.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>

#include "support/host_tools.hpp"

namespace xb::test {
namespace {

// Namespaces share NetnsPair's prefix and shape ("xbx<pid>n…"), so either helper sweeps the other's
// leftovers. A link name has at most 15 characters: the bridge and the veth ends outside the
// namespaces carry the pid in hex.
constexpr const char* kNetnsPrefix = "xbx";
constexpr const char* kBridgePrefix = "xbb";

}  // namespace

std::unique_ptr<NetnsBridge> NetnsBridge::create(int hosts, std::string* why_not) {
  const auto fail = [&](std::string why) {
    if (why_not != nullptr) *why_not = std::move(why);
    return nullptr;
  };
  if (hosts < 2 || hosts > 250) throw std::invalid_argument(fmt::format("NetnsBridge: {} hosts", hosts));
  if (geteuid() != 0) return fail("needs root to create network namespaces (runs as root in CI)");
  const std::string ip = find_tool("ip");
  if (ip.empty()) return fail("the `ip` program (iproute2) is not installed");
  sweep_stale_netns(ip, kNetnsPrefix, 'n', 10);
  sweep_stale_links(ip, kBridgePrefix, 'k', 16);

  static std::atomic<unsigned> counter{0};  // per process; the pid separates processes
  const unsigned k = counter.fetch_add(1);
  std::unique_ptr<NetnsBridge> b(new NetnsBridge());
  b->ip_ = ip;
  b->bridge_ = fmt::format("{}{:x}k{:x}", kBridgePrefix, getpid(), k % 256);
  // Inside the namespaces only: it cannot clash with the machine's own networks.
  b->subnet_ = fmt::format("10.214.{}.0/24", k % 256);
  const auto step = [&](const std::vector<std::string>& args) {
    const ToolRun r = run_tool(ip, args);
    if (r.status != 0) throw std::runtime_error("ip " + args.front() + " " + args.at(1) + " … failed: " + r.output);
  };
  try {
    step({"link", "add", b->bridge_, "type", "bridge"});
    b->bridge_made_ = true;
    // The bridge's own address (.254) lets this namespace reach the hosts: mpirun, started here,
    // and its daemons inside the hosts connect to each other through it.
    step({"addr", "add", fmt::format("10.214.{}.254/24", k % 256), "dev", b->bridge_});
    step({"link", "set", b->bridge_, "up"});
    for (int h = 0; h < hosts; ++h) {
      const std::string ns = fmt::format("{}{}n{}h{}", kNetnsPrefix, getpid(), k, h);
      const std::string outside = fmt::format("xbv{:x}k{:x}h{}", getpid(), k % 256, h);
      b->names_.push_back(ns);
      b->addresses_.push_back(fmt::format("10.214.{}.{}", k % 256, h + 1));
      b->made_.push_back(false);
      step({"netns", "add", ns});
      b->made_.back() = true;
      step({"link", "add", outside, "type", "veth", "peer", "name", b->device_, "netns", ns});
      step({"link", "set", outside, "master", b->bridge_});
      step({"link", "set", outside, "up"});
      step({"-n", ns, "addr", "add", b->addresses_.back() + "/24", "dev", b->device_});
      step({"-n", ns, "link", "set", b->device_, "up"});
      step({"-n", ns, "link", "set", "lo", "up"});
    }
  } catch (const std::exception& e) {
    return fail(std::string("cannot make network namespaces on a bridge here: ") + e.what());  // b cleans up
  }
  return b;
}

NetnsBridge::~NetnsBridge() {
  for (std::size_t h = 0; h < names_.size(); ++h) {
    if (made_[h]) run_tool(ip_, {"netns", "del", names_[h]});  // takes the host's veth pair with it
  }
  if (bridge_made_) run_tool(ip_, {"link", "del", bridge_});
}

void NetnsBridge::run_in(int host, const std::vector<std::string>& command) const {
  std::vector<std::string> args{"netns", "exec", name(host)};
  args.insert(args.end(), command.begin(), command.end());
  const ToolRun r = run_tool(ip_, args);
  if (r.status != 0) {
    std::string text;
    for (const auto& c : command) text += (text.empty() ? "" : " ") + c;
    throw std::runtime_error(fmt::format("in {}: {} failed: {}", name(host), text, r.output));
  }
}

}  // namespace xb::test
