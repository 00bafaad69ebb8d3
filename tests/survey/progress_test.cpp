// The progress facility on a pipe (what it writes, and that it writes nothing when off or before
// its delay), without a terminal; survey_pty_test.cpp checks it on a real one.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <regex>
#include <string>
#include <thread>
#include <utility>

#include "cli/job_progress.hpp"
#include "cli/progress.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;

// Both ends of a pipe, closed at the end; drain() reads what was written so far.
struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    EXPECT_EQ(pipe2(fd, O_NONBLOCK), 0);
  }
  ~Pipe() {
    close(fd[0]);
    close(fd[1]);
  }
  std::string drain() const {
    std::string s;
    char buf[4096];
    for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) > 0;) s.append(buf, static_cast<std::size_t>(n));
    return s;
  }
};

TEST(Progress, DrawsTheStepAndErasesItAfterwards) {
  Pipe p;
  {
    Progress progress(p.fd[1], true);
    {
      ProgressStep step(&progress, "survey: [1/2] storage write…");
      // Drawn at once (a tick may already have redrawn it: the same line again).
      const std::string drawn = p.drain();
      ASSERT_EQ(drawn.rfind("\r\033[Ksurvey: [1/2] storage write…", 0), 0u) << drawn;
      for (std::size_t at = 0; at < drawn.size(); at += std::strlen("\r\033[Ksurvey: [1/2] storage write…")) {
        EXPECT_EQ(drawn.compare(at, std::strlen("\r\033[Ksurvey: [1/2] storage write…"), "\r\033[Ksurvey: [1/2] storage write…"), 0)
            << drawn;
      }
    }
    // The line is gone once the step ends (after any redraw a tick made since the drain above).
    const std::string after = p.drain();
    ASSERT_GE(after.size(), 4u);
    EXPECT_EQ(after.substr(after.size() - 4), "\r\033[K") << after;
    const std::string line = "\r\033[Ksurvey: [1/2] storage write…";
    for (std::size_t at = 0; at + 4 < after.size(); at += line.size()) {
      EXPECT_EQ(after.compare(at, line.size(), line), 0) << after;  // only redraws of the same line
    }
    {
      ProgressStep step(&progress, "survey: [2/2] p2p…");
      // Ticks every half second; a loaded machine may starve the ticker, so wait for the first
      // line that shows the seconds the step has run rather than for a fixed time.
      std::string text;
      const auto deadline = std::chrono::steady_clock::now() + 30s;
      while (text.find(" s") == std::string::npos && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(100ms);
        text += p.drain();
      }
      const auto seconds = text.find("\r\033[Ksurvey: [2/2] p2p… ");
      ASSERT_NE(seconds, std::string::npos) << text;
      const std::string shown = text.substr(seconds + std::strlen("\r\033[Ksurvey: [2/2] p2p… "));
      EXPECT_TRUE(!shown.empty() && shown[0] >= '1' && shown[0] <= '9') << text;  // whole seconds, at least 1
    }
    const std::string text = p.drain();
    ASSERT_GE(text.size(), 4u);
    EXPECT_EQ(text.substr(text.size() - 4), "\r\033[K");
  }
  EXPECT_EQ(p.drain(), "");
}

// The share done and the time left (issue 18 item 7, fio's eta): of the bytes the job said it
// will move, at the pace so far; of the seconds of a run bounded by time; nothing once the work is
// all done, nor for a step that said nothing of its work.
TEST(Progress, ShowsTheShareDoneAndTheTimeLeft) {
  Pipe p;
  Progress progress(p.fd[1], true);
  const auto tick_text = [&](const std::function<bool(const std::string&)>& enough) {
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (!enough(text) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(100ms);
      text += p.drain();
    }
    return text;
  };
  {
    ProgressStep step(&progress, "copy: bytes…");
    step.expect_bytes(4'000'000'000);
    progress.moved(1'000'000'000);  // a quarter of the work
    const std::string text = tick_text([](const std::string& t) { return t.find("% done") != std::string::npos; });
    EXPECT_NE(text.find(", 25% done, about "), std::string::npos) << text;
    EXPECT_NE(text.find(" s left"), std::string::npos) << text;
  }
  {
    ProgressStep step(&progress, "io: seconds…");
    step.expect_seconds(600);
    const std::string text = tick_text([](const std::string& t) { return t.find("% done") != std::string::npos; });
    // Under a second or two of 600 run (a loaded machine may tick late): 0% done, 598-600 s left.
    EXPECT_TRUE(std::regex_search(text, std::regex("io: seconds…( [12] s)?, 0% done, about (600|599|598) s left")))
        << text;
  }
  {
    ProgressStep step(&progress, "kv: all done…");
    step.expect_bytes(1000);
    progress.moved(1000);
    const std::string text = tick_text([](const std::string& t) { return t.find("B/s") != std::string::npos; });
    EXPECT_NE(text.find("kv: all done…"), std::string::npos) << text;
    EXPECT_EQ(text.find("% done"), std::string::npos) << text;
  }
  {
    ProgressStep step(&progress, "link: unknown work…");
    progress.moved(1000);
    const std::string text = tick_text([](const std::string& t) { return t.find("B/s") != std::string::npos; });
    EXPECT_NE(text.find("link: unknown work…"), std::string::npos) << text;
    EXPECT_EQ(text.find("% done"), std::string::npos) << text;
  }
}

// The figures behind the line, exactly: a share of bytes at the pace so far, a share of seconds,
// nothing without known work, before anything moved or once all is done, and a bound on the time left.
TEST(Progress, DoneAndLeftIsTheShareAndThePace) {
  auto d = done_and_left(4000, 1000, 0, 3.0);  // a quarter in 3 s: 9 s more
  ASSERT_TRUE(d);
  EXPECT_EQ(d->percent, 25);
  EXPECT_EQ(d->seconds_left, 9);
  d = done_and_left(4000, 2000, 0, 1.5);  // half in 1.5 s: 1.5 s more, rounded up
  ASSERT_TRUE(d);
  EXPECT_EQ(d->percent, 50);
  EXPECT_EQ(d->seconds_left, 2);
  d = done_and_left(3000, 1000, 0, 1.0);  // a third: per cent rounded down
  ASSERT_TRUE(d);
  EXPECT_EQ(d->percent, 33);
  d = done_and_left(0, 0, 60, 15.5);  // seconds: a quarter of a minute run, 44.5 s left, rounded up
  ASSERT_TRUE(d);
  EXPECT_EQ(d->percent, 25);
  EXPECT_EQ(d->seconds_left, 45);
  d = done_and_left(std::uint64_t{1} << 62, 1, 0, 3600);  // a byte an hour: bounded, not overflowed
  ASSERT_TRUE(d);
  EXPECT_EQ(d->percent, 0);
  EXPECT_EQ(d->seconds_left, 1'000'000'000);
  EXPECT_FALSE(done_and_left(0, 500, 0, 2));      // work not known
  EXPECT_FALSE(done_and_left(1000, 0, 0, 2));     // nothing moved yet
  EXPECT_FALSE(done_and_left(1000, 1000, 0, 2));  // all done
  EXPECT_FALSE(done_and_left(0, 0, 10, 10));      // the seconds are up
}

// The live rate (issue 18 item 7): bytes moved while a step runs show as a rate after its
// seconds, in decimal units; a step that moves nothing shows none; silence() draws nothing more.
TEST(Progress, ShowsTheLiveRateOfWhatTheStepMoves) {
  Pipe p;
  Progress progress(p.fd[1], true);
  {
    ProgressStep step(&progress, "io: write…");
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    // 50 MB every 100 ms: about 500 MB/s, whatever the tick's exact length.
    while (text.find("MB/s") == std::string::npos && text.find("GB/s") == std::string::npos &&
           std::chrono::steady_clock::now() < deadline) {
      progress.moved(50'000'000);
      std::this_thread::sleep_for(100ms);
      text += p.drain();
    }
    const auto at = text.find("\r\033[Kio: write…");
    ASSERT_NE(at, std::string::npos) << text;
    const auto rate = text.find(", ", at);
    ASSERT_NE(rate, std::string::npos) << text;
    const double value = std::strtod(text.c_str() + rate + 2, nullptr);
    EXPECT_GT(value, 0.0) << text;
    EXPECT_TRUE(text.find(" MB/s") != std::string::npos || text.find(" GB/s") != std::string::npos) << text;
  }
  {
    ProgressStep step(&progress, "p2p: waiting…");  // moves nothing: no rate, and the last one is gone
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (text.find(" s") == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(100ms);
      text += p.drain();
    }
    const auto at = text.rfind("\r\033[Kp2p: waiting…");
    ASSERT_NE(at, std::string::npos) << text;
    EXPECT_EQ(text.find("B/s", at), std::string::npos) << text;
  }
  progress.silence();
  p.drain();
  {
    ProgressStep step(&progress, "copy: after silence…");
    std::this_thread::sleep_for(600ms);
    EXPECT_EQ(p.drain().find("copy: after silence"), std::string::npos);
  }
}

TEST(Progress, OffWritesNothing) {
  Pipe p;
  {
    Progress progress(p.fd[1], false);
    ProgressStep step(&progress, "never shown");
  }
  EXPECT_EQ(p.drain(), "");
}

TEST(Progress, AStepShorterThanTheDelayWritesNothing) {
  Pipe p;
  {
    Progress progress(p.fd[1], true, 2000ms);
    ProgressStep step(&progress, "io: read…");
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(p.drain(), "");
}

TEST(Progress, AStepThatThrowsStillErasesItsLine) {
  Pipe p;
  Progress progress(p.fd[1], true);
  try {
    ProgressStep step(&progress, "failing step");
    throw std::runtime_error("boom");
  } catch (const std::runtime_error&) {
  }
  const std::string text = p.drain();
  EXPECT_EQ(text.rfind("\r\033[Kfailing step", 0), 0u) << text;
  ASSERT_GE(text.size(), 4u);
  EXPECT_EQ(text.substr(text.size() - 4), "\r\033[K") << text;
}

TEST(Progress, APipeIsNotATerminal) {
  Pipe p;
  EXPECT_FALSE(Progress::is_terminal(p.fd[1]));
}

// The job commands' delay: two seconds unless XFERBENCH_PROGRESS_AFTER_MS says otherwise, and a
// value that is not a number of milliseconds up to an hour leaves the two seconds.
TEST(JobProgress, TheDelayIsTwoSecondsUnlessTheEnvironmentSetsIt) {
  constexpr const char* kName = "XFERBENCH_PROGRESS_AFTER_MS";
  ASSERT_EQ(std::getenv(kName), nullptr) << "the test needs the variable unset";
  EXPECT_EQ(job_progress_delay(), 2000ms);
  const std::pair<const char*, std::chrono::milliseconds> cases[] = {
      {"0", 0ms},      {"250", 250ms},   {"3600000", 3'600'000ms}, {"3600001", 2000ms},
      {"-1", 2000ms},  {"", 2000ms},     {"5s", 2000ms},           {"abc", 2000ms},
      {" 5", 2000ms},  {"99999999999999999999", 2000ms}};
  for (const auto& [value, expected] : cases) {
    ASSERT_EQ(setenv(kName, value, 1), 0);
    EXPECT_EQ(job_progress_delay(), expected) << "'" << value << "'";
  }
  ASSERT_EQ(unsetenv(kName), 0);
}

}  // namespace
}  // namespace xb
