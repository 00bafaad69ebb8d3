#pragma once
// The one job contract: every job is `run(const XPlan&, JobContext&)` (an overload per plan type,
// declared in the job's header) and returns its cases. The plan says what to measure; the context
// says with what and to whom: the backend the caller chose from the registry, the ranks the run
// spans, where each case goes as it completes, and where progress is shown. A job makes whatever
// else it needs itself (copy forks its own ranks, sized by its plan): no caller builds launchers or
// sizes result slots. Nothing here formats anything.
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <stop_token>
#include <string>

#include "backends/registry.hpp"
#include "core/case_sink.hpp"
#include "core/progress_line.hpp"
#include "core/result.hpp"
#include "runtime/collectives.hpp"
#include "runtime/runtime.hpp"
#include "transport/address.hpp"

namespace xb {

struct JobContext {
  // Every backend this program has (the survey walks them all). May be null for a job that uses
  // only `backend` (a server thread of a job, a test).
  BackendRegistry* registry = nullptr;
  // The backend the plan runs on, chosen by the caller from `registry` (BackendRegistry::choose:
  // by name, or the preferred one), which validated the plan against it. Null for a run that
  // touches no device (io --xfer cpu, a kv dump).
  Backend* backend = nullptr;
  // The ranks this process is one of, for a job whose ranks were started outside it (MPI ranks,
  // two nodes met over TCP or a shared directory): cross-node p2p, fleet. Null: this process alone.
  Runtime* runtime = nullptr;
  // How a job that starts its own ranks starts them (copy: one per device). Null: the job's own
  // (forked processes); a test passes one that counts or injects ranks.
  Launcher* launcher = nullptr;
  // The communicator the coll job times its collectives on (MPI's, made by the caller for the
  // group layout it was asked for).
  CollectiveGroup* collectives = nullptr;
  // Each case as it completes, in completion order (may be empty).
  CaseSink on_case{};
  // Where the job says what it is doing (may be null: nobody watches).
  ProgressLine* progress = nullptr;
  // Where a server reports refused connections and sessions (may be null: nowhere).
  std::ostream* log = nullptr;
  // A server: called once its addresses are bound, before it waits for a client (a ready file, the
  // "serving on" line). May be empty.
  std::function<void(const SocketAddress& control, const SocketAddress& data)> on_listening{};
  // Set when the run must stop (a signal: cli/partial_results): the job stops at its next check
  // (core/stop.hpp) and unwinds, releasing its devices' resources. Default: never.
  std::stop_token stop{};

  // The backend, for a job that needs one: a missing one is the caller's bug, named with the job.
  Backend& need_backend(const char* job) const {
    if (backend == nullptr) throw std::logic_error(std::string(job) + ": JobContext.backend is not set");
    return *backend;
  }
  // The registry, for a job that walks every backend.
  BackendRegistry& need_registry(const char* job) const {
    if (registry == nullptr) throw std::logic_error(std::string(job) + ": JobContext.registry is not set");
    return *registry;
  }
  // The ranks, for a job that runs across them: a missing runtime is the caller's bug.
  Runtime& need_runtime(const char* job) const {
    if (runtime == nullptr) throw std::logic_error(std::string(job) + ": JobContext.runtime is not set");
    return *runtime;
  }
  // Hands a completed case to on_case, when set.
  void emit(const CaseResult& c) const {
    if (on_case) on_case(c);
  }
};

}  // namespace xb
