#include "cli/progress.hpp"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <algorithm>
#include <cmath>

namespace xb {
namespace {

constexpr auto kTick = std::chrono::milliseconds(500);
constexpr const char* kEraseLine = "\r\033[K";
// Room in a drawn line beyond the step's text: the erase sequence, " N s", the rate and the share done.
constexpr std::size_t kLineExtra = 96;

// write(2) straight to the descriptor: the line must not mix into buffered stream output, and a
// short write or EINTR on a terminal is retried.
void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // progress is best effort: a closed terminal must not fail the run
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

bool Progress::is_terminal(int fd) { return ::isatty(fd) == 1; }

Progress::Progress(int fd, bool enabled, std::chrono::milliseconds show_after)
    : fd_(fd), enabled_(enabled), show_after_(show_after) {
  if (!enabled_) return;
  ticker_ = std::thread([this] { tick_loop(); });
  // Back only once the ticker is waiting: a thread still starting allocates (ASan's thread setup
  // does), and a job may fork the moment this returns (see draw_locked).
  std::unique_lock lock(mutex_);
  ticking_cv_.wait(lock, [this] { return ticking_; });
}

Progress::~Progress() {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    erase_locked();
  }
  wake_.notify_all();
  ticker_.join();
}

void Progress::begin(std::string text) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  if (silenced_) return;
  erase_locked();
  text_ = std::move(text);
  line_.reserve(text_.size() + kLineExtra);
  started_ = std::chrono::steady_clock::now();
  moved_.store(0, std::memory_order_relaxed);
  moved_at_tick_ = 0;
  tick_at_ = started_;
  rate_ = 0;
  expected_bytes_ = 0;
  expected_seconds_ = 0;
  draw_locked();  // the ticker redraws it from its next tick on
}

void Progress::expect_bytes(std::uint64_t bytes) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  expected_bytes_ = bytes;
}

void Progress::expect_seconds(double seconds) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  expected_seconds_ = seconds > 0 ? seconds : 0;
}

void Progress::end() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  erase_locked();
  text_.clear();
}

void Progress::silence() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  erase_locked();
  text_.clear();
  silenced_ = true;
}

void Progress::tick_loop() {
  std::unique_lock lock(mutex_);
  ticking_ = true;
  ticking_cv_.notify_all();
  while (!stop_) {
    wake_.wait_for(lock, kTick);
    if (stop_) break;
    // The rate over the time since the last tick: what the step moves now, not its average.
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - tick_at_).count();
    const std::uint64_t moved = moved_.load(std::memory_order_relaxed);
    if (seconds > 0.05 && !text_.empty()) {
      rate_ = static_cast<double>(moved - moved_at_tick_) / seconds;
      moved_at_tick_ = moved;
      tick_at_ = now;
    }
    draw_locked();
  }
}

// The ticker never allocates (the line is built in `line_`, reserved by begin()), and the constructor
// returns only once it runs: jobs fork device processes meanwhile, and a fork taken while another
// thread holds the allocator's lock leaves the child's allocator locked for good. glibc's malloc
// guards against that, ASan's (GCC 12) does not: a copy under a terminal hung so in its first device
// process (its stream threads blocked in their first free).
void Progress::draw_locked() {
  if (text_.empty()) return;
  const auto ran = std::chrono::steady_clock::now() - started_;
  if (ran < show_after_) return;
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(ran).count();
  line_.clear();
  line_.append(kEraseLine).append(text_);
  if (seconds > 0) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, seconds).ptr;
    line_.append(" ").append(digits, end).append(" s");
  }
  if (rate_ > 0) {
    // Decimal units, as fio's line and the tables' GB/s (no allocation: a fixed buffer).
    const char* unit = rate_ >= 1e9 ? " GB/s" : rate_ >= 1e6 ? " MB/s" : rate_ >= 1e3 ? " KB/s" : " B/s";
    const double scaled = rate_ >= 1e9 ? rate_ / 1e9 : rate_ >= 1e6 ? rate_ / 1e6 : rate_ >= 1e3 ? rate_ / 1e3 : rate_;
    char digits[32];
    const auto end = std::to_chars(digits, digits + sizeof digits, scaled, std::chars_format::fixed, 2).ptr;
    line_.append(", ").append(digits, end).append(unit);
  }
  append_done_locked(std::chrono::duration<double>(ran).count());
  write_all(fd_, line_);
  drawn_ = true;
}

std::optional<DoneAndLeft> done_and_left(std::uint64_t expected_bytes, std::uint64_t moved, double expected_seconds,
                                         double ran_seconds) {
  double share = 0;
  double left = 0;
  if (expected_bytes > 0) {
    if (moved == 0 || ran_seconds <= 0) return std::nullopt;
    share = static_cast<double>(moved) / static_cast<double>(expected_bytes);
    left = share < 1 ? ran_seconds * (1 - share) / share : 0;
  } else if (expected_seconds > 0) {
    share = ran_seconds / expected_seconds;
    left = expected_seconds - ran_seconds;
  } else {
    return std::nullopt;
  }
  if (share >= 1) return std::nullopt;
  // Bounded before the conversion: a pace of one byte in an hour would overflow it.
  return DoneAndLeft{static_cast<long long>(share * 100), static_cast<long long>(std::ceil(std::min(left, 1e9)))};
}

void Progress::append_done_locked(double ran_seconds) {
  const auto d = done_and_left(expected_bytes_, moved_.load(std::memory_order_relaxed), expected_seconds_, ran_seconds);
  if (!d) return;
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, d->percent).ptr;
  line_.append(", ").append(digits, end).append("% done, about ");
  end = std::to_chars(digits, digits + sizeof digits, d->seconds_left).ptr;
  line_.append(digits, end).append(" s left");
}

void Progress::erase_locked() {
  if (!drawn_) return;
  write_all(fd_, kEraseLine);
  drawn_ = false;
}

}  // namespace xb
