#pragma once
// The survey's summary: one row per data path (path, size, figure, unit, expected, verdict), drawn
// from the cases the survey annotated (core/survey_row.hpp) — so the same table comes out of a
// results file. Expected and verdict are the judgement of the row's own figure ("-"
// where it was not judged, "unjudged" where no rule gave a figure: the JSON says why). A path that
// was not measured shows why in place of its figure.
#include <ostream>

#include "core/result.hpp"

namespace xb {

void render_survey_table(const ResultDocument& doc, std::ostream& out);

}  // namespace xb
