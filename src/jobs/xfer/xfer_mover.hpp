#pragma once
// How the client's blocks reach the server's region: directly from registered client memory, or
// through a registered staging pool (--pool). Block i of a block size sits at offset i × block on
// both sides, so every transfer of a pass touches its own bytes.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "backends/device.hpp"
#include "jobs/endpoint/endpoint_memory.hpp"
#include "jobs/xfer/xfer_plan.hpp"
#include "transport/transport.hpp"

namespace xb {

class XferMover {
 public:
  virtual ~XferMover() = default;
  // Moves blocks [first, first + count) and returns once every one is complete (a write visible at
  // the server, a read in client memory). Throws TransportError naming the peer.
  virtual void move(std::uint64_t block, std::uint64_t first, std::uint64_t count) = 0;
  // For the result's config: how the data moved.
  virtual nlohmann::json describe() const = 0;
};

// What both movers work on: the endpoint to the server, its region, the client's memory.
struct XferLink {
  Transport& transport;
  Endpoint& endpoint;
  RemoteRegion& remote;
  EndpointMemory& local;
  XferOp op;
  std::chrono::milliseconds timeout;  // a flush that takes longer means the peer is gone
};

// Every block of a call queued as one put or get, then one flush (as a transfer engine moves a batch),
// from the client memory's own registration where the transport allocated it, else registered here.
std::unique_ptr<XferMover> make_direct_mover(const XferLink& link);

// A staged server region: `inner`'s moves with the server's window/device copies around each.
std::unique_ptr<XferMover> make_staged_server_mover(std::unique_ptr<XferMover> inner, ClientSession& session,
                                                    const PeerRegion& region, XferOp op);

// Through a registered pool of kXferPoolSlots host chunks, the client's memory left unregistered: one
// slot's device-stream copy overlaps the other's transfer. A slot holds min(`chunk`, `largest_block`)
// bytes (a larger block moves as several chunks).
// `transport_pool`: allocated by the transport (a peer maps it: a shared-memory put from it is one
// copy), else pinned by `device` (where the device's copies need memory its runtime pinned).
std::unique_ptr<XferMover> make_pool_mover(const XferLink& link, Device& device, std::string_view engine,
                                           std::uint64_t chunk, std::uint64_t largest_block,
                                           bool transport_pool = true);

}  // namespace xb
