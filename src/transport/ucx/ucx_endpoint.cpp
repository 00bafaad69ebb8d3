#include "transport/ucx/ucx_endpoint.hpp"

#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <typeinfo>

#include "core/range.hpp"
#include "transport/ucx/ucx_am.hpp"
#include "transport/ucx/ucx_bootstrap.hpp"
#include "transport/ucx/ucx_region.hpp"
#include "transport/ucx/ucx_status.hpp"

namespace xb::ucx {
namespace {

// How long a closing endpoint waits for its operations in flight, then for ucp_ep_close_nbx.
constexpr std::chrono::milliseconds kCloseBound{2000};
// Requests kept before put/get reap the completed ones without a flush.
constexpr std::size_t kReapFrom = 1024;
// A flush polls the bootstrap connection at most this often (a flush of a 4-byte put takes ~1 us).
constexpr std::chrono::milliseconds kBootstrapCheckEvery{1};

void check_range(const char* op, const char* which, std::size_t region_bytes, std::size_t offset, std::size_t bytes) {
  if (!range_inside(offset, bytes, region_bytes)) {
    throw std::out_of_range(fmt::format("ucx {}: {} region ({} bytes): offset {} + length {} is out of range", op,
                                        which, region_bytes, offset, bytes));
  }
}

// Both region classes are final, so their typeid is the whole test: one comparison, where a
// dynamic_cast walks the class hierarchy (~15 ns here, paid twice a put, four times a ping-pong
// round counting the peer's answer).
const UcxLocalRegion& as_ucx(const LocalRegion& region) {
  if (typeid(region) != typeid(UcxLocalRegion)) {
    throw std::invalid_argument("ucx: a local region registered with another transport");
  }
  return static_cast<const UcxLocalRegion&>(region);
}

UcxRemoteRegion& as_ucx(RemoteRegion& region, std::uint64_t peer_id, const std::string& peer_name) {
  if (typeid(region) != typeid(UcxRemoteRegion) || static_cast<UcxRemoteRegion&>(region).peer_id() != peer_id) {
    throw std::invalid_argument(fmt::format("ucx: a remote region not attached to the endpoint of peer {}", peer_name));
  }
  return static_cast<UcxRemoteRegion&>(region);
}

}  // namespace

std::unique_ptr<UcxEndpoint> UcxEndpoint::create(std::shared_ptr<Worker> worker, const std::vector<std::uint8_t>& address,
                                                 std::string name, UniqueFd bootstrap, std::optional<Protocol> forced) {
  Peer& peer = worker->add_peer(std::move(name));
  ucp_ep_params_t params{};
  params.field_mask =
      UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UCP_EP_PARAM_FIELD_ERR_HANDLER;
  params.address = reinterpret_cast<const ucp_address_t*>(address.data());
  params.err_mode = UCP_ERR_HANDLING_MODE_PEER;
  params.err_handler.cb = &Worker::on_endpoint_error;
  params.err_handler.arg = &peer;
  ucp_ep_h ep = nullptr;
  const ucs_status_t status = ucp_ep_create(worker->handle(), &params, &ep);
  if (status != UCS_OK) {
    const std::string call = fmt::format("ucp_ep_create(peer {})", peer.name);
    worker->close_peer(peer.id, std::chrono::milliseconds(0));
    fail(call, status);
  }
  peer.ep = ep;
  return std::make_unique<UcxEndpoint>(std::move(worker), peer, std::move(bootstrap), forced);
}

UcxEndpoint::UcxEndpoint(std::shared_ptr<Worker> worker, Peer& peer, UniqueFd bootstrap, std::optional<Protocol> forced)
    : worker_(std::move(worker)), peer_(peer), bootstrap_(std::move(bootstrap)), forced_(forced) {}

UcxEndpoint::~UcxEndpoint() {
  if (peer_.failure == UCS_OK) {
    wait_until([&] { return reap() || peer_.failure != UCS_OK; }, std::chrono::steady_clock::now() + kCloseBound);
  }
  // Whatever is still in flight completes (or is cancelled by the close) under the worker's care,
  // which keeps the headers UCX still reads.
  for (auto& op : in_flight_) {
    worker_->track({PendingOp::Kind::reply_sent, op.request, peer_.id, 0, std::move(op.keep)});
  }
  in_flight_.clear();
  worker_->close_peer(peer_.id, kCloseBound);
}

Protocol UcxEndpoint::protocol() {
  if (!protocol_) {
    const auto lanes = endpoint_lanes(peer_.ep);
    protocol_ = choose_protocol(lanes, forced_);
    worker_->observed = {describe_lanes(lanes), to_string(*protocol_)};
  }
  return *protocol_;
}

std::unique_ptr<RemoteRegion> UcxEndpoint::attach(const RegionDescriptor& remote) {
  require_usable("attach");
  return std::make_unique<UcxRemoteRegion>(worker_, peer_.ep, peer_.id, peer_.name, remote);
}

void UcxEndpoint::put(const LocalRegion& src, std::size_t src_offset, RemoteRegion& dst, std::size_t dst_offset,
                      std::size_t bytes) {
  check_range("put", "source", src.size(), src_offset, bytes);
  check_range("put", "destination", dst.size(), dst_offset, bytes);
  const auto& local = as_ucx(src);
  auto& remote = as_ucx(dst, peer_.id, peer_.name);
  require_usable("put");
  if (bytes == 0) return;
  const auto* data = static_cast<const std::byte*>(local.data()) + src_offset;
  if (protocol() == Protocol::rma) {
    ucp_request_param_t param{};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_MEMH;
    param.memh = local.memh();
    void* request = ucp_put_nbx(peer_.ep, data, bytes, remote.address() + dst_offset, remote.rkey(), &param);
    if (UCS_PTR_IS_ERR(request)) fail(fmt::format("ucp_put_nbx(peer {}, {} bytes)", peer_.name, bytes), UCS_PTR_STATUS(request));
    if (request != nullptr) keep_request(request, nullptr, "put");
  } else {
    auto header = std::make_shared<PutHeader>(PutHeader{remote.region_id(), dst_offset});
    void* request = send_am(peer_.ep, kAmPut, header.get(), sizeof(PutHeader), data, bytes,
                            fmt::format("put to peer {}, {} bytes", peer_.name, bytes));
    ++peer_.puts_sent;
    if (request != nullptr) keep_request(request, std::move(header), "put");
  }
}

void UcxEndpoint::get(LocalRegion& dst, std::size_t dst_offset, RemoteRegion& src, std::size_t src_offset,
                      std::size_t bytes) {
  check_range("get", "destination", dst.size(), dst_offset, bytes);
  check_range("get", "source", src.size(), src_offset, bytes);
  const auto& local = as_ucx(dst);
  auto& remote = as_ucx(src, peer_.id, peer_.name);
  require_usable("get");
  if (bytes == 0) return;
  auto* data = static_cast<std::byte*>(local.data()) + dst_offset;
  if (protocol() == Protocol::rma) {
    ucp_request_param_t param{};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_MEMH;
    param.memh = local.memh();
    void* request = ucp_get_nbx(peer_.ep, data, bytes, remote.address() + src_offset, remote.rkey(), &param);
    if (UCS_PTR_IS_ERR(request)) fail(fmt::format("ucp_get_nbx(peer {}, {} bytes)", peer_.name, bytes), UCS_PTR_STATUS(request));
    if (request != nullptr) keep_request(request, nullptr, "get");
  } else {
    // The region id of our own region travels in the descriptor key's first 8 bytes.
    const RegionDescriptor mine = local.describe();
    std::uint64_t my_region = 0;
    std::memcpy(&my_region, mine.key.data(), sizeof my_region);
    auto header = std::make_shared<GetRequestHeader>(
        GetRequestHeader{remote.region_id(), src_offset, bytes, my_region, dst_offset});
    void* request = send_am(peer_.ep, kAmGetRequest, header.get(), sizeof(GetRequestHeader), nullptr, 0,
                            fmt::format("get from peer {}, {} bytes", peer_.name, bytes));
    ++peer_.gets_sent;
    if (request != nullptr) keep_request(request, std::move(header), "get");
  }
}

void UcxEndpoint::flush(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  require_usable("flush");
  std::function<bool()> done;
  if (protocol() == Protocol::rma) {
    ucp_request_param_t param{};
    void* request = ucp_ep_flush_nbx(peer_.ep, &param);
    if (UCS_PTR_IS_ERR(request)) fail(fmt::format("ucp_ep_flush_nbx(peer {})", peer_.name), UCS_PTR_STATUS(request));
    if (request != nullptr) keep_request(request, nullptr, "flush");
    done = [&] { return reap(); };
  } else {
    const std::uint64_t token = ++peer_.flush_sent;
    auto header = std::make_shared<FlushRequestHeader>(FlushRequestHeader{peer_.puts_sent, token});
    void* request = send_am(peer_.ep, kAmFlushRequest, header.get(), sizeof(FlushRequestHeader), nullptr, 0,
                            fmt::format("flush request to peer {}", peer_.name));
    if (request != nullptr) keep_request(request, std::move(header), "flush");
    done = [&, token] { return reap() && peer_.flush_done >= token && peer_.gets_done == peer_.gets_sent; };
  }
  const bool finished = wait_until([&] { return done() || peer_.failure != UCS_OK; }, deadline);
  // Into memory UCX allocated (a shared-memory segment the peer mapped), a put is a copy that
  // completes without the peer: a dead peer is then seen only by its bootstrap connection closing
  // (UCX's keepalive takes 20 s), so every flush looks at it, at most once a millisecond.
  check_bootstrap();
  if (peer_.failure != UCS_OK) throw_failed();
  if (!finished) {
    throw TransportError(fmt::format("ucx flush to peer {}: not complete after {} ms ({} operations outstanding)",
                                     peer_.name, timeout.count(), in_flight_.size()));
  }
  throw_operation_error();
  if (!peer_.remote_error.empty()) {
    const std::string text = std::move(peer_.remote_error);
    peer_.remote_error.clear();
    throw TransportError(fmt::format("ucx: peer {} refused: {}", peer_.name, text));
  }
}

bool UcxEndpoint::handshake(std::chrono::steady_clock::time_point deadline, std::string& why) {
  try {
    const std::uint64_t token = ++peer_.flush_sent;
    auto header = std::make_shared<FlushRequestHeader>(FlushRequestHeader{peer_.puts_sent, token});
    void* request = send_am(peer_.ep, kAmFlushRequest, header.get(), sizeof(FlushRequestHeader), nullptr, 0,
                            "handshake");
    if (request != nullptr) keep_request(request, std::move(header), "handshake");
    const bool answered = wait_until(
        [&] { return peer_.failure != UCS_OK || (reap() && peer_.flush_done >= token); }, deadline);
    if (peer_.failure != UCS_OK) {
      why = ucs_status_string(peer_.failure);
      return false;
    }
    if (!answered) why = "no answer";
    return answered;
  } catch (const std::exception& e) {
    why = e.what();
    return false;
  }
}

void UcxEndpoint::require_usable(std::string_view op) const {
  if (peer_.failure != UCS_OK) throw_failed();
  if (peer_.ep == nullptr || peer_.closing) {
    throw TransportError(fmt::format("ucx {}: the endpoint to peer {} is closed", op, peer_.name));
  }
}

void UcxEndpoint::throw_failed() const {
  throw TransportError(fmt::format("ucx: peer {} failed: {}", peer_.name, ucs_status_string(peer_.failure)));
}

void UcxEndpoint::keep_request(void* request, std::shared_ptr<const void> keep, const char* what) {
  in_flight_.push_back({request, std::move(keep), what});
  if (in_flight_.size() >= kReapFrom) reap();
}

bool UcxEndpoint::reap() {
  while (!in_flight_.empty()) {
    InFlight& op = in_flight_.front();
    const ucs_status_t status = ucp_request_check_status(op.request);
    if (status == UCS_INPROGRESS) return false;
    ucp_request_free(op.request);
    if (status != UCS_OK && operation_error_.empty()) {
      operation_error_ = failure_text(fmt::format("ucx {} to peer {}", op.what, peer_.name), status);
    }
    in_flight_.pop_front();
  }
  return true;
}

void UcxEndpoint::throw_operation_error() {
  if (operation_error_.empty()) return;
  const std::string text = std::move(operation_error_);
  operation_error_.clear();
  throw TransportError(text);
}

void UcxEndpoint::check_bootstrap() {
  if (!bootstrap_.valid() || peer_.failure != UCS_OK) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - bootstrap_checked_ < kBootstrapCheckEvery) return;
  bootstrap_checked_ = now;
  if (peer_hung_up(bootstrap_.get())) peer_.failure = UCS_ERR_CONNECTION_RESET;
}

bool UcxEndpoint::wait_until(const std::function<bool()>& done, std::chrono::steady_clock::time_point deadline) {
  // Looks at the bootstrap connection now and then (a poll per check: not every round).
  unsigned rounds = 0;
  return worker_->progress_until(
      [&] {
        if (done()) return true;
        if (bootstrap_.valid() && (++rounds % 4096) == 0 && peer_.failure == UCS_OK && peer_hung_up(bootstrap_.get())) {
          peer_.failure = UCS_ERR_CONNECTION_RESET;
        }
        return peer_.failure != UCS_OK;
      },
      deadline);
}

}  // namespace xb::ucx
