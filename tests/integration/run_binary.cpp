#include "run_binary.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace xbtest {
namespace {

std::string env_name(const std::string& entry) { return entry.substr(0, entry.find('=')); }

std::vector<std::string> child_environment(const RunOptions& options) {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    const std::string name = env_name(entry);
    const bool removed = std::find(options.unset_env.begin(), options.unset_env.end(), name) != options.unset_env.end();
    const bool replaced = std::any_of(options.env.begin(), options.env.end(),
                                      [&](const std::string& x) { return env_name(x) == name; });
    if (!removed && !replaced) env.push_back(entry);
  }
  for (const auto& x : options.env) env.push_back(x);
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Only async-signal-safe calls between fork and exec.
void write_all(int fd, const char* text) {
  std::size_t n = std::strlen(text);
  while (n > 0) {
    const ssize_t w = ::write(fd, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<std::size_t>(w);
  }
}

[[noreturn]] void exec_child(const char* path, char* const* argv, char* const* envp, int out_w, int err_w,
                             bool own_group) {
  if (own_group) setpgid(0, 0);
  // Signals as a shell leaves them for a new program: default actions, nothing blocked.
  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD}) sigaction(sig, &sa, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  const int in = open("/dev/null", O_RDONLY);
  if (in >= 0) dup2(in, STDIN_FILENO);
  dup2(out_w, STDOUT_FILENO);
  dup2(err_w, STDERR_FILENO);
  execve(path, argv, envp);
  const int err = errno;
  write_all(STDERR_FILENO, "run_binary: execve failed: ");
  write_all(STDERR_FILENO, path);
  write_all(STDERR_FILENO, ": ");
  write_all(STDERR_FILENO, strerror(err));
  write_all(STDERR_FILENO, "\n");
  _exit(127);
}

}  // namespace

RunOptions default_options() {
  RunOptions o;
  o.unset_env.push_back("XFERBENCH_MODULE_PATH");
  return o;
}

std::string RunResult::describe() const {
  std::string s = timed_out ? "timed out" : exited ? "exit " + std::to_string(exit_code)
                                                   : "signal " + std::to_string(term_signal) + " (" +
                                                         strsignal(term_signal) + ")";
  return s + "; stderr: [" + err + "]; stdout: [" + out.substr(0, 2000) + "]";
}

Process::Process(pid_t pid, int out_fd, int err_fd, bool own_group)
    : pid_(pid), out_fd_(out_fd), err_fd_(err_fd), own_group_(own_group) {}

Process::Process(Process&& other) noexcept
    : pid_(other.pid_), out_fd_(other.out_fd_), err_fd_(other.err_fd_), own_group_(other.own_group_),
      reaped_(other.reaped_), result_(std::move(other.result_)) {
  other.pid_ = -1;
  other.out_fd_ = other.err_fd_ = -1;
  other.reaped_ = true;
}

Process::~Process() {
  if (pid_ > 0 && !reaped_) {
    if (own_group_) ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  close_fds();
}

void Process::close_fds() {
  if (out_fd_ >= 0) ::close(out_fd_);
  if (err_fd_ >= 0) ::close(err_fd_);
  out_fd_ = err_fd_ = -1;
}

void Process::signal_group(int sig) const {
  if (pid_ > 0 && !reaped_) ::kill(own_group_ ? -pid_ : pid_, sig);
}

void Process::signal_process(int sig) const {
  if (pid_ > 0 && !reaped_) ::kill(pid_, sig);
}

// Reads whatever the pipes have, waiting at most timeout_ms for something to arrive.
void Process::pump(int timeout_ms) {
  pollfd fds[2];
  nfds_t n = 0;
  if (out_fd_ >= 0) fds[n++] = {out_fd_, POLLIN, 0};
  if (err_fd_ >= 0) fds[n++] = {err_fd_, POLLIN, 0};
  if (n == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(timeout_ms, 1)));
    return;
  }
  const int ready = ::poll(fds, n, timeout_ms);
  if (ready <= 0) return;
  char buf[65536];
  for (nfds_t i = 0; i < n; ++i) {
    if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    const ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
    const bool is_out = fds[i].fd == out_fd_;
    if (r > 0) {
      (is_out ? result_.out : result_.err).append(buf, static_cast<std::size_t>(r));
    } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
      ::close(fds[i].fd);
      (is_out ? out_fd_ : err_fd_) = -1;
    }
  }
}

bool Process::wait_for_output(const std::string& text, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (result_.out.find(text) == std::string::npos) {
    if (out_fd_ < 0 || std::chrono::steady_clock::now() >= deadline) return false;
    pump(20);
  }
  return true;
}

std::optional<RunResult> Process::wait_for(std::chrono::milliseconds timeout) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + timeout;
  while (!reaped_) {
    int status = 0;
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      result_.pid = pid_;
      result_.exited = WIFEXITED(status);
      result_.exit_code = result_.exited ? WEXITSTATUS(status) : -1;
      result_.term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
      break;
    }
    if (r < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + strerror(errno));
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
    if (left <= 0) return std::nullopt;
    pump(static_cast<int>(std::min<long long>(left, 20)));
  }
  // The rest of the output. Processes the program forked may still hold the pipes for a moment
  // (they die with it); do not wait for them for ever.
  const auto drain_deadline = clock::now() + std::chrono::seconds(5);
  while ((out_fd_ >= 0 || err_fd_ >= 0) && clock::now() < drain_deadline) pump(20);
  close_fds();
  return result_;
}

Process start_binary(const std::string& path, const std::vector<std::string>& args, const RunOptions& options) {
  std::vector<std::string> argv_strings{path};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<std::string> env_strings = child_environment(options);
  const std::vector<char*> argv = c_strings(argv_strings);
  const std::vector<char*> envp = c_strings(env_strings);

  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe2: ") + strerror(errno));
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    throw std::runtime_error(std::string("pipe2: ") + strerror(errno));
  }
  const pid_t pid = fork();
  if (pid < 0) {
    const int err = errno;
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    throw std::runtime_error(std::string("fork: ") + strerror(err));
  }
  if (pid == 0) exec_child(path.c_str(), argv.data(), envp.data(), out_pipe[1], err_pipe[1], options.own_process_group);
  // Also here, so the group exists before this function returns whatever the scheduling (EACCES
  // once the child has exec'd is harmless: it did it itself).
  if (options.own_process_group) setpgid(pid, pid);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  return Process(pid, out_pipe[0], err_pipe[0], options.own_process_group);
}

RunResult run_binary(const std::string& path, const std::vector<std::string>& args, const RunOptions& options) {
  Process p = start_binary(path, args, options);
  if (auto r = p.wait_for(options.timeout)) return *r;
  p.signal_group(SIGKILL);
  p.signal_process(SIGKILL);
  RunResult r = p.wait_for(std::chrono::seconds(30)).value_or(RunResult{});
  r.timed_out = true;
  return r;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace xbtest
