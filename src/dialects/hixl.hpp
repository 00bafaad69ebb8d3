#pragma once
// The HIXL dialect (Huawei HIXL's benchmark): its seven positional arguments in, its one line per
// block size out. A thin translator: argv -> XferPlan, run the xfer job, CaseResult -> HIXL's
// line. No measurement here.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/plan_error.hpp"
#include "core/result.hpp"
#include "jobs/xfer/xfer_plan.hpp"

namespace xb {

// What HIXL fixes in its source (kTransferMemSize, kWaitTransTime) and xferbench lets the
// environment set (XFERBENCH_HIXL_TOTAL, XFERBENCH_HIXL_WAIT, XFERBENCH_HIXL_TRANSPORT), read by
// the command, so the parser stays a pure function of its inputs.
// HIXL times each block size once; one pass is at the mercy of one page fault or scheduler
// hiccup, so xferbench times five and prints the median (the others are in the time series).
inline constexpr unsigned kHixlDefaultPasses = 5;

struct HixlSettings {
  std::uint64_t total = kXferDefaultTotal;
  std::chrono::seconds wait = kXferDefaultWait;
  // Timed passes per block size (XFERBENCH_HIXL_PASSES): the line prints the median one.
  unsigned passes = kHixlDefaultPasses;
  std::string transport;  // the plan's transport (the command resolves the default)
  std::string token;
  bool roce = false;  // HCCL_INTRA_ROCE_ENABLE=1: the network path instead of the intra-node one
};

// HCCL_INTRA_ROCE_ENABLE=1 on the UCX transport: UCX_TLS (unless the user set it) to the network
// transports, RDMA (rc,ud) where the machine has an RDMA device, else tcp. Empty otherwise: UCX
// picks the intra-node path (shared memory, cuda_ipc) for a peer on this node, as HCCS would be.
std::string hixl_ucx_tls(const HixlSettings& settings, bool rdma_here);

// The note after a client's lines (stderr): which path moved the data, from the transport's own
// account of its lanes ("ucx over tcp/lo"); `network_reason` says why it was the network path
// ("HCCL_INTRA_ROCE_ENABLE=1", "protocol roce"), empty for the intra-node path.
std::string render_hixl_path_note(const CaseResult& client_case, std::string_view network_reason);

// HIXL's argument names, as the xfer job's messages name them.
FlagWords hixl_flag_words();

// What the arguments said beyond the plan: the HIXL-CS form's protocol.
struct HixlForm {
  bool comm_res = false;      // the eight-argument form (LOCAL_COMM_RES REMOTE_COMM_RES)
  bool network_path = false;  // its protocol is roce: the network path, as HCCL_INTRA_ROCE_ENABLE=1
};

// `benchmark DEVICE_ID LOCAL_ENGINE REMOTE_ENGINE TCP_PORT MODE OP USE_BUFFER_POOL`, or HIXL-CS's
// `… MODE OP LOCAL_COMM_RES REMOTE_COMM_RES` (JSON: {"location": "host|device", "protocol":
// "hccs|roce|ub_ctp|ub_tp", "addr": "IP"}; no buffer pool; blocks 1M to 8M as its benchmark). The role
// follows from which engine carries a port: client (local `ip`, remote `ip:port`) or server
// (local `ip:port`, remote `ip`). Client: control to remote ip:TCP_PORT. Server: control on local
// ip:TCP_PORT, the transport on the local engine's ip:port. UsageError worded with HIXL's names.
// A ninth argument (the test case of HIXL-CS's exception benchmark, which injects faults) and the
// UB protocols are Unavailable: nothing here injects faults or speaks UB.
XferPlan parse_hixl(const std::vector<std::string>& args, const HixlSettings& settings, HixlForm* form = nullptr);

// "[INFO] Transfer success, block size: 8388608 Bytes, transfer num: 16, time cost: 1044 us,
//  throughput: 119.732 GB/s" with its newline, from one client case of the xfer job: the block
// (config), the metrics transfers, time_cost_median (printed in whole microseconds) and
// throughput_median (GiB/s, as HIXL's "GB/s", three decimals): the median of the timed passes.
std::string render_hixl_line(const CaseResult& client_case);

// The server's lines (HIXL's documentation shows none; see docs/xfer.md): once listening, and
// once its client is done.
std::string render_hixl_server_ready(std::uint16_t tcp_port, const std::string& engine);
std::string render_hixl_server_done(const CaseResult& server_case);

}  // namespace xb
