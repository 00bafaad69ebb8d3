#include "support/pty_run.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace xb::test {

PtyRun run_on_pty(const std::string& binary, const std::vector<std::string>& args, std::chrono::milliseconds timeout,
                  const std::vector<std::string>& extra_env, const std::optional<PtyAction>& when) {
  PtyRun run;
  // argv and envp are built before the fork: the child only calls execve, which is safe after a fork
  // of a process that may have other threads.
  std::vector<char*> argv{const_cast<char*>(binary.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  for (const auto& e : extra_env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) {
    ADD_FAILURE() << "forkpty failed";
    return run;
  }
  if (pid == 0) {
    execve(binary.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  run.pid = pid;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char buf[4096];
  bool acted = false;
  for (;;) {
    pollfd p{master, POLLIN, 0};
    if (poll(&p, 1, 200) > 0) {
      const ssize_t n = read(master, buf, sizeof buf);
      if (n > 0) {
        run.output.append(buf, static_cast<std::size_t>(n));
        if (when && !acted && run.output.find(when->text) != std::string::npos) {
          acted = true;
          when->act(pid);
        }
        continue;
      }
      break;  // EIO: the child's side closed (it exited)
    }
    if (waitpid(pid, &run.status, WNOHANG) == pid) {
      // The child is gone, but what it wrote last may still be on its way through the terminal:
      // read until the master reports the end.
      for (pollfd q{master, POLLIN, 0}; poll(&q, 1, 200) > 0;) {
        const ssize_t n = read(master, buf, sizeof buf);
        if (n <= 0) break;
        run.output.append(buf, static_cast<std::size_t>(n));
      }
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
