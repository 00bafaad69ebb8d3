#pragma once
// What a run of xferbench may leave on the machine: POSIX shared-memory segments
// (/dev/shm/xferbench-<pid>-<tag>), O_DIRECT backing files (/var/tmp/.xferbench-odirect-<pid>-<tag>)
// and processes. Read from the real /dev/shm, /var/tmp and /proc.
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace xbtest {

inline constexpr const char* kShmDir = "/dev/shm";
inline constexpr const char* kShmPrefix = "xferbench";
inline constexpr const char* kTmpDir = "/var/tmp";
inline constexpr const char* kTmpPrefix = ".xferbench";

// Names of the entries of `dir` that start with `prefix`.
std::set<std::string> names_in(const std::string& dir, const std::string& prefix);

// The pid a name embeds: its first run of digits ("xferbench-123-00ab" -> 123).
std::optional<pid_t> embedded_pid(const std::string& name);

// Alive and not a zombie.
bool process_alive(pid_t pid);

// Processes (not zombies) whose process group is `pgid`.
std::vector<pid_t> live_processes_in_group(pid_t pgid);

// Snapshots /dev/shm/xferbench* and /var/tmp/.xferbench* at construction. leftovers() lists the
// entries that appeared since and whose owner (the pid in the name) is no longer alive: something
// a finished run left behind. Entries of processes still running (another test running in
// parallel) are not counted, so the check holds under ctest -j.
class LeftoverWatch {
 public:
  LeftoverWatch();
  std::vector<std::string> leftovers() const;

 private:
  std::set<std::string> shm_before_;
  std::set<std::string> tmp_before_;
};

// Polls `condition` every few milliseconds until it holds or `timeout` passes; returns whether it held.
bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds timeout);

// Total memory available now (MemAvailable of /proc/meminfo), in bytes.
unsigned long long available_memory_bytes();

std::string join(const std::vector<std::string>& items, const std::string& separator = ", ");

}  // namespace xbtest
