#pragma once
// Error kinds shared by every layer. Library code throws; only main() turns an error into an exit code.
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

namespace xb {

// Bad input from the user. main() prints it as one line and exits with code 2; it must be thrown
// before anything is allocated or created, so nothing is left behind.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The machine lacks what a case needs (no GPU, no huge pages, no cuFile). Not a failure of the
// program: a case that hits it is reported as "waived: <reason>".
class Unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A system call failed. The message names the call and its subject (file, segment, peer) and the
// errno text, e.g. "open(/data/f0) failed: No such file or directory".
class SystemError : public std::runtime_error {
 public:
  SystemError(std::string_view context, int error_number);
  int error_number() const noexcept { return error_number_; }

 private:
  int error_number_;
};

// Throws SystemError for the current errno.
[[noreturn]] void throw_errno(std::string_view context);

// The message of a captured exception (a worker thread's), "unknown error" if it has none.
std::string error_text(const std::exception_ptr& e);

// `text` as one printable line: control characters a user's value brought in (a newline, an escape
// sequence) written as \n, \t, \r or \xNN, so a message stays one line and cannot drive the
// terminal.
std::string printable_line(std::string_view text);

}  // namespace xb
