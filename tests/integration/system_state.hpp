#pragma once
// What a run of xferbench may leave on the machine: POSIX shared-memory segments
// (/dev/shm/xferbench-<pid>-<tag>), O_DIRECT backing files (/var/tmp/.xferbench-odirect-<pid>-<tag>)
// and processes. Read from the real /dev/shm, /var/tmp and /proc.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
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

// Processes (not zombies) descended from `root` (children, theirs, …), `root` not included: the ranks
// an mpirun starts, whatever process group or session they are put in.
std::vector<pid_t> live_descendants(pid_t root);

// Whether `pid` catches SIGINT, SIGTERM and SIGHUP (SigCgt of /proc/PID/status): xferbench's
// core/cleanup handlers are installed, so a signal from now on is the program's to handle.
bool catches_interrupts(pid_t pid);

// Shared-memory segments (/dev/shm/xferbench-PID-*) and temporaries (/var/tmp/.xferbench-*-PID-*)
// whose embedded pid is one of `pids`, as full paths.
std::vector<std::string> leftovers_of(const std::set<pid_t>& pids);

// A TCP port no one listens on right now on 127.0.0.1 (bound, read, closed): for commands that
// need a fixed port (HIXL's tcp_port), where a clash with another test is unlikely but possible.
std::uint16_t free_tcp_port();

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
