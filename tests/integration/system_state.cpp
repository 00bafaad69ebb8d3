#include "system_state.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace xbtest {
namespace fs = std::filesystem;

std::set<std::string> names_in(const std::string& dir, const std::string& prefix) {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0) names.insert(name);
  }
  return names;
}

std::optional<pid_t> embedded_pid(const std::string& name) {
  std::size_t i = 0;
  while (i < name.size() && !std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  std::size_t j = i;
  while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j]))) ++j;
  if (i == j || j - i > 9) return std::nullopt;
  return static_cast<pid_t>(std::stol(name.substr(i, j - i)));
}

namespace {

struct ProcStat {
  char state = '?';
  pid_t ppid = 0;
  pid_t pgrp = 0;
};

// State letter, parent and process group of /proc/<pid>/stat ("pid (comm) S ppid pgrp ...");
// nullopt when the process is gone.
std::optional<ProcStat> proc_stat(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return std::nullopt;
  const auto close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(text.substr(close + 1));
  ProcStat s;
  long ppid = 0, pgrp = 0;
  if (!(rest >> s.state >> ppid >> pgrp)) return std::nullopt;
  s.ppid = static_cast<pid_t>(ppid);
  s.pgrp = static_cast<pid_t>(pgrp);
  return s;
}

bool live(const ProcStat& s) { return s.state != 'Z' && s.state != 'X'; }

// Every process of /proc now, with its stat.
std::vector<std::pair<pid_t, ProcStat>> all_processes() {
  std::vector<std::pair<pid_t, ProcStat>> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
    const auto pid = static_cast<pid_t>(std::stol(name));
    if (const auto s = proc_stat(pid)) out.emplace_back(pid, *s);
  }
  return out;
}

}  // namespace

bool process_alive(pid_t pid) {
  const auto s = proc_stat(pid);
  return s && live(*s);
}

std::vector<pid_t> live_processes_in_group(pid_t pgid) {
  std::vector<pid_t> out;
  for (const auto& [pid, s] : all_processes()) {
    if (s.pgrp == pgid && live(s)) out.push_back(pid);
  }
  return out;
}

std::vector<pid_t> live_descendants(pid_t root) {
  const auto all = all_processes();
  std::set<pid_t> found{root};
  // Parents may be listed after their children: repeat until a pass adds nothing.
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [pid, s] : all) {
      if (live(s) && found.count(s.ppid) != 0 && found.insert(pid).second) grew = true;
    }
  }
  found.erase(root);
  return {found.begin(), found.end()};
}

bool catches_interrupts(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("SigCgt:", 0) != 0) continue;
    const unsigned long long caught = std::stoull(line.substr(7), nullptr, 16);
    const auto bit = [](int sig) { return 1ull << (sig - 1); };
    return (caught & bit(SIGINT)) && (caught & bit(SIGTERM)) && (caught & bit(SIGHUP));
  }
  return false;
}

std::uint16_t free_tcp_port() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    close(fd);
    throw std::runtime_error("bind to 127.0.0.1:0 failed");
  }
  close(fd);
  return ntohs(a.sin_port);
}

std::vector<std::string> leftovers_of(const std::set<pid_t>& pids) {
  std::vector<std::string> out;
  for (const auto& [dir, prefix] : {std::pair{kShmDir, "xferbench-"}, std::pair{kTmpDir, ".xferbench-"}}) {
    for (const auto& name : names_in(dir, prefix)) {
      const auto owner = embedded_pid(name);
      if (owner && pids.count(*owner) > 0) out.push_back(std::string(dir) + "/" + name);
    }
  }
  return out;
}

LeftoverWatch::LeftoverWatch() : shm_before_(names_in(kShmDir, kShmPrefix)), tmp_before_(names_in(kTmpDir, kTmpPrefix)) {}

std::vector<std::string> LeftoverWatch::leftovers() const {
  std::vector<std::string> out;
  auto check = [&](const std::string& dir, const std::string& prefix, const std::set<std::string>& before) {
    for (const auto& name : names_in(dir, prefix)) {
      if (before.count(name) != 0) continue;
      const auto owner = embedded_pid(name);
      if (owner && process_alive(*owner)) continue;  // still in use by a running process
      out.push_back(dir + "/" + name);
    }
  };
  check(kShmDir, kShmPrefix, shm_before_);
  check(kTmpDir, kTmpPrefix, tmp_before_);
  return out;
}

bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

unsigned long long available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    unsigned long long kib = 0;
    fields >> kib;
    return kib * 1024;
  }
  return 0;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : separator) + s;
  return out;
}

}  // namespace xbtest
