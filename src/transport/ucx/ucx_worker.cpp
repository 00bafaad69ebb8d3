#include "transport/ucx/ucx_worker.hpp"

#include <poll.h>
#include <ucs/debug/log_def.h>
#include <ucs/memory/memory_type.h>

#include <array>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <initializer_list>
#include <string_view>
#include <thread>
#include <fmt/format.h>

#include "core/error.hpp"
#include "transport/transport.hpp"
#include "transport/ucx/ucx_am.hpp"
#include "transport/ucx/ucx_status.hpp"

namespace xb::ucx {
namespace {

// How long a region waits for the get replies still reading it, and the worker for endpoints
// closing when it goes. Bounded so a vanished peer cannot hang a destructor.
constexpr std::chrono::milliseconds kDrainBound{2000};
// Idle progress rounds before progress_until yields the CPU.
constexpr int kSpinRounds = 64;
// How long after the last work found wait() keeps polling before it sleeps on the event fd.
constexpr std::chrono::microseconds kSpinAfterWork{1000};

// Whether UCX_TLS lets any of `names` in (unset, "^…" exclusions and "all" let everything in):
// setting options of a transport that is left out draws UCX's "invalid configuration" warning.
bool tls_allows(std::initializer_list<std::string_view> names) {
  const char* tls = std::getenv("UCX_TLS");
  if (tls == nullptr || *tls == '\0' || *tls == '^') return true;
  std::string_view list(tls);
  while (!list.empty()) {
    const auto comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    if (name == "all") return true;
    for (std::string_view allowed : names) {
      if (name == allowed) return true;
    }
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return false;
}
bool shared_memory_allowed() { return tls_allows({"sm", "shm", "mm", "posix", "sysv"}); }

// Sets UCX option `name` to `value` unless the user set the variable `env` (UCX_<name> unless
// given): theirs wins. A transport's option is named without its table prefix ("TX_SEG_SIZE" for
// UCX_TCP_TX_SEG_SIZE): ucp_config_modify keeps it and applies it to the interfaces that have it.
void set_default(ucp_config_t* config, const char* name, const char* value, const char* env = nullptr) {
  if (std::getenv(env != nullptr ? env : fmt::format("UCX_{}", name).c_str()) != nullptr) return;
  const ucs_status_t status = ucp_config_modify(config, name, value);
  if (status != UCS_OK) {
    ucp_config_release(config);
    throw Unavailable("ucx: " + failure_text(fmt::format("ucp_config_modify({}={})", name, value), status));
  }
}

// UCX writes its log lines (warnings by default) to stdout unless UCX_LOG_FILE names a file, which
// mixes them into results printed there (--format json). UCX reads UCX_LOG_FILE once, when the
// library loads, so the transport cannot change it; it pushes a log handler that writes to stderr
// instead (UCX calls the handler pushed last first, and ours stops the rest), unless the user set
// UCX_LOG_FILE. The level stays UCX_LOG_LEVEL's (warn unless set).
ucs_log_func_rc_t log_to_stderr(const char* file, unsigned line, const char* /*function*/, ucs_log_level_t level,
                                const ucs_log_component_config_t* component, const char* message, va_list ap) {
  if (level > component->log_level && level != UCS_LOG_LEVEL_PRINT) return UCS_LOG_FUNC_RC_CONTINUE;
  std::array<char, 1024> text{};
  std::vsnprintf(text.data(), text.size(), message, ap);
  const char* slash = std::strrchr(file, '/');
  std::fprintf(stderr, "[UCX %s] %s:%u %s\n", ucs_log_level_names[level], slash != nullptr ? slash + 1 : file, line,
               text.data());
  return UCS_LOG_FUNC_RC_STOP;
}

void route_ucx_log_to_stderr() {
  // Once per process: UCX's handler table is itself process-wide, and this never changes after.
  static const bool pushed = [] {
    if (std::getenv("UCX_LOG_FILE") == nullptr) ucs_log_push_handler(&log_to_stderr);
    return true;
  }();
  (void)pushed;
}

}  // namespace

Worker::Worker() {
  route_ucx_log_to_stderr();
  ucp_config_t* config = nullptr;
  ucs_status_t status = ucp_config_read(nullptr, nullptr, &config);
  if (status != UCS_OK) throw Unavailable("ucx: " + failure_text("ucp_config_read", status));
  // Shared-memory transports take part in endpoints with peer-failure detection only when asked
  // (UCX 1.13 leaves them out otherwise, and UCX_TLS=posix,sysv,... would have no lane at all).
  // The user's own UCX_MM_ERROR_HANDLING wins.
  if (shared_memory_allowed()) set_default(config, "MM_ERROR_HANDLING", "y");
  // Over tcp, UCX 1.13 sends an active message's rendezvous data in TX_SEG_SIZE fragments (8 KiB
  // by default, one send() each) into RX_SEG_SIZE receive segments: 64 KiB and 256 KiB carried
  // 8 MiB puts about 1.35x faster here (docs/ucx.md, "tcp").
  if (tls_allows({"tcp"})) {
    set_default(config, "TX_SEG_SIZE", "64k", "UCX_TCP_TX_SEG_SIZE");
    set_default(config, "RX_SEG_SIZE", "256k", "UCX_TCP_RX_SEG_SIZE");
  }
  ucp_params_t params{};
  params.field_mask = UCP_PARAM_FIELD_FEATURES;
  params.features = UCP_FEATURE_RMA | UCP_FEATURE_AM | UCP_FEATURE_WAKEUP;
  status = ucp_init(&params, config, &context_);
  ucp_config_release(config);
  if (status != UCS_OK) throw Unavailable("ucx: " + failure_text("ucp_init", status));

  ucp_worker_params_t worker_params{};
  worker_params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  worker_params.thread_mode = UCS_THREAD_MODE_SINGLE;
  status = ucp_worker_create(context_, &worker_params, &worker_);
  if (status != UCS_OK) {
    ucp_cleanup(context_);
    throw Unavailable("ucx: " + failure_text("ucp_worker_create", status));
  }
  try {
    check(ucp_worker_get_efd(worker_, &event_fd_), "ucp_worker_get_efd");
    register_am_handlers(*this);
  } catch (...) {
    ucp_worker_destroy(worker_);
    ucp_cleanup(context_);
    throw;
  }
}

Worker::~Worker() {
  // Endpoints whose owners are gone but whose close never finished (or never started).
  for (auto& [id, peer] : peers_) {
    if (peer->ep == nullptr || peer->closing) continue;
    ucp_request_param_t param{};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_EP_CLOSE_FLAG_FORCE;
    void* request = ucp_ep_close_nbx(peer->ep, &param);
    if (UCS_PTR_IS_PTR(request)) abandon(request);
    peer->ep = nullptr;
  }
  for (auto& op : pending_) {
    ucp_request_cancel(worker_, op.request);
    ucp_request_free(op.request);
  }
  for (void* request : abandoned_) ucp_request_free(request);
  for (auto& [id, region] : regions_) ucp_mem_unmap(context_, region.memh);
  ucp_worker_destroy(worker_);
  ucp_cleanup(context_);
}

std::vector<std::string> Worker::device_memory_types() const {
  ucp_context_attr_t attr{};
  attr.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES;
  check(ucp_context_query(context_, &attr), "ucp_context_query(memory_types)");
  std::vector<std::string> out;
  for (int type = UCS_MEMORY_TYPE_HOST + 1; type < UCS_MEMORY_TYPE_LAST; ++type) {
    if ((attr.memory_types & (std::uint64_t{1} << type)) != 0) out.emplace_back(ucs_memory_type_names[type]);
  }
  return out;
}

std::vector<std::uint8_t> Worker::address() const {
  ucp_address_t* address = nullptr;
  std::size_t length = 0;
  check(ucp_worker_get_address(worker_, &address, &length), "ucp_worker_get_address");
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(address);
  std::vector<std::uint8_t> out(bytes, bytes + length);
  ucp_worker_release_address(worker_, address);
  return out;
}

bool Worker::progress() {
  bool any = false;
  while (ucp_worker_progress(worker_) != 0) any = true;
  if (!pending_.empty()) {
    const std::size_t before = pending_.size();
    complete_pending();
    any = any || pending_.size() != before;
  }
  if (!deferred_.empty()) {
    run_deferred();
    any = true;
  }
  if (any) last_work_ = std::chrono::steady_clock::now();
  return any;
}

void Worker::complete_pending() {
  std::vector<std::pair<PendingOp, ucs_status_t>> done;
  std::erase_if(pending_, [&](const PendingOp& op) {
    const ucs_status_t status = ucp_request_check_status(op.request);
    if (status == UCS_INPROGRESS) return false;
    ucp_request_free(op.request);
    done.emplace_back(op, status);
    return true;
  });
  // Completions may queue more work (flush replies): run them after the list is consistent.
  for (const auto& [op, status] : done) am_complete(*this, op, status);
}

void Worker::run_deferred() {
  std::vector<std::function<void()>> work;
  work.swap(deferred_);
  for (auto& w : work) w();
}

void Worker::wait(std::chrono::milliseconds timeout) {
  if (!deferred_.empty()) return;
  // Poll a moment before sleeping where a peer may need it: not every UCX transport signals the
  // event fd for everything a passive side must serve (shared-memory RMA emulation into memory
  // registered as it is does not wake it here), and a peer in the middle of a transfer sends again
  // within microseconds. Otherwise sleep at once: a peer's put/get into a segment UCX allocated is
  // its own copy, and polling then only takes the CPU from that peer (measured on a 2-core machine:
  // a server polling a third of each 2 ms serving slice held xfer's get to 0.6 of ucx_perftest's,
  // whose server sleeps).
  const auto now = std::chrono::steady_clock::now();
  if (now - last_work_ < kSpinAfterWork || peers_may_need_polling()) {
    const auto spin_until = now + std::min<std::chrono::microseconds>(kSpinAfterWork, timeout);
    do {
      if (progress()) return;
    } while (std::chrono::steady_clock::now() < spin_until);
  }
  const ucs_status_t status = ucp_worker_arm(worker_);
  if (status == UCS_ERR_BUSY) return;  // events already pending: the caller progresses again
  check(status, "ucp_worker_arm");
  pollfd fd{event_fd_, POLLIN, 0};
  const int rc = ::poll(&fd, 1, static_cast<int>(timeout.count()));
  if (rc < 0 && errno != EINTR) throw_errno("poll(ucp worker event fd)");
}

bool Worker::progress_until(const std::function<bool()>& done, std::chrono::steady_clock::time_point deadline) {
  // Busy progress, as UCX's own benchmarks do: the event fd is not signalled when send resources
  // free up (a full shared-memory FIFO), so a side with data still to push must never sleep on it.
  // It yields the CPU when idle, which the peer on the same machine may need.
  int idle = 0;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return done();
    if (progress()) {
      idle = 0;
    } else if (++idle >= kSpinRounds) {
      std::this_thread::yield();
      idle = 0;
    }
  }
  return true;
}

std::uint64_t Worker::add_region(std::byte* data, std::size_t size, ucp_mem_h memh, bool mapped_by_peers) {
  const std::uint64_t id = next_region_++;
  regions_.emplace(id, Region{data, size, memh, true, 0, mapped_by_peers});
  return id;
}

bool Worker::peers_may_need_polling() const {
  for (const auto& [id, region] : regions_) {
    if (region.open && !region.mapped_by_peers) return true;
  }
  return false;
}

Region* Worker::find_region(std::uint64_t id, bool include_closed) {
  auto it = regions_.find(id);
  return it != regions_.end() && (it->second.open || include_closed) ? &it->second : nullptr;
}

void Worker::close_region(std::uint64_t id) {
  auto it = regions_.find(id);
  if (it == regions_.end()) return;
  it->second.open = false;
  Region& region = it->second;
  progress_until([&] { return region.replies == 0; }, std::chrono::steady_clock::now() + kDrainBound);
  if (region.replies != 0) return;  // a reply still reads it: unmapped with the worker
  ucp_mem_unmap(context_, region.memh);
  regions_.erase(id);
}

Peer& Worker::add_peer(std::string name) {
  auto peer = std::make_unique<Peer>();
  peer->id = next_peer_++;
  peer->name = std::move(name);
  Peer& ref = *peer;
  peers_.emplace(ref.id, std::move(peer));
  return ref;
}

Peer* Worker::find_peer(std::uint64_t id) {
  auto it = peers_.find(id);
  return it == peers_.end() ? nullptr : it->second.get();
}

Peer* Worker::find_peer(ucp_ep_h ep) {
  for (auto& [id, peer] : peers_) {
    if (peer->ep == ep && ep != nullptr) return peer.get();
  }
  return nullptr;
}

void Worker::close_peer(std::uint64_t id, std::chrono::milliseconds bound) {
  Peer* peer = find_peer(id);
  if (peer == nullptr) return;
  if (peer->ep != nullptr) {
    ucp_request_param_t param{};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    // Flush mode lets queued operations finish; a failed endpoint can only be closed by force.
    param.flags = peer->failure == UCS_OK ? 0 : UCP_EP_CLOSE_FLAG_FORCE;
    peer->closing = true;
    void* request = ucp_ep_close_nbx(peer->ep, &param);
    if (UCS_PTR_IS_PTR(request)) {
      const bool closed = progress_until([&] { return ucp_request_check_status(request) != UCS_INPROGRESS; },
                                         std::chrono::steady_clock::now() + bound);
      if (!closed) {
        // The error callback may still fire with this Peer: keep it until the worker goes.
        abandon(request);
        peer->failure = peer->failure == UCS_OK ? UCS_ERR_CANCELED : peer->failure;
        return;
      }
      ucp_request_free(request);
    }
    peer->ep = nullptr;
  }
  peers_.erase(id);
}

std::vector<const Peer*> Worker::live_peers() const {
  std::vector<const Peer*> out;
  for (const auto& [id, peer] : peers_) {
    if (peer->ep != nullptr && !peer->closing) out.push_back(peer.get());
  }
  return out;
}

void Worker::on_endpoint_error(void* arg, ucp_ep_h, ucs_status_t status) {
  auto* peer = static_cast<Peer*>(arg);
  if (peer->failure == UCS_OK) peer->failure = status;
}

}  // namespace xb::ucx
