#pragma once
// The sharp_coll_test dialect (NVIDIA SHARP's HCA-to-TOR bandwidth test): its command line in, its
// header and table out. A thin translator: argv -> LinkPlan, run the link job, each size's
// CaseResult -> one row. No measurement here.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "transport/net_devices.hpp"
#include "core/result.hpp"
#include "jobs/link/link_plan.hpp"

namespace xb {

struct SharpCollTestRequest {
  LinkPlan plan;            // a loopback sweep over the UCX transport (where built)
  std::string ib_device;    // -d DEV[:PORT] as given; empty: UCX's own choice of device
  std::string net_devices;  // what -d sets UCX_NET_DEVICES to ("lo", "mlx5_0:1"); empty without -d
  std::string job_id;       // -j: accepted and kept (there is no SHARP job here to name)
  // The link is an RDMA device's: -d names one, or without -d the machine has one (sharp_coll_test
  // takes the first device found). Otherwise a network interface's, over UCX's tcp transport.
  bool rdma = false;
};

// The UCX environment the run needs, as (name, value, overwrite): UCX_NET_DEVICES from -d
// (overwriting: the flag is explicit), and, unless the user set UCX_TLS, a UCX_TLS that keeps the
// loopback link on a network device as sharp_coll_test's HCA-to-switch link is, never on shared
// memory (posix, sysv, cma): "rc,ud" (verbs) for an RDMA link, "tcp" otherwise. A positive list,
// as UCX warns (on stdout) about transports it lacks or options of ones excluded.
struct EnvSetting {
  std::string name, value;
  bool overwrite = false;
};
std::vector<EnvSetting> sharp_coll_test_ucx_environment(const SharpCollTestRequest& req);

// sharp_coll_test's flags as the link job's messages name them.
LinkFlagNames sharp_coll_test_flag_names();

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
