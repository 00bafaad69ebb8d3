#pragma once
// The progress line of one command's job run (cli/progress.hpp): on when stderr is a terminal and
// the run is neither --quiet nor JSON on stdout, shown once the run has lasted two seconds (quick
// runs print nothing extra). Dialects pass quiet = json = false: the line only goes to stderr.
// XFERBENCH_PROGRESS_AFTER_MS=N changes the two seconds (0: at once), so a run can be watched from
// its start and tests see the line whatever the machine's speed; a value that is not milliseconds
// up to an hour is ignored (the line is a convenience, never a reason to fail a run).
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <string_view>

#include "cli/progress.hpp"

namespace xb {

inline std::chrono::milliseconds job_progress_delay() {
  constexpr std::chrono::milliseconds kDefault = std::chrono::seconds(2);
  const char* env = std::getenv("XFERBENCH_PROGRESS_AFTER_MS");
  if (env == nullptr) return kDefault;
  const std::string_view text(env);
  long long ms = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), ms);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || ms < 0 || ms > 3'600'000) {
    return kDefault;
  }
  return std::chrono::milliseconds(ms);
}

inline Progress job_progress(bool quiet, bool json) {
  return Progress(STDERR_FILENO, !quiet && !json && Progress::is_terminal(STDERR_FILENO), job_progress_delay());
}

}  // namespace xb
