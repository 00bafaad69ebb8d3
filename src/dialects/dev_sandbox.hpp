#pragma once
// The UCM dev-sandbox dialect: its command line in, its summary table out. A thin translator:
// argv -> CopyPlan, run the copy job, CaseResult -> the seed's text. No measurement here.
#include <string>
#include <vector>

#include "core/result.hpp"
#include "jobs/copy/copy_plan.hpp"

namespace xb {

// One of the seed's eight cases (six distinct: MLA ignores --iodirect).
struct DevSandboxCase {
  std::string name;    // "all_host_to_all_device_ce_multi_stream"
  std::string title;   // "memcpy from all host to all device with ce using multi stream and fork submit"
  std::string method;  // "CE-MS-FORK"
  // The From / To columns where the case names its ends itself (trans: "cpu::registered"); empty:
  // the copy job's labels ("cpu::host::all").
  std::string from = {}, to = {};
};

struct DevSandboxRequest {
  CopyPlan plan;
  DevSandboxCase which;
};

// Parses dev-sandbox arguments (after the program/subcommand name). Throws UsageError.
DevSandboxRequest parse_dev_sandbox(const std::vector<std::string>& args);

// UCM's copy module (`dev-sandbox copy -t CASE [-t CASE ...] [-s] [-n] [-f|--frags|-frags] [-i] [-d]`):
// one request per case named, in order. Throws UsageError naming the flag (an unknown case lists them).
std::vector<DevSandboxRequest> parse_dev_sandbox_copy(const std::vector<std::string>& args);

// The case the quick mode's three selectors name: UCM's case name, title and method
// ("all_host_to_all_device_ce_multi_stream" / "CE-MS-FORK", "…_ffts_direct_h2d" / "ffts-direct-h2d").
DevSandboxCase dev_sandbox_case(bool mla, bool iodirect, bool sdma);

// The seed's output: the "[[ name ]] title" line, the column header and one row.
std::string render_dev_sandbox(const CaseResult& result, const DevSandboxCase& which);
// A size as the seed prints it: KiB, whole or to three decimals.
std::string dev_sandbox_size_kb(std::uint64_t bytes);

}  // namespace xb
