#include "support/pty_run.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace xb::test {

PtyRun run_on_pty(const std::string& binary, const std::vector<std::string>& args, std::chrono::milliseconds timeout) {
  PtyRun run;
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) {
    ADD_FAILURE() << "forkpty failed";
    return run;
  }
  if (pid == 0) {
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char buf[4096];
  for (;;) {
    pollfd p{master, POLLIN, 0};
    if (poll(&p, 1, 200) > 0) {
      const ssize_t n = read(master, buf, sizeof buf);
      if (n > 0) {
        run.output.append(buf, static_cast<std::size_t>(n));
        continue;
      }
      break;  // EIO: the child's side closed (it exited)
    }
    if (waitpid(pid, &run.status, WNOHANG) == pid) {
      close(master);
      return run;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      ADD_FAILURE() << "timed out; output so far:\n" << run.output;
      break;
    }
  }
  close(master);
  waitpid(pid, &run.status, 0);
  return run;
}

}  // namespace xb::test
