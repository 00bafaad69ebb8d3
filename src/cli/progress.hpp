#pragma once
// Progress on a terminal: one line on stderr ("survey: [3/9] storage randread 4K… 2 s"), redrawn
// in place while a step runs and erased when it ends (a job's ProgressStep, also when it throws), so
// the terminal keeps the command's real output only. Off (no line, no thread) when stderr is not a
// terminal, with --quiet and in JSON mode: the caller says so through `enabled`. One per command run.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/progress_line.hpp"

namespace xb {

// The share of a step's known work done and the time left at the pace so far: of the bytes it
// said it would move (the time left assumes the pace holds), else of the seconds it said it runs.
// None before anything moved, when the work is not known, or once it is all done (the step ends).
struct DoneAndLeft {
  long long percent = 0;       // whole per cent done, rounded down
  long long seconds_left = 0;  // rounded up, at most a billion
};
std::optional<DoneAndLeft> done_and_left(std::uint64_t expected_bytes, std::uint64_t moved, double expected_seconds,
                                         double ran_seconds);

class Progress final : public ProgressLine {
 public:
  // The line goes to `fd`; `enabled` false makes every call a no-op. A step's line appears only once
  // it has run `show_after` (0: at once), so quick runs stay quiet.
  Progress(int fd, bool enabled, std::chrono::milliseconds show_after = std::chrono::milliseconds(0));
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // While a step runs, a ticker thread redraws "<text> N s" every half second; end() erases it.
  void begin(std::string text) override;
  void end() override;
  // Bytes the step moved: the line shows the rate over the last tick ("…  3 s, 1.24 GB/s").
  void moved(std::uint64_t bytes) override { moved_.fetch_add(bytes, std::memory_order_relaxed); }
  bool shows_rate() const override { return enabled_; }
  // The running step's whole work (reset by begin): the line adds "N% done, about T s left".
  void expect_bytes(std::uint64_t bytes) override;
  void expect_seconds(double seconds) override;
  // The line erased for good: later steps draw nothing (a partial result is being printed: the
  // ticker must not draw into it). Safe from any thread.
  void silence();

  static bool is_terminal(int fd);  // isatty

 private:
  void tick_loop();
  void draw_locked();
  void append_done_locked(double ran_seconds);
  void erase_locked();

  int fd_;
  bool enabled_;
  std::chrono::milliseconds show_after_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string text_;  // the running step's text; empty when none runs
  std::string line_;  // the line being drawn, reserved by begin() so the ticker never allocates
  std::chrono::steady_clock::time_point started_;
  bool drawn_ = false;
  bool stop_ = false;
  bool silenced_ = false;
  std::atomic<std::uint64_t> moved_{0};  // bytes the running step moved (reset by begin)
  std::uint64_t moved_at_tick_ = 0;      // moved_ at the previous tick
  std::chrono::steady_clock::time_point tick_at_;
  double rate_ = 0;                      // bytes per second over the last tick; 0: none yet
  std::uint64_t expected_bytes_ = 0;     // the step's whole work in bytes; 0: not known
  double expected_seconds_ = 0;          // or in seconds (a run bounded by time); 0: not known
  bool ticking_ = false;  // the ticker thread has started and holds no allocation in progress
  std::condition_variable ticking_cv_;
  std::thread ticker_;
};

}  // namespace xb
