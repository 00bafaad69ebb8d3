#pragma once
// A question answered by a short-lived forked child: the device probes of the CUDA and Ascend
// backends. A process that has initialised a device runtime cannot hand a working one to children
// it forks later (jobs fork one process per device), so the parent never initialises it: the child
// does, writes its answer to a pipe and leaves with _exit (no handlers, no destructors of the
// parent's image); the parent reads the answer, bounded by a timeout.
#include <functional>
#include <string>

namespace xb {

struct ChildAnswer {
  bool ok = false;     // the child answered (then `text` is its answer)
  std::string text;    // the answer, or why there is none ("<what> did not answer within 60000 ms")
};

// Runs `ask` in a forked child and returns what it wrote. `what` names the child in failures
// ("the CUDA probe"). A child that dies of a signal, fails, has not answered within `timeout_ms` in
// all (it is killed) or cannot be started gives ok = false and the reason.
ChildAnswer answer_from_child(const std::function<std::string()>& ask, const std::string& what, int timeout_ms);

}  // namespace xb
