#pragma once
// The active-message data path: put and get carried as UCP active messages, for endpoints whose
// one-sided operations UCX 1.13 would only emulate (RMA over tcp is "rma_am": every put is an
// active message anyway, but small-fragmented and copied twice, about a third of the wire rate).
// Here a put is one active message whose payload goes straight into the target region (rendezvous
// for large ones: the receiver pulls it with ucp_am_recv_data_nbx into place), a get is a request
// answered by a reply carrying the data into the requester's region, and a flush is a request
// answered once every put sent before it has landed (the reply carries the first refusal).
//
// The passive side checks every target against its registered regions (id, offset, length): a
// bad request is refused and reported to the requester, never applied.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "transport/ucx/ucx_worker.hpp"

namespace xb::ucx {

enum AmId : unsigned {
  kAmPut = 0x5801,  // PutHeader, payload: the data
  kAmGetRequest,    // GetRequestHeader
  kAmGetReply,      // GetReplyHeader, payload: the data (or the refusal text when !ok)
  kAmFlushRequest,  // FlushRequestHeader
  kAmFlushReply,    // FlushReplyHeader, payload: the first refusal since the last reply (or none)
};

struct PutHeader {
  std::uint64_t region;  // the target's region id (RegionDescriptor::key)
  std::uint64_t offset;
};
struct GetRequestHeader {
  std::uint64_t region;  // at the peer
  std::uint64_t offset;
  std::uint64_t bytes;
  std::uint64_t reply_region;  // at the requester
  std::uint64_t reply_offset;
};
struct GetReplyHeader {
  std::uint64_t region;  // at the requester
  std::uint64_t offset;
  std::uint64_t ok;
};
struct FlushRequestHeader {
  std::uint64_t puts;   // puts sent on this endpoint before this request
  std::uint64_t token;  // echoed in the reply
};
struct FlushReplyHeader {
  std::uint64_t token;
};

// Payloads from this size on are sent with UCP_AM_SEND_FLAG_RNDV: the receiver gets them straight
// into the region (zero copy on the receiving side) instead of through UCX's bounce buffers.
constexpr std::size_t kAmRendezvousFrom = 64 * 1024;

// Registers the five handlers on the worker (ucp_worker_set_am_recv_handler).
void register_am_handlers(Worker& worker);
// A request the worker tracked completed (called from Worker::progress).
void am_complete(Worker& worker, const PendingOp& op, ucs_status_t status);

// ucp_am_send_nbx with the reply flag (the receiver answers on the same endpoint) and rendezvous
// for large payloads. Returns the request to keep (nullptr: done at once). Throws TransportError
// naming `what` when UCX refuses it.
void* send_am(ucp_ep_h ep, unsigned id, const void* header, std::size_t header_bytes, const void* data,
              std::size_t bytes, std::string_view what);

}  // namespace xb::ucx
