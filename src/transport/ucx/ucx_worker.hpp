#pragma once
// One UCP context and its single worker, shared (shared_ptr) by the transport and everything made
// from it, so the worker outlives every endpoint, listener, region and rkey whatever order their
// owners drop them in. It also holds the state UCX callbacks point at (peers, regions, requests in
// flight), so a callback that fires late never sees freed memory: the worker frees it last.
#include <ucp/api/ucp.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace xb::ucx {

// One endpoint's state. The error callback's argument; the active side's counters of the
// active-message protocol and the passive side's answers to its peer (ucx_am.hpp).
struct Peer {
  std::uint64_t id = 0;
  ucp_ep_h ep = nullptr;
  std::string name;               // the peer's address, for messages
  ucs_status_t failure = UCS_OK;  // set by the error callback (peer gone, connection refused)
  bool closing = false;           // ucp_ep_close_nbx called: never again, and no new operations
  // Active side: what this side asked of the peer and what came back.
  std::uint64_t puts_sent = 0;
  std::uint64_t gets_sent = 0;
  std::uint64_t gets_done = 0;
  std::uint64_t flush_sent = 0;  // token of the last flush request sent
  std::uint64_t flush_done = 0;  // token of the last flush reply received
  std::string remote_error;      // the first refusal the peer reported
  // Passive side: the peer's puts that have landed (or were refused), flushes waiting for them.
  std::uint64_t puts_done = 0;
  std::string refusal;  // the first refused request, sent back with the next flush reply
  struct WaitingFlush {
    std::uint64_t puts;
    std::uint64_t token;
  };
  std::vector<WaitingFlush> waiting_flushes;
};

// Registered memory, looked up by id when a peer's active message names it.
struct Region {
  std::byte* data = nullptr;
  std::size_t size = 0;
  ucp_mem_h memh = nullptr;
  bool open = true;        // false once its LocalRegion is gone: peers are refused
  unsigned replies = 0;    // get replies still reading it (the region waits for them)
  // A sysv/posix segment UCX allocated: a shared-memory peer maps it and copies on its own. Else
  // (memory registered as it is) UCX 1.13 reaches it over shared memory only by its emulation,
  // which needs this side's progress.
  bool mapped_by_peers = false;
};

// A request this side keeps until it completes (polled in progress()). `keep` holds what UCX reads
// until then: UCX 1.13 reads an active message's header (and our reply text) until completion.
struct PendingOp {
  enum class Kind { put_landed, get_landed, reply_sent } kind;
  void* request = nullptr;
  std::uint64_t peer = 0;
  std::uint64_t region = 0;  // reply_sent: the region the reply reads (0: none)
  std::shared_ptr<const void> keep;
};

class Worker {
 public:
  // ucp_init (RMA | AM | WAKEUP, UCX_* from the environment) and one single-threaded worker.
  // Throws Unavailable with UCX's message when UCX cannot start here.
  Worker();
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  ucp_context_h context() const { return context_; }
  ucp_worker_h handle() const { return worker_; }
  // The memory types other than host this context can register (ucp_context_query's
  // memory_types, UCX's names: "cuda", "rocm", ...): empty for a UCX built without GPU support.
  std::vector<std::string> device_memory_types() const;
  // The worker's address (ucp_worker_get_address), for the peer's ucp_ep_create.
  std::vector<std::uint8_t> address() const;

  // ucp_worker_progress until idle, then the completions and deferred sends it produced.
  bool progress();
  // Sleeps on the worker's event fd (ucp_worker_arm + poll) up to `timeout`, unless work is ready.
  // It polls a moment first within a moment of the last work found (a peer mid-transfer) or while
  // a region peers cannot map is open: UCX's shared-memory emulation does not signal the event fd.
  void wait(std::chrono::milliseconds timeout);
  // Progresses (busy, yielding when idle) until `done()` or the deadline; returns done().
  bool progress_until(const std::function<bool()>& done, std::chrono::steady_clock::time_point deadline);

  std::uint64_t add_region(std::byte* data, std::size_t size, ucp_mem_h memh, bool mapped_by_peers);
  // Open regions only, unless include_closed (a reply finishing with a region being closed).
  Region* find_region(std::uint64_t id, bool include_closed = false);
  // Refuses new requests for the region, waits (bounded) for replies reading it, then forgets it.
  void close_region(std::uint64_t id);

  Peer& add_peer(std::string name);
  Peer* find_peer(std::uint64_t id);
  Peer* find_peer(ucp_ep_h ep);
  // Closes the peer's endpoint (ucp_ep_close_nbx: flush mode, force when it failed), bounded.
  void close_peer(std::uint64_t id, std::chrono::milliseconds bound);
  std::vector<const Peer*> live_peers() const;

  void track(PendingOp op) { pending_.push_back(op); }
  // Work to run from progress(), outside UCX callbacks (sends answering a peer).
  void defer(std::function<void()> work) { deferred_.push_back(std::move(work)); }
  // Keeps a request whose completion nobody waits for any more (a timed-out flush or close), so
  // it is freed with the worker rather than leaked.
  void abandon(void* request) { abandoned_.push_back(request); }

  // The lanes and data path of the last endpoint that chose one, for info() once none is left.
  struct Observed {
    std::string lanes;
    std::string protocol;
  };
  Observed observed;

  // The error callback of every endpoint (argument: its Peer).
  static void on_endpoint_error(void* arg, ucp_ep_h ep, ucs_status_t status);

 private:
  void complete_pending();
  // Whether a peer's put/get may need this side's progress without waking the event fd.
  bool peers_may_need_polling() const;
  void run_deferred();

  ucp_context_h context_ = nullptr;
  ucp_worker_h worker_ = nullptr;
  int event_fd_ = -1;
  std::chrono::steady_clock::time_point last_work_{};  // when progress() last found something
  std::uint64_t next_region_ = 1;
  std::uint64_t next_peer_ = 1;
  std::map<std::uint64_t, Region> regions_;
  std::map<std::uint64_t, std::unique_ptr<Peer>> peers_;
  std::vector<PendingOp> pending_;
  std::vector<std::function<void()>> deferred_;
  std::vector<void*> abandoned_;
};

}  // namespace xb::ucx
