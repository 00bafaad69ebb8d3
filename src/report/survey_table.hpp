#pragma once
// The survey's summary: one row per data path (path, size, figure, unit), drawn from the cases the
// survey annotated (jobs/survey/survey_row.hpp) — so the same table comes out of a results file.
// A path that was not measured shows why in place of its figure.
#include <ostream>

#include "core/result.hpp"

namespace xb {

void render_survey_table(const ResultDocument& doc, std::ostream& out);

}  // namespace xb
