#include "cli/partial_results.hpp"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <fmt/format.h>

#include <ostream>

#include "core/cleanup.hpp"

namespace xb {

PartialRun::PartialRun(ResultDocument blank, Deliver deliver, std::ostream& out, std::ostream& err, bool quiet,
                       std::chrono::milliseconds unwind_grace)
    : blank_(std::move(blank)),
      deliver_(std::move(deliver)),
      out_(out),
      err_(err),
      quiet_(quiet),
      unwind_grace_(unwind_grace),
      watch_([this](int sig) { interrupted(sig); }) {}

CaseSink PartialRun::keeper(CaseSink then) {
  return [this, then = std::move(then)](const CaseResult& c) {
    {
      const std::lock_guard lock(mutex_);
      kept_.push_back(c);
    }
    if (then) then(c);
  };
}

bool PartialRun::take(int to) {
  const std::lock_guard lock(mutex_);
  if (state_ != kRunning) return false;
  state_ = to;
  return true;
}

void PartialRun::deliver_kept(const std::string& why, const std::string& headline) {
  ResultDocument doc = blank_;
  {
    const std::lock_guard lock(mutex_);
    doc.cases = kept_;
  }
  if (doc.cases.empty()) return;
  doc.partial = why;
  if (before_delivery_) before_delivery_();
  if (!quiet_) {
    err_ << fmt::format("xferbench: {}: delivering the {} case{} complete, marked partial\n", headline,
                        doc.cases.size(), doc.cases.size() == 1 ? "" : "s");
    err_.flush();
  }
  deliver_(doc);
  out_.flush();
}

void PartialRun::job_returned() {
  {
    const std::lock_guard lock(mutex_);
    job_returned_ = true;
  }
  returned_.notify_all();
}

void PartialRun::interrupted(int sig) {
  if (!take(kInterrupted)) return;
  // The job stops at its next check and unwinds (its devices released) before anything is
  // delivered; one stuck past the grace period is left to the process's end.
  stop_.request_stop();
  {
    // A thread of the job parked (it would have made a name after the end began) means the job
    // will never return: stop waiting then too. Parking notifies nobody, hence the short slices.
    const auto deadline = std::chrono::steady_clock::now() + unwind_grace_;
    std::unique_lock lock(mutex_);
    while (!job_returned_ && cleanup_threads_parked() == 0 && std::chrono::steady_clock::now() < deadline) {
      returned_.wait_for(lock, std::chrono::milliseconds(5));
    }
  }
  const char* name = sigabbrev_np(sig);
  const std::string why = fmt::format("interrupted by SIG{}", name != nullptr ? name : std::to_string(sig));
  deliver_kept(why, why);
}

void PartialRun::finished() {
  if (!take(kFinished)) park_until_the_process_ends();
}

void PartialRun::failed(const std::string& what) {
  // A failure the signal caused (a device process that died of the same Ctrl-C) is the watcher's
  // to deliver, as interrupted: this thread waits for it to end the process.
  if (watch_.signalled() || !take(kFinished)) park_until_the_process_ends();
  // The command's error line (main) says what failed: the note does not repeat it. A delivery that
  // fails itself (a full disk) is one line, and the job's error still goes on.
  try {
    deliver_kept("failed: " + what, "the run failed");
  } catch (const std::exception& e) {
    err_ << "xferbench: the partial result could not be delivered: " << e.what() << '\n';
  }
}

}  // namespace xb
