#pragma once
// `xferbench compare`'s output: a table for people (the default), JSON and CSV for scripts. Only
// formatting: the figures and marks come from compare_results.
#include <ostream>
#include <vector>

#include "report/compare.hpp"
#include "report/renderer.hpp"
#include "report/result_files.hpp"

namespace xb {

// `base` and `now`: each side's files, its repetitions (one file each in the plain case).
void render_compare(const CompareResult& result, const std::vector<LoadedResult>& base,
                    const std::vector<LoadedResult>& now, OutputFormat format, std::ostream& out);

}  // namespace xb
