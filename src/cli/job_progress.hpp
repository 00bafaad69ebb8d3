#pragma once
// The progress line of one command's job run (cli/progress.hpp): on when stderr is a terminal and
// the run is neither --quiet nor JSON on stdout, shown only once the run has lasted two seconds, so
// quick runs print nothing extra. Dialects pass quiet = false, json = false: their stdout is the
// tool's exact text, and the line only ever goes to a terminal's stderr.
#include <unistd.h>

#include <chrono>

#include "cli/progress.hpp"

namespace xb {

inline Progress job_progress(bool quiet, bool json) {
  return Progress(STDERR_FILENO, !quiet && !json && Progress::is_terminal(STDERR_FILENO), std::chrono::seconds(2));
}

}  // namespace xb
