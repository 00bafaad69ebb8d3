#pragma once
// The figures of one block size as its CaseResult (job "xfer"): series, metrics and configuration.
// The throughput formula lives here once: the job and the HIXL dialect's golden test both use it.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/histogram.hpp"
#include "core/result.hpp"
#include "jobs/xfer/xfer_plan.hpp"
#include "transport/transport.hpp"

namespace xb {

// HIXL's throughput: block × transfers / time, in GiB/s (2^30 B/s); `time_us` in microseconds.
double xfer_throughput_gib_per_s(std::uint64_t block, std::uint64_t transfers, double time_us);

// What one block size measured.
struct XferMeasurement {
  std::uint64_t block = 0;
  std::uint64_t transfers = 0;
  std::vector<double> time_us;  // one per timed pass: every transfer queued, then one completion wait
  LatencyHistogram latency;     // ns per transfer, each moved alone (empty when the pass is off)
  bool verified = false;        // --verify checked this block size's data
};

// Where the run happened, the same for every block size of it.
struct XferSetting {
  TransportInfo transport;
  std::string peer;                // the server's control address
  std::string server;              // the server's description (session)
  std::string remote_memory;       // the server's region (ExposedMemory::description)
  std::string local_memory;        // the client's (EndpointMemory::description)
  std::string backend;
  int device = 0;
  std::string device_name;
  nlohmann::json mover;            // how the data moved: direct registration or the staging pool
  std::string device_path;         // client device memory: "registered" or "staged … : WHY"; else empty
};

CaseResult xfer_case_result(const XferPlan& plan, const XferSetting& setting, const XferMeasurement& m);

}  // namespace xb
