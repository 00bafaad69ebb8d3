#pragma once
// The hixl_comm_bench dialect (hicann/hixl benchmarks/comm_benchmark): its key=value command line
// in, its [INFO]/[RESULT] lines and its CSV/JSONL rows out. A thin translator: argv -> XferPlan
// (target: the xfer server, --peer_count clients at once; initiator: the xfer client, one worker
// per --remote_engine), the job's cases -> lines and rows. No measurement here (docs/xfer.md).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "jobs/xfer/xfer_plan.hpp"

namespace xb {

struct HixlCommBenchRequest {
  XferPlan plan;                       // role, control (target: --local_engine), mode, op, blocks, total, iters
  std::vector<SocketAddress> remotes;  // initiator: --remote_engine, one worker each
  std::string group = "default";       // --group: the CSV's pattern column
  std::string transport = "hccs";      // --transport as given
  bool network_path = false;           // roce: the network path (UCX's network transports)
  std::string memory = "device", remote_memory = "device", op = "read";
  std::string local_engine, remote_engine;  // as given, for the [INFO] line
  int device = 0;
  std::uint64_t buffer_size = std::uint64_t{1} << 30;
  unsigned async_batch = 1;
  bool use_async = false;
  unsigned peer_count = 1;
  std::filesystem::path output_dir = "output";
};

// The launcher's pattern words for what one process does (one_to_many: an initiator with several
// remotes; many_to_one: a target with several peers), and HIXL's direction name: D2rD, rD2D, …
std::string hixl_comm_direction(const HixlCommBenchRequest& r);

// Parses `--key=value` arguments (and the short aliases -r -o -d -l -e -w -c -t -n -x -y -C -H).
// -h/--help: HelpRequested. Bad input: UsageError with HIXL's words where it has them ("Expected
// key=value, got: …"). What needs hardware or protocols absent here (ub, fabric_mem, uboe, ub_rtp,
// several devices per process, op=mix) is Unavailable.
HixlCommBenchRequest parse_hixl_comm_bench(const std::vector<std::string>& args);
std::string hixl_comm_bench_usage();

// "[INFO] role=initiator group=… loops=N" / "[INFO] role=target …" with the newline.
std::string render_hixl_comm_start(const HixlCommBenchRequest& r);
// "[RESULT] throughput summary: 16 KiB=26.844 GB/s, 32 KiB=…" (", remote=I" before the colon when
// several remotes): each block size's mean over the loops, decimal GB/s.
std::string render_hixl_comm_summary(const std::vector<CaseResult>& cases, int remote, bool several);
// "16 KiB", "2 MiB", "1 GiB", "100 B": HIXL's FormatBlockSizeHuman.
std::string hixl_block_label(std::uint64_t bytes);

// The CSV header and one row per loop of a block size's case, and the JSONL objects.
inline constexpr const char* kHixlCommCsvHeader =
    "benchmark,pattern,model,token_length,block_size,batch_size,threads,transport,direction,initiator_memory,"
    "target_memory,bandwidth_gbps,ops_per_sec,avg_latency_us,p99_us,error_count,consistency";
std::vector<std::string> hixl_comm_csv_rows(const HixlCommBenchRequest& r, const CaseResult& c);
std::vector<std::string> hixl_comm_jsonl_rows(const HixlCommBenchRequest& r, const CaseResult& c);

}  // namespace xb
