#pragma once
// The survey's note on each of its cases: which data path the case measured, at what size, and
// which of its metrics is the path's headline figure. Kept in the case's config under "survey", so
// the summary table can be drawn again from the results JSON alone, and `report`/`compare` see
// ordinary cases of the jobs that measured them.
#include <cstdint>
#include <optional>
#include <string>

#include "core/result.hpp"

namespace xb {

struct SurveyRow {
  std::string path;             // "H2D cpu (1 device)", "storage randread", "ucx loopback"
  std::uint64_t size_bytes = 0;  // the block, IO or message size (0: none)
  std::string metric;           // the headline metric's name ("bandwidth", "iops"); "" when not ok
};

void annotate_survey_row(CaseResult& c, const SurveyRow& row);
// The row of a case the survey annotated; nullopt for any other case.
std::optional<SurveyRow> survey_row_of(const CaseResult& c);

}  // namespace xb
