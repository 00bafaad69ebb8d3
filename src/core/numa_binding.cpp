#include "core/numa_binding.hpp"

#include <fmt/format.h>
#include <linux/mempolicy.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "core/first_line.hpp"

namespace xb {
namespace {

constexpr unsigned long kMaxNodes = 1024;  // the nodemask's bits
constexpr std::size_t kMaskWords = kMaxNodes / (8 * sizeof(unsigned long));

int to_int(std::string_view s, const std::string& text) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 0) {
    throw std::runtime_error(fmt::format("'{}' is not a CPU or node list", text));
  }
  return v;
}

}  // namespace

std::vector<int> parse_cpu_list(const std::string& text) {
  std::vector<int> out;
  std::string_view rest = text;
  while (!rest.empty() && (rest.back() == '\n' || rest.back() == ' ')) rest.remove_suffix(1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const auto dash = item.find('-');
    const int first = to_int(item.substr(0, dash), text);
    const int last = dash == std::string_view::npos ? first : to_int(item.substr(dash + 1), text);
    if (last < first || last - first > 65536) throw std::runtime_error(fmt::format("'{}' is not a CPU or node list", text));
    for (int c = first; c <= last; ++c) out.push_back(c);
  }
  return out;
}

std::vector<int> online_numa_nodes() {
  const std::string online = read_first_line("/sys/devices/system/node/online");
  if (online.empty()) return {0};
  return parse_cpu_list(online);
}

std::vector<int> numa_node_cpus(int node) {
  return parse_cpu_list(read_first_line(fmt::format("/sys/devices/system/node/node{}/cpulist", node)));
}

NumaBinding::NumaBinding(int node) : nodemask_(kMaskWords, 0) {
  if (node < 0 || static_cast<unsigned long>(node) >= kMaxNodes) {
    throw std::runtime_error(fmt::format("NUMA node {}: out of range", node));
  }
  if (sched_getaffinity(0, sizeof affinity_, &affinity_) != 0) {
    throw std::runtime_error(fmt::format("sched_getaffinity: {}", std::strerror(errno)));
  }
  const auto cpus = numa_node_cpus(node);
  if (!cpus.empty()) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus) {
      if (c < CPU_SETSIZE) CPU_SET(c, &set);
    }
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
      throw std::runtime_error(fmt::format("sched_setaffinity to the CPUs of NUMA node {}: {}", node, std::strerror(errno)));
    }
  }
  // The policy as it was, to put back; then memory from this node only.
  if (syscall(SYS_get_mempolicy, &policy_, nodemask_.data(), kMaxNodes, nullptr, 0UL) != 0) {
    const int err = errno;
    sched_setaffinity(0, sizeof affinity_, &affinity_);
    throw std::runtime_error(fmt::format("get_mempolicy: {}", std::strerror(err)));
  }
  std::vector<unsigned long> mask(kMaskWords, 0);
  mask[static_cast<std::size_t>(node) / (8 * sizeof(unsigned long))] |= 1UL << (node % (8 * sizeof(unsigned long)));
  if (syscall(SYS_set_mempolicy, MPOL_BIND, mask.data(), kMaxNodes) != 0) {
    const int err = errno;
    sched_setaffinity(0, sizeof affinity_, &affinity_);
    throw std::runtime_error(fmt::format("set_mempolicy(MPOL_BIND, node {}): {}", node, std::strerror(err)));
  }
  memory_bound_ = true;
}

NumaBinding::~NumaBinding() {
  if (memory_bound_) {
    const bool has_nodes = policy_ != MPOL_DEFAULT;
    syscall(SYS_set_mempolicy, policy_, has_nodes ? nodemask_.data() : nullptr, has_nodes ? kMaxNodes : 0UL);
  }
  sched_setaffinity(0, sizeof affinity_, &affinity_);
}

}  // namespace xb
