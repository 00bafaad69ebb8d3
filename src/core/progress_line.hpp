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
  // the live rate (issue 18 item 7, fio's line). One relaxed atomic add where drawn; nothing here.
  virtual void moved(std::uint64_t bytes) { (void)bytes; }
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

 private:
  ProgressLine* line_;
};

}  // namespace xb
