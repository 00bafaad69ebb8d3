#pragma once
// The directory the survey's storage steps work in: a fresh temporary directory
// (.xferbench-survey-<pid>-XXXXXX) made in the --dir directory or in the working directory (so it
// is on the file system the user runs from), removed with everything in it when the survey ends,
// also when a step throws. The io job's own files are registered with core/cleanup while a step
// runs, so Ctrl-C removes them; the empty directory itself then stays (see docs/survey.md).
#include <filesystem>

namespace xb {

class SurveyScratch {
 public:
  // Throws SystemError naming `parent` when the directory cannot be made there.
  explicit SurveyScratch(const std::filesystem::path& parent);
  ~SurveyScratch();
  SurveyScratch(const SurveyScratch&) = delete;
  SurveyScratch& operator=(const SurveyScratch&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace xb
