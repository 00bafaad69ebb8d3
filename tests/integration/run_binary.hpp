#pragma once
// Runs a real program the way a shell would: fork + execve, stdout and stderr captured separately
// through pipes, an optional extra environment, the exit code or the signal that ended it. A
// background variant returns the running process so a test can signal it (as Ctrl-C would).
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace xbtest {

#ifdef XB_BINARY
// The binary under test (XB_BINARY: a compile definition of each test target that runs it) and a
// program beside it (dev-sandbox, sharp_coll_test: the dialects' names for it).
inline const std::string kBinary = XB_BINARY;
inline std::string beside_binary(const std::string& name) {
  return (std::filesystem::path(XB_BINARY).parent_path() / name).string();
}
#endif

struct RunOptions {
  std::vector<std::string> env;        // "NAME=VALUE": added to (or replacing in) this environment
  std::vector<std::string> unset_env;  // names removed from the environment
  // The child becomes the leader of its own process group (setpgid), so the whole tree it forks
  // can be signalled at once with kill(-pid, sig), as a terminal does on Ctrl-C.
  bool own_process_group = true;
  // run_binary only: past this the process group is killed with SIGKILL and timed_out is set.
  std::chrono::milliseconds timeout{std::chrono::minutes(3)};
};

// The default options of the xferbench tests: XFERBENCH_MODULE_PATH removed, so only the built-in
// backend (and modules next to the binary, if any) are seen.
RunOptions default_options();

struct RunResult {
  pid_t pid = -1;       // the process that ran
  bool exited = false;  // ended by exit(); then exit_code is valid
  int exit_code = -1;
  int term_signal = 0;  // the signal that ended it, when !exited
  bool timed_out = false;
  std::string out;
  std::string err;

  // "exit 2" / "signal 2 (Interrupt)" / "timed out", plus stderr: for assertion messages.
  std::string describe() const;
};

// A process started in the background. The destructor kills it (its process group when it has
// one) with SIGKILL and reaps it, if it is still running.
class Process {
 public:
  Process(pid_t pid, int out_fd, int err_fd, bool own_group);
  ~Process();
  Process(Process&& other) noexcept;
  Process& operator=(Process&&) = delete;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }
  // Sends `sig` to the process group (the process and everything it forked).
  void signal_group(int sig) const;
  // Sends `sig` to the process only.
  void signal_process(int sig) const;
  // Waits up to `timeout` for the process to end, collecting its output meanwhile; the result, or
  // nullopt if it is still running.
  std::optional<RunResult> wait_for(std::chrono::milliseconds timeout);
  // Collects output until stdout holds `text` (true), the process closes its output, or `timeout`
  // passes (false); the process is not reaped.
  bool wait_for_output(const std::string& text, std::chrono::milliseconds timeout);
  bool finished() const { return reaped_; }

 private:
  void pump(int timeout_ms);
  void close_fds();

  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  bool own_group_ = true;
  bool reaped_ = false;
  RunResult result_;
};

// Starts `path` with `args` (argv[0] is `path`); throws std::runtime_error if fork/pipe fails. A
// failed exec shows as exit code 127 with the reason on stderr.
Process start_binary(const std::string& path, const std::vector<std::string>& args,
                     const RunOptions& options = default_options());

// Runs `path` with `args` to completion.
RunResult run_binary(const std::string& path, const std::vector<std::string>& args,
                     const RunOptions& options = default_options());

// Splits text into lines (without the '\n'); a last line without '\n' counts too.
std::vector<std::string> split_lines(const std::string& text);
// Splits a command line written as one string ("-s 4:1M -i 3") into its words at whitespace.
std::vector<std::string> split_words(const std::string& text);

}  // namespace xbtest
