// core/numa_binding: the sysfs list format, the nodes this machine has, and a binding that puts the
// thread's CPUs and memory policy back when it ends.
#include "core/numa_binding.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <thread>

namespace xb {
namespace {

TEST(NumaBinding, ParsesTheSysfsListFormat) {
  EXPECT_EQ(parse_cpu_list("0-3,8-9,12\n"), (std::vector<int>{0, 1, 2, 3, 8, 9, 12}));
  EXPECT_EQ(parse_cpu_list("5"), (std::vector<int>{5}));
  EXPECT_TRUE(parse_cpu_list("").empty());  // a memory-only node has no CPUs
  EXPECT_THROW(parse_cpu_list("3-1"), std::runtime_error);
  EXPECT_THROW(parse_cpu_list("a"), std::runtime_error);
  EXPECT_THROW(parse_cpu_list("1,,2"), std::runtime_error);
}

TEST(NumaBinding, BindsToTheNodesCpusAndPutsTheThreadBack) {
  const auto nodes = online_numa_nodes();
  ASSERT_FALSE(nodes.empty());
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  {
    NumaBinding bind(nodes.front());
    cpu_set_t now;
    ASSERT_EQ(sched_getaffinity(0, sizeof now, &now), 0);
    const auto cpus = numa_node_cpus(nodes.front());
    EXPECT_EQ(CPU_COUNT(&now), static_cast<int>(cpus.size()));
    for (int c : cpus) EXPECT_TRUE(CPU_ISSET(c, &now)) << c;
    // A thread started now inherits the binding (how the io job's threads get it).
    int inherited = 0;
    std::thread([&] {
      cpu_set_t t;
      sched_getaffinity(0, sizeof t, &t);
      inherited = CPU_COUNT(&t);
    }).join();
    EXPECT_EQ(inherited, static_cast<int>(cpus.size()));
  }
  cpu_set_t after;
  ASSERT_EQ(sched_getaffinity(0, sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
  EXPECT_THROW(NumaBinding(-1), std::runtime_error);
}

}  // namespace
}  // namespace xb
