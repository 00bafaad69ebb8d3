#include "backends/child_answer.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace xb {
namespace {

void write_whole(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

ChildAnswer answer_from_child(const std::function<std::string()>& ask, const std::string& what, int timeout_ms) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return {false, fmt::format("pipe for {} failed: {}", what, std::strerror(errno))};
  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return {false, fmt::format("fork of {} failed: {}", what, std::strerror(e))};
  }
  if (pid == 0) {
    ::close(fds[0]);
    std::string answer;
    try {
      answer = ask();
    } catch (...) {
      ::_exit(2);  // no answer: the parent names the exit
    }
    write_whole(fds[1], answer);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string answer;
  char buf[4096];
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd pfd{fds[0], POLLIN, 0};
    const int r = ::poll(&pfd, 1, static_cast<int>(std::max<std::chrono::milliseconds::rep>(left.count(), 0)));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) {
      timed_out = true;
      break;
    }
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    answer.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return {false, fmt::format("{} did not answer within {} ms", what, timeout_ms)};
  if (WIFSIGNALED(status)) return {false, fmt::format("{} process died of signal {}", what, WTERMSIG(status))};
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    return {false, fmt::format("{} process failed (exit status {})", what, WEXITSTATUS(status))};
  }
  return {true, std::move(answer)};
}

}  // namespace xb
