#include "support/host_tools.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

extern char** environ;

namespace xb::test {
namespace {

// The pid in `name` after `prefix`, up to `end_mark`; 0 when the name does not have that shape.
pid_t pid_in(const std::string& name, const std::string& prefix, char end_mark, int base) {
  if (name.rfind(prefix, 0) != 0) return 0;
  const auto end = name.find(end_mark, prefix.size());
  if (end == std::string::npos || end == prefix.size()) return 0;
  const std::string digits = name.substr(prefix.size(), end - prefix.size());
  char* stop = nullptr;
  const long pid = std::strtol(digits.c_str(), &stop, base);
  return *stop == '\0' && pid > 0 ? static_cast<pid_t>(pid) : 0;
}

bool gone(pid_t pid) { return pid > 0 && kill(pid, 0) != 0 && errno == ESRCH; }

void sweep(const std::string& ip, const char* dir, const std::vector<std::string>& del, const std::string& prefix,
           char end_mark, int base) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!gone(pid_in(name, prefix, end_mark, base))) continue;
    std::vector<std::string> args = del;
    args.push_back(name);
    run_tool(ip, args);
  }
}

}  // namespace

ToolRun run_tool(const std::string& program, const std::vector<std::string>& args) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return {-1, "pipe failed"};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  ToolRun r;
  if (rc != 0) {
    close(fds[0]);
    r.output = "posix_spawn(" + program + ") failed";
    return r;
  }
  char buf[512];
  ssize_t n = 0;
  while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) r.output.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string find_tool(const std::string& name) {
  for (const char* dir : {"/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/"}) {
    const std::string path = dir + name;
    if (access(path.c_str(), X_OK) == 0) return path;
  }
  return "";
}

void sweep_stale_netns(const std::string& ip, const std::string& prefix, char end_mark, int base) {
  sweep(ip, "/run/netns", {"netns", "del"}, prefix, end_mark, base);
}

void sweep_stale_links(const std::string& ip, const std::string& prefix, char end_mark, int base) {
  sweep(ip, "/sys/class/net", {"link", "del"}, prefix, end_mark, base);
}

}  // namespace xb::test
