// A question answered by a forked child (src/backends/child_answer.hpp), which the device probes
// use so the parent never initialises a device runtime: the answer arrives whole, and a child that
// dies, fails or hangs is named with the reason instead of hanging or crashing the parent.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "backends/child_answer.hpp"

namespace xb {
namespace {

TEST(ChildAnswer, AnAnswerLargerThanAPipeArrivesWhole) {
  const std::string big(200000, 'x');
  const ChildAnswer a = answer_from_child([&] { return big + "end"; }, "the test probe", 10000);
  ASSERT_TRUE(a.ok) << a.text;
  EXPECT_EQ(a.text.size(), big.size() + 3);
  EXPECT_EQ(a.text.substr(a.text.size() - 3), "end");
}

TEST(ChildAnswer, TheAnswerComesFromAnotherProcess) {
  const pid_t parent = ::getpid();
  const ChildAnswer a = answer_from_child([] { return std::to_string(::getpid()); }, "the test probe", 10000);
  ASSERT_TRUE(a.ok) << a.text;
  EXPECT_NE(a.text, std::to_string(parent));
}

TEST(ChildAnswer, AChildKilledByASignalIsNamedWithTheSignal) {
  const ChildAnswer a = answer_from_child(
      [] {
        // SIGKILL: no handler can catch it (AddressSanitizer's turns a SIGSEGV into exit 1).
        ::raise(SIGKILL);
        return std::string("never");
      },
      "the test probe", 10000);
  EXPECT_FALSE(a.ok);
  EXPECT_EQ(a.text, "the test probe process died of signal 9");
}

TEST(ChildAnswer, AChildThatThrowsIsAFailedExit) {
  const ChildAnswer a = answer_from_child([]() -> std::string { throw std::runtime_error("no"); }, "the test probe", 10000);
  EXPECT_FALSE(a.ok);
  EXPECT_EQ(a.text, "the test probe process failed (exit status 2)");
}

TEST(ChildAnswer, AHangingChildIsKilledAtTheDeadline) {
  const auto start = std::chrono::steady_clock::now();
  const ChildAnswer a = answer_from_child(
      [] {
        std::this_thread::sleep_for(std::chrono::seconds(30));
        return std::string("late");
      },
      "the test probe", 200);
  EXPECT_FALSE(a.ok);
  EXPECT_EQ(a.text, "the test probe did not answer within 200 ms");
  // Killed, not waited for: far less than the child's 30 s (no timing asserted beyond that).
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

}  // namespace
}  // namespace xb
