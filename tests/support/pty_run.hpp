#pragma once
// Running a program with a pseudo-terminal (forkpty) as its stdin, stdout and stderr, as a person
// at a terminal would: what progress lines (cli/progress.hpp) need to be shown at all.
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace xb::test {

struct PtyRun {
  pid_t pid = -1;      // the process that ran
  int status = -1;     // waitpid status
  std::string output;  // stdout and stderr together: both are the terminal
};

// What a person at the terminal does once the output shows `text`: `act(pid)` (the program's pid;
// it leads its own process group, so kill(-pid, SIGINT) is Ctrl-C). Done once.
struct PtyAction {
  std::string text;
  std::function<void(pid_t)> act;
};

// Runs `binary` with `args` until it exits (killed, and a test failure added, past `timeout`).
// `extra_env` ("NAME=VALUE" each) is added to this process's environment for the child.
PtyRun run_on_pty(const std::string& binary, const std::vector<std::string>& args,
                  std::chrono::milliseconds timeout = std::chrono::minutes(2),
                  const std::vector<std::string>& extra_env = {}, const std::optional<PtyAction>& when = {});

}  // namespace xb::test
