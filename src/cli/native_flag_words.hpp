#pragma once
// The native commands' spellings of every job's plan fields (core/plan_error.hpp), for the rules a
// job reports; the dialects change the few their tool spells differently, and main words with these
// any PlanError that reaches it unworded.
#include "core/plan_error.hpp"

namespace xb {

const FlagWords& native_flag_words();

}  // namespace xb
