#include "jobs/survey/survey_scratch.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace xb {

SurveyScratch::SurveyScratch(const std::filesystem::path& parent) {
  std::string templ = (parent / fmt::format(".xferbench-survey-{}-XXXXXX", getpid())).string();
  // Made and registered in one bracket: an interrupt's handler waits for both (core/cleanup).
  const CreatingNames bracket(NameRegistered::after);
  if (mkdtemp(templ.data()) == nullptr) throw_errno(fmt::format("mkdtemp in {}", parent.string()));
  path_ = templ;
  try {
    on_signal_ = std::make_unique<ScopedCleanup>(CleanupKind::directory, path_.string());
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(path_, ec);  // the destructor of a half-made object never runs
    throw;
  }
}

void SurveyScratch::holds(const std::filesystem::path& file) {
  files_on_signal_.push_back(std::make_unique<ScopedCleanup>(CleanupKind::file, file.string()));
  held_.push_back(file);
}

// What a signal would remove, and no more: the held files, then the directory if it is empty. One
// list for both ends, so a file the survey forgot to hold is left (and seen) on a normal end too.
SurveyScratch::~SurveyScratch() {
  std::error_code ec;  // a destructor must not throw; what cannot be removed stays, visibly named
  for (const auto& f : held_) std::filesystem::remove(f, ec);
  std::filesystem::remove(path_, ec);
}

}  // namespace xb
