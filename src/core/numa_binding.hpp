#pragma once
// Binding the calling thread, and so every thread it then starts, to one NUMA node: its CPUs
// (sched_setaffinity) and its memory (set_mempolicy MPOL_BIND), so the buffers it allocates and
// first touches, and the IO threads it starts (which inherit both), live on that node (gdsio's -n).
// Raw system calls rather than libnuma: two calls and a sysfs list are all that is needed.
#include <sched.h>

#include <cstdint>
#include <string>
#include <vector>

namespace xb {

// The NUMA nodes this machine has online (/sys/devices/system/node/online; "0" where the kernel
// has no NUMA support, every machine being one node then).
std::vector<int> online_numa_nodes();
// "0-3,8-11" (the sysfs list format) -> {0, 1, 2, 3, 8, 9, 10, 11}; std::runtime_error if malformed.
std::vector<int> parse_cpu_list(const std::string& text);
// The CPUs of a node (its cpulist); empty for a memory-only node.
std::vector<int> numa_node_cpus(int node);

class NumaBinding {
 public:
  // Binds the calling thread to `node`: throws std::runtime_error naming the node and the call.
  explicit NumaBinding(int node);
  ~NumaBinding();  // the thread's affinity and memory policy as they were
  NumaBinding(const NumaBinding&) = delete;
  NumaBinding& operator=(const NumaBinding&) = delete;

 private:
  cpu_set_t affinity_{};
  int policy_ = 0;
  std::vector<unsigned long> nodemask_;
  bool memory_bound_ = false;
};

}  // namespace xb
