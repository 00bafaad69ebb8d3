#pragma once
// UCM dev-sandbox's `trans` module: a matrix of direction (H2D, D2H) x host buffer type (normal,
// anonymous, registered) x device buffer type (normal) x transport method, every matching case run
// through the copy job and printed as dev-sandbox's copy table. The parser only reads the filters;
// which methods exist depends on the backend, so the matrix is built once it is known.
#include <string>
#include <vector>

#include "dialects/dev_sandbox.hpp"

namespace xb {

// The filters of `trans -H … -D … -M … -t …` (each empty = all) and the run's sizes.
struct TransFilters {
  std::vector<std::string> host;       // -H normal|anonymous|registered
  std::vector<std::string> device;     // -D normal
  std::vector<std::string> methods;    // -M ce|batch_ce|sm|ms_48|memcpy
  std::vector<std::string> direction;  // -t H2D|D2H (ANY = both)
  std::uint64_t size = 32768;          // -s: one transfer, bytes
  std::uint64_t number = 1024;         // -n: transfers per buffer
  int devices = 8;                     // -d
  std::uint64_t iterations = 1024;     // -i
  bool verify = false;                 // xferbench's --verify
};

// Parses `trans` arguments (after "trans"). Throws UsageError naming the flag; HelpRequested on -h.
TransFilters parse_dev_sandbox_trans(const std::vector<std::string>& args);

// What the backend offers: its name ("cpu", "cuda", "acl"), its engines and whether it batches.
struct TransBackend {
  std::string name;
  std::vector<std::string> engines;
  bool batch_submit = false;
};

// The matching cases, in UCM's order (direction, host type, device type, method), each a copy plan.
// A method that exists but not on this backend is skipped and named in `skipped`; when no case is
// left, throws Unavailable (a method this backend lacks) listing the cases this backend has.
std::vector<DevSandboxRequest> dev_sandbox_trans_cases(const TransFilters& f, const TransBackend& backend,
                                                       std::vector<std::string>& skipped);

}  // namespace xb
