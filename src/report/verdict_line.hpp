#pragma once
// A judged case in one line, for a dialect whose tool's output has no place for a verdict (it
// prints the tool's table exactly, then what xferbench adds): "allreduce of 4194304 bytes per rank
// over 2 ranks: 3.21 Gb/s, expected 8 Gb/s (0.40 x): FAIL by coll bandwidth ≥ 1 GB/s (command line,
// --expect-rule 1)"; unjudged: the reason. "" for a case without a verdict.
#include <string>

#include "core/result.hpp"

namespace xb {

std::string verdict_line(const CaseResult& c);

}  // namespace xb
