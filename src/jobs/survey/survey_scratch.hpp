#pragma once
// The survey storage steps' directory: a fresh .xferbench-survey-<pid>-XXXXXX in --dir or the working
// directory (the user's file system), removed when the survey ends, also when a step throws. It and
// the io job's files are registered with core/cleanup, so Ctrl-C removes the files, then the
// directory; the files kept from the write step to the reads are held here (holds), and the end
// removes what a signal would: the held files, then the directory when empty.
#include <filesystem>
#include <memory>
#include <vector>

#include "core/cleanup.hpp"

namespace xb {

class SurveyScratch {
 public:
  // Throws SystemError naming `parent` when the directory cannot be made there.
  explicit SurveyScratch(const std::filesystem::path& parent);
  ~SurveyScratch();
  SurveyScratch(const SurveyScratch&) = delete;
  SurveyScratch& operator=(const SurveyScratch&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // `file` (inside the directory) is removed on SIGINT/SIGTERM/SIGHUP while the survey runs: the
  // io files its write step leaves for the read steps, which no io run holds between the steps.
  void holds(const std::filesystem::path& file);

 private:
  std::filesystem::path path_;
  std::unique_ptr<ScopedCleanup> on_signal_;  // rmdir on SIGINT/SIGTERM, after the files in it
  std::vector<std::unique_ptr<ScopedCleanup>> files_on_signal_;
  std::vector<std::filesystem::path> held_;
};

}  // namespace xb
