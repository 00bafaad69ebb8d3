#pragma once
// A run that ends early keeps what it measured: each case a job hands to JobContext::on_case is kept,
// and when the run is interrupted (SIGINT, SIGTERM, SIGHUP: core/interrupt_watch) or fails midway,
// the cases complete by then are delivered as a finished run's would be, marked partial with the
// reason, before the process ends with the signal's status or the failure's exit code. No case
// complete: nothing delivered. Partial cases are not judged (a verdict would read as the whole run's).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "core/case_sink.hpp"
#include "core/error.hpp"
#include "core/interrupt_watch.hpp"
#include "core/result.hpp"

namespace xb {

// Make it first, before the run's Progress line and before the job starts any thread (the watcher
// must be the one thread that takes the end signals); hand keeper() to the JobContext; run the job
// through run().
class PartialRun {
 public:
  static constexpr std::chrono::milliseconds kUnwindGrace{10'000};
  using Deliver = std::function<void(const ResultDocument&)>;
  // `blank`: the document before any case; `deliver`: what the finished run would do with it; `out`:
  // flushed after (the process then dies of the signal: no exit flushes it); `err`: the one note's
  // (none when `quiet`); `unwind_grace`: how long an interrupt waits for the job to unwind (tests
  // shorten it).
  PartialRun(ResultDocument blank, Deliver deliver, std::ostream& out, std::ostream& err, bool quiet = false,
             std::chrono::milliseconds unwind_grace = kUnwindGrace);

  // Called before a partial result is delivered, on the delivering thread: the command silences its
  // progress line there (Progress::silence), so the ticker draws nothing into the table.
  void before_delivery(std::function<void()> hook) { before_delivery_ = std::move(hook); }

  // A JobContext's on_case: keeps the case, then passes it to `then` (may be empty).
  CaseSink keeper(CaseSink then = {});
  // A JobContext's stop: set on an interrupt, which then waits (at most kUnwindGrace) for the job
  // to stop at its next check and unwind, releasing its devices, before it delivers and dies.
  std::stop_token stop_token() const { return stop_.get_token(); }

  // `job()`'s cases. If it throws, the cases kept are delivered, marked partial with its message,
  // and the exception goes on (the command's exit code is the failure's). Bad input found midway
  // (UsageError, PlanError: exit 2) delivers nothing: bad input leaves nothing behind.
  template <class Job>
  std::vector<CaseResult> run(Job&& job) {
    std::vector<CaseResult> cases;
    try {
      // Tells a waiting interrupt the job returned (or unwound), once job()'s frames are gone.
      const std::unique_ptr<PartialRun, decltype([](PartialRun* self) { self->job_returned(); })> mark(this);
      cases = job();
    } catch (const UsageError&) {  // PlanError too: it is one
      finished();
      throw;
    } catch (const std::exception& e) {
      failed(e.what());
      throw;
    }
    finished();
    return cases;
  }

 private:
  // The watcher's callback: delivers what is kept, unless the run already finished (its delivery
  // is under way, and the signal simply ends it).
  void interrupted(int sig);
  // The run returned: from now on an interrupt delivers nothing. Parks the calling thread if an
  // interrupt is already being delivered (the watcher ends the process).
  void finished();
  void failed(const std::string& what);
  // Takes the run from running to `to`; false if an interrupt has it already.
  bool take(int to);
  // `why` goes into the document; `headline` starts the note on stderr.
  void deliver_kept(const std::string& why, const std::string& headline);
  void job_returned();

  enum State { kRunning, kFinished, kInterrupted };
  ResultDocument blank_;
  Deliver deliver_;
  std::ostream& out_;
  std::ostream& err_;
  bool quiet_;
  std::chrono::milliseconds unwind_grace_;
  std::function<void()> before_delivery_;
  std::mutex mutex_;
  std::vector<CaseResult> kept_;
  int state_ = kRunning;
  bool job_returned_ = false;
  std::condition_variable returned_;
  std::stop_source stop_;
  InterruptWatch watch_;  // last: made once the state it reports to exists, and gone before it
};

}  // namespace xb
