#pragma once
// Tests run a job through its one contract, run(const Plan&, JobContext&) (jobs/job_context.hpp),
// with only what the test gives in the context: the backend, and for copy a launcher that counts or
// injects ranks. The job's own header must be included before this is used (run is found by the
// plan's namespace).
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/case_sink.hpp"
#include "core/result.hpp"
#include "jobs/job_context.hpp"

namespace xb::test {

// Every case the job returns; `on_case` sees each as it completes.
template <typename Plan>
std::vector<CaseResult> run_job(const Plan& plan, Backend* backend, CaseSink on_case = {}, Launcher* launcher = nullptr) {
  JobContext job{.backend = backend, .launcher = launcher, .on_case = std::move(on_case)};
  return run(plan, job);
}

// The one case of a job that makes one (copy, io, kv); a job that returned another number of cases
// fails the test's call.
template <typename Plan>
CaseResult run_one(const Plan& plan, Backend* backend = nullptr, Launcher* launcher = nullptr) {
  std::vector<CaseResult> cases = run_job(plan, backend, {}, launcher);
  if (cases.size() != 1) throw std::logic_error("expected one case, the job returned " + std::to_string(cases.size()));
  return std::move(cases.front());
}

}  // namespace xb::test
