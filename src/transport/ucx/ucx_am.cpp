#include "transport/ucx/ucx_am.hpp"

#include <cstring>
#include <fmt/format.h>
#include <string>

#include "core/range.hpp"
#include "transport/ucx/ucx_status.hpp"

namespace xb::ucx {
namespace {

// The peer an active message came from: every message is sent with the reply flag, and every
// endpoint of this worker is a Peer (made by accept or connect).
Peer* sender(Worker& worker, const ucp_am_recv_param_t* param) {
  if ((param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) == 0) return nullptr;
  return worker.find_peer(param->reply_ep);
}

template <typename Header>
bool read_header(const void* header, std::size_t length, Header& out) {
  if (length != sizeof(Header)) return false;
  std::memcpy(&out, header, sizeof(Header));
  return true;
}

// Empty when [offset, +bytes) lies in an open region, else why not.
std::string check_target(const Region* region, std::uint64_t id, std::uint64_t offset, std::uint64_t bytes) {
  if (region == nullptr) return fmt::format("region {} is not registered", id);
  if (!range_inside(offset, bytes, region->size)) {
    return fmt::format("offset {} + length {} is outside region {} ({} bytes)", offset, bytes, id, region->size);
  }
  return {};
}

void refuse(Peer& peer, std::string text) {
  if (peer.refusal.empty()) peer.refusal = std::move(text);
}

void send_flush_reply(Worker& worker, std::uint64_t peer_id, std::uint64_t token) {
  Peer* peer = worker.find_peer(peer_id);
  if (peer == nullptr || peer->ep == nullptr || peer->closing || peer->failure != UCS_OK) return;
  struct Reply {
    FlushReplyHeader header;
    std::string text;
  };
  auto reply = std::make_shared<Reply>(Reply{{token}, std::move(peer->refusal)});
  peer->refusal.clear();
  try {
    void* request = send_am(peer->ep, kAmFlushReply, &reply->header, sizeof reply->header, reply->text.data(),
                            reply->text.size(), "flush reply");
    if (request != nullptr) worker.track({PendingOp::Kind::reply_sent, request, peer_id, 0, reply});
  } catch (const std::exception&) {
    // The endpoint is failing: its error callback reports it to whoever uses it.
  }
}

// Answers the flushes whose puts have all landed.
void answer_flushes(Worker& worker, Peer& peer) {
  std::erase_if(peer.waiting_flushes, [&](const Peer::WaitingFlush& f) {
    if (f.puts > peer.puts_done) return false;
    worker.defer([&worker, id = peer.id, token = f.token] { send_flush_reply(worker, id, token); });
    return true;
  });
}

void put_landed(Worker& worker, Peer& peer) {
  ++peer.puts_done;
  if (!peer.waiting_flushes.empty()) answer_flushes(worker, peer);
}

// Receives a rendezvous payload (or a persistent eager one) into place. Returns the request to
// track, nullptr when it completed at once; throws TransportError when UCX refuses.
void* receive_into(Worker& worker, void* data_desc, std::byte* dst, std::size_t bytes) {
  ucp_request_param_t param{};
  void* request = ucp_am_recv_data_nbx(worker.handle(), data_desc, dst, bytes, &param);
  if (UCS_PTR_IS_ERR(request)) fail("ucp_am_recv_data_nbx", UCS_PTR_STATUS(request));
  return request;
}

ucs_status_t on_put(void* arg, const void* header, std::size_t header_length, void* data, std::size_t length,
                    const ucp_am_recv_param_t* param) {
  auto& worker = *static_cast<Worker*>(arg);
  Peer* peer = sender(worker, param);
  PutHeader h{};
  if (peer == nullptr || !read_header(header, header_length, h)) return UCS_OK;  // nobody to answer
  Region* region = worker.find_region(h.region);
  if (std::string why = check_target(region, h.region, h.offset, length); !why.empty()) {
    refuse(*peer, "put refused: " + why);  // a rendezvous payload not received is dropped by UCX
    put_landed(worker, *peer);
    return UCS_OK;
  }
  std::byte* dst = region->data + h.offset;
  if ((param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) == 0) {
    std::memcpy(dst, data, length);  // eager: the payload is here, only valid during this call
    put_landed(worker, *peer);
    return UCS_OK;
  }
  try {
    void* request = receive_into(worker, data, dst, length);
    if (request == nullptr) {
      put_landed(worker, *peer);
    } else {
      worker.track({PendingOp::Kind::put_landed, request, peer->id, 0, nullptr});
    }
  } catch (const std::exception& e) {
    refuse(*peer, e.what());
    put_landed(worker, *peer);
  }
  return UCS_OK;
}

void send_get_reply(Worker& worker, std::uint64_t peer_id, const GetRequestHeader& h) {
  Peer* peer = worker.find_peer(peer_id);
  if (peer == nullptr || peer->ep == nullptr || peer->closing || peer->failure != UCS_OK) return;
  struct Reply {
    GetReplyHeader header;
    std::string text;
  };
  Region* region = worker.find_region(h.region);
  std::string why = check_target(region, h.region, h.offset, h.bytes);
  const bool ok = why.empty();
  auto reply = std::make_shared<Reply>(Reply{{h.reply_region, h.reply_offset, ok ? 1u : 0u},
                                             ok ? std::string() : "get refused: " + why});
  const void* data = ok ? static_cast<const void*>(region->data + h.offset) : reply->text.data();
  const std::size_t bytes = ok ? h.bytes : reply->text.size();
  try {
    void* request = send_am(peer->ep, kAmGetReply, &reply->header, sizeof reply->header, data, bytes, "get reply");
    if (request != nullptr) {
      if (ok) ++region->replies;  // the region waits for this reply before it is unmapped
      worker.track({PendingOp::Kind::reply_sent, request, peer_id, ok ? h.region : 0, reply});
    }
  } catch (const std::exception&) {
    // The endpoint is failing: its error callback reports it to whoever uses it.
  }
}

ucs_status_t on_get_request(void* arg, const void* header, std::size_t header_length, void*, std::size_t,
                            const ucp_am_recv_param_t* param) {
  auto& worker = *static_cast<Worker*>(arg);
  Peer* peer = sender(worker, param);
  GetRequestHeader h{};
  if (peer == nullptr || !read_header(header, header_length, h)) return UCS_OK;
  // Sent from progress(), outside UCX's callback (the region is checked again then).
  worker.defer([&worker, id = peer->id, h] { send_get_reply(worker, id, h); });
  return UCS_OK;
}

ucs_status_t on_get_reply(void* arg, const void* header, std::size_t header_length, void* data, std::size_t length,
                          const ucp_am_recv_param_t* param) {
  auto& worker = *static_cast<Worker*>(arg);
  Peer* peer = sender(worker, param);
  GetReplyHeader h{};
  if (peer == nullptr || !read_header(header, header_length, h)) return UCS_OK;
  const bool rendezvous = (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) != 0;
  if (h.ok == 0) {
    if (peer->remote_error.empty()) {
      peer->remote_error = rendezvous ? std::string("get refused") : std::string(static_cast<const char*>(data), length);
    }
    ++peer->gets_done;
    return UCS_OK;
  }
  Region* region = worker.find_region(h.region);
  if (std::string why = check_target(region, h.region, h.offset, length); !why.empty()) {
    if (peer->remote_error.empty()) peer->remote_error = "get reply refused: " + why;
    ++peer->gets_done;
    return UCS_OK;
  }
  std::byte* dst = region->data + h.offset;
  if (!rendezvous) {
    std::memcpy(dst, data, length);
    ++peer->gets_done;
    return UCS_OK;
  }
  try {
    void* request = receive_into(worker, data, dst, length);
    if (request == nullptr) {
      ++peer->gets_done;
    } else {
      worker.track({PendingOp::Kind::get_landed, request, peer->id, 0, nullptr});
    }
  } catch (const std::exception& e) {
    if (peer->remote_error.empty()) peer->remote_error = e.what();
    ++peer->gets_done;
  }
  return UCS_OK;
}

ucs_status_t on_flush_request(void* arg, const void* header, std::size_t header_length, void*, std::size_t,
                              const ucp_am_recv_param_t* param) {
  auto& worker = *static_cast<Worker*>(arg);
  Peer* peer = sender(worker, param);
  FlushRequestHeader h{};
  if (peer == nullptr || !read_header(header, header_length, h)) return UCS_OK;
  peer->waiting_flushes.push_back({h.puts, h.token});
  answer_flushes(worker, *peer);
  return UCS_OK;
}

ucs_status_t on_flush_reply(void* arg, const void* header, std::size_t header_length, void* data,
                            std::size_t length, const ucp_am_recv_param_t* param) {
  auto& worker = *static_cast<Worker*>(arg);
  Peer* peer = sender(worker, param);
  FlushReplyHeader h{};
  if (peer == nullptr || !read_header(header, header_length, h)) return UCS_OK;
  if (length > 0 && peer->remote_error.empty() && (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) == 0) {
    peer->remote_error.assign(static_cast<const char*>(data), length);
  }
  if (h.token > peer->flush_done) peer->flush_done = h.token;
  return UCS_OK;
}

void set_handler(Worker& worker, unsigned id, ucp_am_recv_callback_t callback) {
  ucp_am_handler_param_t param{};
  param.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                     UCP_AM_HANDLER_PARAM_FIELD_ARG | UCP_AM_HANDLER_PARAM_FIELD_FLAGS;
  param.id = id;
  param.cb = callback;
  param.arg = &worker;
  param.flags = UCP_AM_FLAG_WHOLE_MSG;
  check(ucp_worker_set_am_recv_handler(worker.handle(), &param),
        fmt::format("ucp_worker_set_am_recv_handler({:#x})", id));
}

}  // namespace

void register_am_handlers(Worker& worker) {
  set_handler(worker, kAmPut, on_put);
  set_handler(worker, kAmGetRequest, on_get_request);
  set_handler(worker, kAmGetReply, on_get_reply);
  set_handler(worker, kAmFlushRequest, on_flush_request);
  set_handler(worker, kAmFlushReply, on_flush_reply);
}

void am_complete(Worker& worker, const PendingOp& op, ucs_status_t status) {
  Peer* peer = worker.find_peer(op.peer);
  switch (op.kind) {
    case PendingOp::Kind::put_landed:
      if (peer == nullptr) return;
      if (status != UCS_OK) refuse(*peer, failure_text("put: ucp_am_recv_data_nbx", status));
      put_landed(worker, *peer);
      return;
    case PendingOp::Kind::get_landed:
      if (peer == nullptr) return;
      if (status != UCS_OK && peer->remote_error.empty()) {
        peer->remote_error = failure_text("get: ucp_am_recv_data_nbx", status);
      }
      ++peer->gets_done;
      return;
    case PendingOp::Kind::reply_sent:
      if (op.region != 0) {
        if (Region* region = worker.find_region(op.region, true); region != nullptr) --region->replies;
      }
      return;
  }
}

void* send_am(ucp_ep_h ep, unsigned id, const void* header, std::size_t header_bytes, const void* data,
              std::size_t bytes, std::string_view what) {
  ucp_request_param_t param{};
  param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  param.flags = UCP_AM_SEND_FLAG_REPLY | (bytes >= kAmRendezvousFrom ? UCP_AM_SEND_FLAG_RNDV : 0);
  void* request = ucp_am_send_nbx(ep, id, header, header_bytes, data, bytes, &param);
  if (UCS_PTR_IS_ERR(request)) fail(fmt::format("ucp_am_send_nbx({})", what), UCS_PTR_STATUS(request));
  return request;
}

}  // namespace xb::ucx
