#pragma once
// The one way a job hands over each case as it completes (a size of a sweep, a pair, a block size):
// to a dialect printing its tool's rows as they come, to progress, to the reporters. Called in
// completion order, one call at a time; a job that takes one checks it is set before calling.
#include <functional>

#include "core/result.hpp"

namespace xb {

using CaseSink = std::function<void(const CaseResult&)>;

}  // namespace xb
