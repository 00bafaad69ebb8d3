#pragma once
// `xferbench report`'s page: one self-contained HTML document (inline CSS, inline SVG, a few lines
// of inline script that only annotate the page) from result documents. Formatting only: the
// figures come from the documents, the grouping from report_model.
#include <string>
#include <vector>

#include "report/report_model.hpp"
#include "report/result_files.hpp"

namespace xb {

// Throws UsageError when a case's matrix breaks the convention (report/matrix.hpp).
std::string render_html_report(const std::vector<LoadedResult>& results, LineBy by = LineBy::host);

}  // namespace xb
