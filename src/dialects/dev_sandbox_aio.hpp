#pragma once
// dev-sandbox's `aio` sub-feature: KV blocks dumped to and loaded back from a POSIX store on disk.
// A thin translator over the kv job: argv -> two KvPlans (dump, then load), CaseResult -> the
// dialect's summary table. No measurement here.
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "core/plan_error.hpp"
#include "core/result.hpp"
#include "jobs/kv/kv_job.hpp"
#include "jobs/kv/kv_plan.hpp"

namespace xb {

struct DevSandboxAioRequest {
  KvPlan dump;
  KvPlan load;
  bool keep = false;  // leave the blocks in --dir (by default the run removes what it wrote)
  // The flags as the user spelled them (the seed's --dir -s -n -i, or UCM's --workspace --io-size
  // --io-number --epoch-number), so the kv job's messages name what was typed.
  FlagWords words;
};

// Parses `dev-sandbox aio` arguments (after "aio"): the seed's spelling (--dir -s -n -i, defaults
// 512M x 8, one pass) or UCM's aio module's (--workspace --io-size --io-number --epoch-number,
// defaults 1M x 512, 32 epochs; --device-id loads into that device; --io-type mmap|alloc). Throws
// UsageError.
DevSandboxAioRequest parse_dev_sandbox_aio(const std::vector<std::string>& args);

// The "[[ aio_dump_to_posix_store ]] …" or "[[ aio_load_from_posix_store ]] …" line, the column
// header and one row, in the style of the dialect's copy summary.
std::string render_dev_sandbox_aio(const CaseResult& result);

// `dev-sandbox aio …`: parse, dump, load, print both tables, remove the blocks unless --keep.
int run_dev_sandbox_aio(const std::vector<std::string>& args, CommandContext& ctx);

}  // namespace xb
