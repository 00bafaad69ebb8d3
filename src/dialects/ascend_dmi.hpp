#pragma once
// The ascend-dmi dialect (`ascend-dmi --bw`, seed 004): its command line in, its output out. A thin
// translator: argv -> a request holding the native P2pPlan (-t p2p) or the copy job's sizes
// (-t h2d|d2h|d2d, or no -t: all three), the jobs' cases -> ascend-dmi's blocks, matrices and
// JSON (dialects/ascend_dmi_output.hpp). No measurement here.
//
// How the nodes meet follows --sp: none = within this node (an xferbench extension: the pair
// --ds -> --dd of this machine); 0/1 with --ip/--hip = two nodes started by hand (with --spp: the
// shared-directory rendezvous, without: peer IP); 2 = MPI, rank 0 on device --ds, rank 1 on --dd.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/plan_error.hpp"
#include "core/result.hpp"
#include "jobs/copy/copy_job.hpp"
#include "jobs/p2p/p2p_plan.hpp"

namespace xb {

enum class AscendDmiMeet { local, peer_ip, shared_dir, mpi };

// The bandwidth test between host and device memory (-t h2d, d2h, d2d; without -t all three, in
// that order): each size a copy of that many bytes, --et times, on device -d.
struct AscendDmiCopies {
  std::vector<CopyDirection> directions;
  // Step mode (no -s): 2 B to 32 MiB, doubling, 5 executions each; fixed mode: -s, 40 executions.
  std::vector<std::uint64_t> sizes;
  std::uint64_t executions = 40;
  int device = 0;
};

struct AscendDmiRequest {
  // -t h2d|d2h|d2d or none: the copy test; -t p2p: empty.
  std::optional<AscendDmiCopies> copies;
  bool json = false;          // --fmt json
  bool json_ignored = false;  // --fmt json where the real tool ignores it (the p2p matrix)
  AscendDmiMeet meet = AscendDmiMeet::local;
  int super_pod = -1;     // --sp, -1 when not given
  std::string peer_ip;    // --ip
  std::string host_ip;    // --hip
  std::string shared_dir; // --spp
  int device = 0;         // -d: this node's device in a --sp 0/1 test (default 0)
  // -m card: a card is one device on the cpu and CUDA backends (on the seed's two-die Ascend cards
  // it spans both dies). Lines say "card id" only where a card spans several devices: a card of one
  // device is that device, and prints "device id" as the seed's card-mode example does.
  bool card = false;
  bool quiet = false;     // -q
  // Both directions kinds, --ds -> --dd (local: this node's pair; --sp 2: rank 0's and rank 1's
  // device), -s and --et. Within this node without --ds/--dd: every pair (plan.all_pairs), the
  // real tool's all-devices matrix, 128 MiB per execution unless -s says.
  P2pPlan plan;
};

// ascend-dmi's flags as the p2p and copy jobs' messages name them.
FlagWords ascend_dmi_flag_words();

// The step mode's sizes: 2 B to 32 MiB, doubling.
std::vector<std::uint64_t> ascend_dmi_step_sizes();
inline constexpr std::uint64_t kAscendDmiMatrixSize = std::uint64_t{128} << 20;

// Parses ascend-dmi arguments (after the program/subcommand name): every spelling of the seed's
// table (-bw/--bw/--bandwidth, -sp/--sp/--super-pod, …, also --flag=value), and every rule of it,
// as a UsageError naming the flag as typed and the rule. -h/--help throws HelpRequested.
// Touches nothing but --spp's directory, which it inspects (check_shared_dir, runtime/shared_dir_rendezvous.hpp).
AscendDmiRequest parse_ascend_dmi(const std::vector<std::string>& args);

std::string ascend_dmi_usage();

// One side of a Pod line: "Pod: <pod> device id: <id>".
struct AscendDmiPod {
  std::string pod;  // "rank 1", "10.0.0.2", a host name
  int id = 0;
  // What id names: "device", or "card" where -m card measured a card of several devices (the
  // seed's Table 2: "device or card is displayed based on the value of mode", docs/acl.md).
  std::string_view unit = "device";
};

// One block, exactly as the seed: the title, the Pod line, the dashed rules, the header and the
// row (Size(Bytes), Execute Times, Bandwidth(GB/s) with 6 decimals, Elapsed Time(us) with 2), and
// the blank line after it.
std::string render_ascend_dmi_block(bool bidirectional, const AscendDmiPod& from, const AscendDmiPod& to,
                                    std::uint64_t size, std::uint64_t times, double bandwidth_gbps,
                                    double elapsed_us);
// The block of one p2p case (its size, executions, bandwidth and elapsed_avg). A waived case is
// one line "Peer to Peer Test ...: waived: why" and the blank line.
std::string render_ascend_dmi_block(const CaseResult& c, const AscendDmiPod& from, const AscendDmiPod& to);

}  // namespace xb
