#pragma once
// The gdsio dialect (NVIDIA GPUDirect Storage's benchmark): its command line or job file in, its
// one-line summary out. A thin translator: argv -> IoPlan, run the io job, CaseResult -> gdsio's
// line. No measurement here. docs/gdsio.md maps every option.
#include <string>
#include <string_view>
#include <vector>

#include "core/plan_error.hpp"
#include "core/result.hpp"
#include "jobs/io/io_job.hpp"
#include "jobs/io/io_plan.hpp"

namespace xb {

struct GdsioRequest {
  IoPlan plan;  // the run -I asks for; -V on a read run verifies it
  // -V on a write run: gdsio writes, prints "Verifying data", then reads the same files back with
  // verification and prints that run's line too.
  bool verify_after_write = false;
  // Set: what this machine lacks for the run (exit 3 with this line once the plan is otherwise valid).
  std::string missing;
  // Lines for stderr after gdsio's own output: what an option did here that gdsio would do otherwise.
  std::vector<std::string> notes;
  int memory_type = 0;       // -m (0 cudaMalloc, 1 cuMem, 2 cudaMallocHost, 3 malloc, 4 mmap)
  unsigned batch_size = 0;   // -B (0: not given)
  bool nvlinks = false;      // -p
  bool per_job_stats = false;  // -J
};

// gdsio's flags as the io job's messages name them (-w, -s, -i, -x, -d, …).
FlagWords gdsio_flag_words();

// Parses gdsio arguments (after the program/subcommand name): UsageError naming the flag. The
// engine is left empty for the caller (best_io_engine, at gdsio's one IO in flight per thread), as
// it is a property of the machine.
// The defaults where an option is left out: -x 0 (GPUD), -I 0 (read), -i 4K, -w 1, -d 0, -o 0, -T
// one pass; -s the existing file's size for a read (required to write).
GdsioRequest parse_gdsio(const std::vector<std::string>& args);

// A gdsio job file (`gdsio rw-sample.gdsio`): an ini text of a [global] section and one section per
// job, each job's keys on top of the global ones, translated to the options above and parsed by
// parse_gdsio. `name` names the file in messages: UsageError "FILE line N: ...".
std::vector<GdsioRequest> parse_gdsio_job_file(std::string_view text, const std::string& name);
// Whether gdsio's only argument is a job file rather than an option (a readable regular file whose
// name does not start with '-').
bool is_gdsio_job_file(const std::vector<std::string>& args);

// The read-back run of -V after a write: the same files, sizes and transfer type, read (randread
// after randwrite) with verification; the same seed, so independent random offsets (-a, -U) read
// exactly what was written.
IoPlan gdsio_readback_plan(const IoPlan& write_plan);

// gdsio's names: READ/WRITE/RANDREAD/RANDWRITE (RW/RANDRW for a mixed -M run) and GPUD, CPUONLY,
// CPU_GPU, CPU_ASYNC_GPU, CPU_CACHED_GPU, GPU_ASYNC, GPU_BATCH, GPU_BATCH_STREAM.
std::string_view gdsio_io_type(IoPattern pattern, bool mixed = false);
std::string_view gdsio_xfer_type(IoTransfer transfer);

// gdsio's line (with its newline), from an io job result:
// "IoType: WRITE XferType: CPUONLY Threads: 4 DataSetSize: 4156416/4194304(KiB) IOSize: 1024(KiB)
//  Throughput: 1.049312 GiB/sec, Avg_Latency: 3721.307952 usecs ops: 4059 total_time 3.777586 secs"
// DataSetSize is KiB moved / KiB asked for (the data set: threads x size with -D, the size with -f);
// IOSize the IO size (the mean of the sizes moved when they were drawn from a range); the figures
// are the result's metrics throughput, latency_avg, ops and wall_time.
std::string render_gdsio(const CaseResult& result);

}  // namespace xb
