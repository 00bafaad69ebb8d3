#pragma once
// The native commands' spellings of every job's plan fields (core/plan_error.hpp): how `xferbench
// copy|io|kv|p2p|fleet|link|xfer` word a rule a job reports. The dialects start from these and
// change the few their tool spells differently. main words with these any PlanError that reaches it
// unworded.
#include "core/plan_error.hpp"

namespace xb {

const FlagWords& native_flag_words();

}  // namespace xb
