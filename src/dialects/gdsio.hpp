#pragma once
// The gdsio dialect (NVIDIA GPUDirect Storage's benchmark): its command line in, its one-line
// summary out. A thin translator: argv -> IoPlan, run the io job, CaseResult -> gdsio's line. No
// measurement here.
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "jobs/io/io_job.hpp"
#include "jobs/io/io_plan.hpp"

namespace xb {

struct GdsioRequest {
  IoPlan plan;  // the run -I asks for; -V on a read run verifies it
  // -V on a write run: gdsio writes, prints "Verifying data", then reads the same files back with
  // verification and prints that run's line too.
  bool verify_after_write = false;
};

// gdsio's flags as the io job's messages name them (-w, -s, -i, -x, -d, …).
IoFlagNames gdsio_flag_names();

// Parses gdsio arguments (after the program/subcommand name): UsageError naming the flag. The
// engine is left empty for the caller (best_gdsio_engine), as it is a property of the machine.
GdsioRequest parse_gdsio(const std::vector<std::string>& args);

// gdsio's engine here: the best this kernel allows (io_uring, else libaio, else psync), at queue
// depth 1 per thread as gdsio's threads keep one IO each in flight.
std::string best_gdsio_engine();

// The read-back run of -V after a write: the same files, sizes and transfer type, read (randread
// after randwrite) with verification.
IoPlan gdsio_readback_plan(const IoPlan& write_plan);

// gdsio's names: READ/WRITE/RANDREAD/RANDWRITE and GPUD/CPUONLY/CPU_GPU.
std::string_view gdsio_io_type(IoPattern pattern);
std::string_view gdsio_xfer_type(IoTransfer transfer);

// gdsio's line (with its newline), from an io job result:
// "IoType: WRITE XferType: CPUONLY Threads: 4 DataSetSize: 4156416/4194304(KiB) IOSize: 1024(KiB)
//  Throughput: 1.049312 GiB/sec, Avg_Latency: 3721.307952 usecs ops: 4059 total_time 3.777586 secs"
// DataSetSize is KiB moved / KiB asked for (threads x size); the figures are the result's metrics
// throughput, latency_avg, ops and wall_time.
std::string render_gdsio(const CaseResult& result);

}  // namespace xb
