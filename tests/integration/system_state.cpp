#include "system_state.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
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

// State letter and process group of /proc/<pid>/stat ("pid (comm) S ppid pgrp ..."); nullopt when
// the process is gone.
std::optional<std::pair<char, pid_t>> stat_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return std::nullopt;
  const auto close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(text.substr(close + 1));
  char state = '?';
  long ppid = 0, pgrp = 0;
  if (!(rest >> state >> ppid >> pgrp)) return std::nullopt;
  return std::make_pair(state, static_cast<pid_t>(pgrp));
}

}  // namespace

bool process_alive(pid_t pid) {
  const auto s = stat_of(pid);
  return s && s->first != 'Z' && s->first != 'X';
}

std::vector<pid_t> live_processes_in_group(pid_t pgid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
    const auto pid = static_cast<pid_t>(std::stol(name));
    const auto s = stat_of(pid);
    if (s && s->second == pgid && s->first != 'Z' && s->first != 'X') out.push_back(pid);
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
