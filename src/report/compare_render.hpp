#pragma once
// `xferbench compare`'s output: a table for people (the default), JSON and CSV for scripts. Only
// formatting: the figures and marks come from compare_results.
#include <ostream>

#include "report/compare.hpp"
#include "report/renderer.hpp"
#include "report/result_files.hpp"

namespace xb {

void render_compare(const CompareResult& result, const LoadedResult& base, const LoadedResult& now,
                    OutputFormat format, std::ostream& out);

}  // namespace xb
