#pragma once
// Two "nodes" of a p2p run started by hand (xferbench p2p --ip/--hip, ascend-dmi --sp 0/1): two
// processes of the binary run at once, as an operator starts one node and then the other; and what
// ascend-dmi prints on both when they met.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "run_binary.hpp"

namespace xb::test {

struct TwoRuns {
  xbtest::RunResult first, second;
};

// Starts `program` with `first`, then with `second`, and waits for both. nullopt when either still
// runs after a minute: a hang (every start window here is far shorter), which fails the test.
inline std::optional<TwoRuns> run_two(const std::string& program, const std::vector<std::string>& first,
                                      const std::vector<std::string>& second) {
  auto a = xbtest::start_binary(program, first);
  auto b = xbtest::start_binary(program, second);
  auto ra = a.wait_for(std::chrono::seconds(60));
  auto rb = b.wait_for(std::chrono::seconds(60));
  if (!ra || !rb) return std::nullopt;
  return TwoRuns{*ra, *rb};
}

// ascend-dmi's two-node output on both nodes (`first` the --sp 1 node at `target`, `second` the
// --sp 0 node at `source`): both succeeded with the seed's two blocks, each naming its own address
// first, and the same rows (one measurement, printed on both nodes).
inline void expect_ascend_dmi_pair(const TwoRuns& r, const std::string& source, const std::string& target) {
  ASSERT_TRUE(r.second.exited && r.second.exit_code == 0) << r.second.describe();
  ASSERT_TRUE(r.first.exited && r.first.exit_code == 0) << r.first.describe();
  const auto s = xbtest::split_lines(r.second.out), t = xbtest::split_lines(r.first.out);
  ASSERT_EQ(s.size(), 16u) << r.second.out;
  ASSERT_EQ(t.size(), 16u) << r.first.out;
  for (const auto* lines : {&s, &t}) {
    EXPECT_EQ((*lines)[0], "Unidirectional Peer to Peer Test");
    EXPECT_EQ((*lines)[8], "Bidirectional Peer to Peer Test");
  }
  EXPECT_EQ(s[1], "Pod: " + source + " device id: 0 to Pod: " + target + " device id: 0");
  EXPECT_EQ(t[1], "Pod: " + target + " device id: 0 to Pod: " + source + " device id: 0");
  EXPECT_EQ(s[9], "Pod: " + source + " device id: 0 and Pod: " + target + " device id: 0");
  EXPECT_EQ(t[9], "Pod: " + target + " device id: 0 and Pod: " + source + " device id: 0");
  EXPECT_EQ(s[5], t[5]);
  EXPECT_EQ(s[13], t[13]);
}

}  // namespace xb::test
