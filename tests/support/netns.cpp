#include "support/netns.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <stdexcept>

extern char** environ;

namespace xb::test {
namespace {

constexpr const char* kPrefix = "xbx";  // every namespace these tests make starts with it

struct Ran {
  int status = -1;  // exit status, -1 when it could not run
  std::string output;
};

// Runs `ip` with `args`, stdout and stderr captured together: the message of a failure.
Ran run_ip(const std::string& ip, const std::vector<std::string>& args) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return {-1, "pipe failed"};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  std::vector<char*> argv{const_cast<char*>(ip.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, ip.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  Ran r;
  if (rc != 0) {
    close(fds[0]);
    r.output = "posix_spawn(" + ip + ") failed";
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

std::string find_ip() {
  for (const char* p : {"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return "";
}

// Namespaces "xbx<pid>n…" whose test process is gone (SIGKILLed before its destructors ran).
void sweep_stale(const std::string& ip) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/run/netns", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0) continue;
    const auto n = name.find('n', 3);
    if (n == std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::atoi(name.substr(3, n - 3).c_str()));
    if (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) run_ip(ip, {"netns", "del", name});
  }
}

}  // namespace

std::unique_ptr<NetnsPair> NetnsPair::create(std::string* why_not) {
  const auto fail = [&](std::string why) {
    if (why_not != nullptr) *why_not = std::move(why);
    return nullptr;
  };
  if (geteuid() != 0) return fail("needs root to create network namespaces (runs as root in CI)");
  const std::string ip = find_ip();
  if (ip.empty()) return fail("the `ip` program (iproute2) is not installed");
  sweep_stale(ip);

  static std::atomic<unsigned> counter{0};  // per process; the pid separates processes
  const unsigned k = counter.fetch_add(1);
  const std::string tag = std::to_string(getpid()) + "n" + std::to_string(k);
  std::unique_ptr<NetnsPair> pair(new NetnsPair());
  pair->ip_ = ip;
  // Each pair's subnet is its own (10.213.k.0/24); being inside the two namespaces only, it could
  // not clash with the host's networks anyway.
  const std::string subnet = "10.213." + std::to_string(k % 256) + ".";
  const std::string veth[2] = {"xv" + tag + "a", "xv" + tag + "b"};
  for (int side = 0; side < 2; ++side) {
    pair->names_[side] = kPrefix + tag + (side == 0 ? "a" : "b");
    pair->addresses_[side] = subnet + std::to_string(side + 1);
  }
  const auto step = [&](const std::vector<std::string>& args) {
    const Ran r = run_ip(ip, args);
    if (r.status != 0) throw std::runtime_error("ip " + args.front() + " … failed: " + r.output);
  };
  try {
    for (int side = 0; side < 2; ++side) {
      step({"netns", "add", pair->names_[side]});
      pair->made_[side] = true;
    }
    step({"link", "add", veth[0], "netns", pair->names_[0], "type", "veth", "peer", "name", veth[1], "netns",
          pair->names_[1]});
    for (int side = 0; side < 2; ++side) {
      step({"-n", pair->names_[side], "addr", "add", pair->addresses_[side] + "/24", "dev", veth[side]});
      step({"-n", pair->names_[side], "link", "set", veth[side], "up"});
      step({"-n", pair->names_[side], "link", "set", "lo", "up"});
    }
  } catch (const std::exception& e) {
    return fail(std::string("cannot make network namespaces here: ") + e.what());  // pair's destructor cleans up
  }
  return pair;
}

NetnsPair::~NetnsPair() {
  for (int side = 0; side < 2; ++side) {
    if (made_[side]) run_ip(ip_, {"netns", "del", names_[side]});
  }
}

std::vector<std::string> NetnsPair::args_to_run(int side, const std::vector<std::string>& command) const {
  std::vector<std::string> args{"netns", "exec", names_[side]};
  args.insert(args.end(), command.begin(), command.end());
  return args;
}

}  // namespace xb::test
