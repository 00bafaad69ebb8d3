#pragma once
// The one job contract: every job is `run(const XPlan&, JobContext&)` (an overload per plan type,
// declared in the job's header) and returns its cases. The plan says what to measure; the context
// says with what and to whom: the backend, the ranks, where each case goes as it completes, where
// progress is shown. A job makes whatever else it needs itself (copy forks its own ranks): no caller
// builds launchers or sizes result slots. Nothing here formats anything.
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
  // Every backend this program has (the survey walks them all); may be null for a job that uses
  // only `backend` (a server thread of a job, a test).
  BackendRegistry* registry = nullptr;
  // The backend the plan runs on, chosen by the caller from `registry` (BackendRegistry::choose),
  // which validated the plan against it. Null for a run that touches no device (io --xfer cpu, kv dump).
  Backend* backend = nullptr;
  // The ranks this process is one of, started outside it (MPI ranks, two nodes met over TCP or a
  // shared directory): cross-node p2p, fleet. Null: this process alone.
  Runtime* runtime = nullptr;
  // How a job that starts its own ranks starts them (copy: one per device). Null: the job's own
  // (forked processes); a test passes one that counts or injects ranks.
  Launcher* launcher = nullptr;
  // The communicator the coll job times its collectives on (MPI's, for the group layout asked for).
  CollectiveGroup* collectives = nullptr;
  CaseSink on_case{};                // each case as it completes, in completion order (may be empty)
  ProgressLine* progress = nullptr;  // where the job says what it is doing (may be null)
  std::ostream* log = nullptr;       // where a server reports refused connections and sessions (may be null)
  // A server: called once its addresses are bound, before it waits for a client (a ready file, the
  // "serving on" line). May be empty.
  std::function<void(const SocketAddress& control, const SocketAddress& data)> on_listening{};
  // Set when the run must stop (a signal: cli/partial_results): the job stops at its next check
  // (core/stop.hpp) and unwinds, releasing its devices' resources. Default: never.
  std::stop_token stop{};

  // What a job needs, set: a missing one is the caller's bug, named with the job.
  Backend& need_backend(const char* job) const { return need(backend, job, "backend"); }
  BackendRegistry& need_registry(const char* job) const { return need(registry, job, "registry"); }
  Runtime& need_runtime(const char* job) const { return need(runtime, job, "runtime"); }
  CollectiveGroup& need_collectives(const char* job) const { return need(collectives, job, "collectives"); }
  // Hands a completed case to on_case, when set.
  void emit(const CaseResult& c) const {
    if (on_case) on_case(c);
  }

 private:
  template <class T>
  static T& need(T* set, const char* job, const char* field) {
    if (set == nullptr) throw std::logic_error(std::string(job) + ": JobContext." + field + " is not set");
    return *set;
  }
};

}  // namespace xb
