#pragma once
// Threads of one process run together and joined: every job that drives several threads (io, kv,
// the xfer fan-out and multi-client server, p2p's dies of a card) starts them here, so a thread
// that throws or cannot be started never leaves the others unjoined or its error lost.
#include <atomic>
#include <cstddef>
#include <functional>
#include <latch>

namespace xb {

// Runs body(i) for i in [0, count) on threads of their own, and `meanwhile` (if set) on the
// calling thread, and returns when all have finished. What a body (or `meanwhile`) throws is kept;
// once every thread is joined the first thrown is rethrown (the cause: a thread that failed at once
// makes the others fail later, waiting for what it never did).
void run_threads(std::size_t count, const std::function<void(std::size_t index)>& body,
                 const std::function<void()>& meanwhile = {});

// run_threads for workers released together, the in-process twin of the fork launcher's barrier:
// each body calls start.arrive_and_wait() once, when it is ready to be timed (`start` counts
// `count`). If a thread cannot be started, `stop` is raised, the threads already waiting are
// released (they must check `stop`), all are joined and the error is rethrown.
void run_thread_team(std::size_t count, std::latch& start, std::atomic<bool>& stop,
                     const std::function<void(std::size_t index)>& body);

}  // namespace xb
