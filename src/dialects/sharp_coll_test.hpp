#pragma once
// The sharp_coll_test dialect (NVIDIA SHARP's sharp_coll_test): its command line in, its headers
// and tables out. Two tests behind one command line: the HCA-to-TOR bandwidth test (argv ->
// LinkPlan, the link job) and, when a collective tester's option is given (-m, -c, -N, -t, -T, -B,
// -r, -H, -D, -C, -p), the MPI collectives tester's perf mode (argv -> CollPlan, the coll job under
// mpirun). Each size's CaseResult -> one row. No measurement here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/expect_flags.hpp"
#include "core/plan_error.hpp"
#include "transport/net_devices.hpp"
#include "core/result.hpp"
#include "jobs/coll/coll_plan.hpp"
#include "jobs/link/link_plan.hpp"
#include "runtime/mpi_world.hpp"

namespace xb {

// The collective tester's side of a request: the plan, how the ranks are grouped (-t) and how
// the buffers are allocated (-H). `mode` is -m as given ("perf" unless told).
struct SharpCollectives {
  CollPlan plan;
  GroupLayout layout;
  HostAllocation allocation = HostAllocation::malloc;
  std::string mode = "perf";
};

// The smallest message of a null-memory (HCA-generated) run.
inline constexpr std::uint64_t kSharpNullMinBytes = 16 * 1024;

// Where the far end of the HCA-to-TOR link comes from when no --peer is given (HOST:PORT of an
// `xferbench link --listen` server).
inline constexpr const char* kSharpPeerVariable = "XFERBENCH_SHARP_PEER";

struct SharpCollTestRequest {
  std::optional<SharpCollectives> collectives;  // the collective tester; none: the HCA-to-TOR test
  // A sweep over the UCX transport (where built) to plan.peer (--peer), else to the other rank of
  // an mpirun pair, else to a loopback server of this process.
  LinkPlan plan;
  std::string ib_device;    // -d DEV[:PORT] as given; empty: UCX's own choice of device
  std::string net_devices;  // what -d sets UCX_NET_DEVICES to ("lo", "mlx5_0:1"); empty without -d
  std::string job_id;       // -j: accepted and kept (there is no SHARP job here to name)
  // xferbench's judging (--expect FILE, --expect-rule R…): given, each figure is judged after the
  // tool's output, one line each, exit 1 on a FAIL (docs/judge.md).
  ExpectFlags expect;
  // The link is an RDMA device's: -d names one, or without -d the machine has one (sharp_coll_test
  // takes the first device found). Otherwise a network interface's, over UCX's tcp transport.
  bool rdma = false;
};

// The UCX environment the run needs, as (name, value, overwrite): UCX_NET_DEVICES from -d
// (overwriting: the flag is explicit), and, for the HCA-to-TOR test unless the user set UCX_TLS, a UCX_TLS that keeps the
// loopback link on a network device as sharp_coll_test's HCA-to-switch link is, never on shared
// memory (posix, sysv, cma): "rc,ud" (verbs) for an RDMA link, "tcp" otherwise. A positive list,
// as UCX warns (on stdout) about transports it lacks or options of ones excluded.
struct EnvSetting {
  std::string name, value;
  bool overwrite = false;
};
std::vector<EnvSetting> sharp_coll_test_ucx_environment(const SharpCollTestRequest& req);

// sharp_coll_test's flags as the link and coll jobs' messages name them.
FlagWords sharp_coll_test_flag_words();

// Parses sharp_coll_test arguments (after the program/subcommand name). -h/--help throws
// HelpRequested with sharp_coll_test's usage text. Bad input: UsageError naming the flag. Long
// options as getopt_long takes them (unambiguous prefixes). `net_device_exists` says whether a
// device name exists on this machine (the command passes the real lookup; -d of a device or port
// that does not exist here is Unavailable, exit 3).
// `rdma_here`: whether the machine has an RDMA device (what the link is without -d).
SharpCollTestRequest parse_sharp_coll_test(const std::vector<std::string>& args,
                                           bool (*net_device_exists)(std::string_view name), bool rdma_here = false);

// What -d DEV[:PORT] sets UCX_NET_DEVICES to: a network interface by its name ("lo", "eth0"; it has
// the one port 1), an RDMA device as DEV:PORT (port 1 when none is given). UsageError naming -d for
// a malformed value, Unavailable for a device or port this machine lacks.
std::string sharp_net_devices(std::string_view ib_device, bool (*net_device_exists)(std::string_view name));


std::string sharp_coll_test_usage();

// The "MPI COMM Type : …" title of a group layout ("Comm World Dup"); empty for MPI_COMM_WORLD,
// which the tester does not announce.
std::string sharp_group_title(const GroupLayout& layout);

// A collective's block header, from its first case: the blank line, "Allreduce perf test.
// comm_size:4" (with iallreduce's "#num_nonblock_ops:N", reduce's and bcast's root) and the columns.
std::string render_sharp_coll_header(const CaseResult& first);
// One row of a collective's case: "%15lu %15.2f %15.2f %15.2f %15.2f %10d" (barrier: "%10.2f %10.2f
// %10.2f %10d", Avg Min Max iters).
std::string render_sharp_coll_row(const CaseResult& result);

// "HOST", "CUDA", "HCA" (null memory: data the HCA makes, in sharp_coll_test's words).
std::string_view sharp_mem_type(RegionPlace place);

// The blank line, "HCA < -- > TOR Bandwidth test. mem_type: HOST:HOST" and the column header.
std::string render_sharp_coll_test_header(const LinkPlan& plan);
// One row: "       67108864         1510.23         1466.12         1570.44          355.49        100".
std::string render_sharp_coll_test_row(std::uint64_t bytes, double avg_us, double min_us, double max_us,
                                       double bandwidth_gbps, std::uint64_t iters);
// The row of one size's link result (size, latency_avg/min/max, bandwidth, iterations).
std::string render_sharp_coll_test_row(const CaseResult& result);

}  // namespace xb
