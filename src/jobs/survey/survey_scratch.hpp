#pragma once
// The directory the survey's storage steps work in: a fresh temporary directory
// (.xferbench-survey-<pid>-XXXXXX) made in the --dir directory or in the working directory (so it
// is on the file system the user runs from), removed with everything in it when the survey ends,
// also when a step throws. The io job's own files are registered with core/cleanup while a step
// runs, and the directory itself too, so Ctrl-C removes the files and then the emptied directory;
// the files kept from the write step to the read steps are registered here (holds).
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
};

}  // namespace xb
