#pragma once
// Running a program with a pseudo-terminal (forkpty) as its stdin, stdout and stderr, as a person
// at a terminal would: what progress lines (cli/progress.hpp) need to be shown at all.
#include <chrono>
#include <string>
#include <vector>

namespace xb::test {

struct PtyRun {
  int status = -1;     // waitpid status
  std::string output;  // stdout and stderr together: both are the terminal
};

// Runs `binary` with `args` until it exits (killed, and a test failure added, past `timeout`).
// `extra_env` ("NAME=VALUE" each) is added to this process's environment for the child.
PtyRun run_on_pty(const std::string& binary, const std::vector<std::string>& args,
                  std::chrono::milliseconds timeout = std::chrono::minutes(2),
                  const std::vector<std::string>& extra_env = {});

}  // namespace xb::test
