#pragma once
// Where a job says what it is doing now, for a line a person watches (cli/progress.hpp draws it on
// a terminal's stderr). A job opens a step around each stretch of work: the whole run, or each
// step of a survey; the display decides whether, when and how anything shows. The job layer sees
// only this interface, so no job depends on how (or whether) progress is drawn.
#include <cstdint>
#include <string>
#include <utility>

namespace xb {

class ProgressLine {
 public:
  virtual ~ProgressLine() = default;
  // A step starts; `text` says what it does ("survey: [3/9] storage randread 4K…").
  virtual void begin(std::string text) = 0;
  // The running step ended (also when it threw).
  virtual void end() = 0;
  // Bytes the running step has moved, added as they move, from any of its threads: the line shows
  // the live rate (as fio's line does). One relaxed atomic add where drawn; nothing here.
  virtual void moved(std::uint64_t bytes) { (void)bytes; }
  // Whether moved() is drawn at all: a job passes nothing on otherwise (off a terminal, -q, json).
  virtual bool shows_rate() const { return false; }
  // What the running step will do in all, where the job knows it: the bytes it will move (moved()
  // counts them, warm-ups included) or the seconds it will run (a run bounded by time). The line
  // then says how much is done and the time left, as fio's does ("45% done, about 3 s left").
  virtual void expect_bytes(std::uint64_t bytes) { (void)bytes; }
  virtual void expect_seconds(double seconds) { (void)seconds; }
};

// One worker's bytes, passed on to a progress line in lumps (every 4 MiB, and the rest when it
// ends), so a timed loop pays a shared atomic add per lump rather than per IO, and nothing at all
// when no rate is drawn. Not shared between threads.
class MovedBytes {
 public:
  explicit MovedBytes(ProgressLine* line) : line_(line != nullptr && line->shows_rate() ? line : nullptr) {}
  ~MovedBytes() { flush(); }
  MovedBytes(const MovedBytes&) = delete;
  MovedBytes& operator=(const MovedBytes&) = delete;
  void add(std::uint64_t bytes) {
    if (line_ == nullptr) return;
    pending_ += bytes;
    if (pending_ >= kLump) flush();
  }
  void flush() {
    if (line_ != nullptr && pending_ > 0) line_->moved(pending_);
    pending_ = 0;
  }

 private:
  static constexpr std::uint64_t kLump = 4ull << 20;
  ProgressLine* line_;
  std::uint64_t pending_ = 0;
};

// One step while it lives: ended by its destructor, so a step that throws is ended too. A null
// line (nobody watches) makes it a no-op.
class ProgressStep {
 public:
  ProgressStep(ProgressLine* line, std::string text) : line_(line) {
    if (line_ != nullptr) line_->begin(std::move(text));
  }
  ~ProgressStep() {
    if (line_ != nullptr) line_->end();
  }
  ProgressStep(const ProgressStep&) = delete;
  ProgressStep& operator=(const ProgressStep&) = delete;
  // The step's whole work, passed to the line (nothing when nobody watches).
  void expect_bytes(std::uint64_t bytes) const {
    if (line_ != nullptr) line_->expect_bytes(bytes);
  }
  void expect_seconds(double seconds) const {
    if (line_ != nullptr) line_->expect_seconds(seconds);
  }

 private:
  ProgressLine* line_;
};

}  // namespace xb
