#pragma once
// Worker threads of one process released together: the in-process twin of the fork launcher's
// barrier, shared by the jobs that drive several threads (io, kv).
#include <atomic>
#include <cstddef>
#include <functional>
#include <latch>

namespace xb {

// Runs body(i) for i in [0, count) on threads of their own and returns when all have finished.
// Each body calls start.arrive_and_wait() once, when it is ready to be timed (`start` counts
// `count`). If a thread cannot be started, `stop` is raised, the threads already waiting are
// released (they must check `stop`), all are joined and the error is rethrown.
void run_thread_team(std::size_t count, std::latch& start, std::atomic<bool>& stop,
                     const std::function<void(std::size_t index)>& body);

}  // namespace xb
