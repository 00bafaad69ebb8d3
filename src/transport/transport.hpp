#pragma once
// The transport interface: how bytes move between two endpoints' registered memory, one-sided
// (the semantics of a transfer engine: HIXL, NIXL, UCX's ucp_put/ucp_get). Jobs (xfer, link, p2p)
// only ever see this header and session.hpp; each implementation is one folder (ucx/, tcp/) plus
// one row in transport_registry.cpp.
//
// Threading: a Transport and everything made from it belongs to one thread (UCX workers are
// created single-threaded). A process that serves and drives at once (link --loopback) makes two.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "transport/address.hpp"

namespace xb {

// What a peer needs to reach one of our registered regions: its address in our address space, its
// size and the transport's packed remote key (UCX rkey; the TCP transport's region id). Travels
// over the control channel (session.hpp) only after the peer presented the token.
struct RegionDescriptor {
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
  std::vector<std::uint8_t> key;
};

// Memory registered with a transport (ucp_mem_map; the TCP transport's region table). Peers may
// put into and get from it until it is destroyed. A region from register_memory does not own the
// memory, which must outlive it; one from allocate_memory owns it (freed with the region).
class LocalRegion {
 public:
  virtual ~LocalRegion() = default;
  virtual void* data() const = 0;
  virtual std::size_t size() const = 0;
  virtual RegionDescriptor describe() const = 0;
  // Who allocated the memory, for descriptions: empty for memory registered as it is, e.g.
  // "ucx sysv" for memory the transport allocated (allocate_memory).
  virtual std::string origin() const { return {}; }
};

// A peer's region, attached to one endpoint (ucp_ep_rkey_unpack).
class RemoteRegion {
 public:
  virtual ~RemoteRegion() = default;
  virtual std::uint64_t address() const = 0;
  virtual std::size_t size() const = 0;
};

// A connection to one peer. put/get are queued (non-blocking) and complete by flush(). Offsets and
// lengths are checked against both regions before anything is queued (std::out_of_range naming
// the region, offset and length): a bad offset never reaches the wire.
class Endpoint {
 public:
  virtual ~Endpoint() = default;
  virtual std::unique_ptr<RemoteRegion> attach(const RegionDescriptor& remote) = 0;
  // Writes src[src_offset, +bytes) into dst[dst_offset, +bytes) at the peer.
  virtual void put(const LocalRegion& src, std::size_t src_offset, RemoteRegion& dst, std::size_t dst_offset,
                   std::size_t bytes) = 0;
  // Reads src[src_offset, +bytes) at the peer into dst[dst_offset, +bytes).
  virtual void get(LocalRegion& dst, std::size_t dst_offset, RemoteRegion& src, std::size_t src_offset,
                   std::size_t bytes) = 0;
  // Returns once every put/get queued so far is complete (a put's data visible at the peer). Throws
  // xb::TransportError naming the peer when the peer is gone or `timeout` passes first.
  virtual void flush(std::chrono::milliseconds timeout) = 0;
  // The address of the peer, for messages ("10.98.0.2:40123").
  virtual std::string peer() const = 0;
};

// What a connecting side presents first on a data connection and a listener requires before it
// reads or sends anything else: the session's data ticket (auth.hpp, ticket_gate.hpp), binding
// the data connection to the authenticated control session. Empty: none (a transport's own tests).
using ConnectionTicket = std::span<const std::uint8_t>;

// Accepts endpoints on a listening address (ucp_listener over a sockaddr; a TCP socket).
class Listener {
 public:
  virtual ~Listener() = default;
  // The bound address (port 0 asked for → the port the kernel chose).
  virtual SocketAddress address() const = 0;
  // Waits for one connection that presents `ticket`, making progress meanwhile; connections that
  // do not are closed unanswered. Throws TransportError on timeout.
  virtual std::unique_ptr<Endpoint> accept(std::chrono::milliseconds timeout, ConnectionTicket ticket = {}) = 0;
};

// What a Transport reports about itself for the result document.
struct TransportInfo {
  std::string name;        // "ucx", "tcp"
  std::string version;     // "1.13.1" for UCX; the program's version for tcp
  // The lanes actually used once an endpoint exists, e.g. "posix/memory, cma/memory, tcp/lo"
  // (UCX: from ucp_ep_print_info / ucp_ep_query), or "tcp" for the plain transport.
  std::string lanes;
  std::string settings;    // environment that shaped the choice: "UCX_TLS=tcp UCX_NET_DEVICES=lo"
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual std::string_view name() const = 0;
  virtual std::unique_ptr<LocalRegion> register_memory(void* data, std::size_t bytes) = 0;
  // Host memory allocated and registered by the transport in one step (owned by the region), or
  // null where the transport has no allocator of its own (the TCP transport): register_memory
  // then. Why it exists: UCX's shared-memory transports can expose to a peer only memory UCX
  // allocated (a sysv/posix segment the peer maps), so a put into it is one copy with no work by
  // the target; into registered memory it is UCX's emulation through a FIFO. Never pass the
  // returned data() to register_memory again (a second registration is a different, slower key).
  virtual std::unique_ptr<LocalRegion> allocate_memory(std::size_t bytes) {
    (void)bytes;
    return nullptr;
  }
  // The memory types register_memory accepts besides host memory, by UCX's names ("cuda",
  // "rocm", ...: ucp_context_query's memory_types); empty for a transport that reaches host memory
  // only (the TCP transport). A job never hands it device memory of another type.
  virtual std::vector<std::string> device_memory_types() const { return {}; }
  virtual std::unique_ptr<Listener> listen(const SocketAddress& address) = 0;
  virtual std::unique_ptr<Endpoint> connect(const SocketAddress& address, std::chrono::milliseconds timeout,
                                            ConnectionTicket ticket = {}) = 0;
  // Makes progress on this side's part of every endpoint: the passive side of a peer's put/get
  // (UCX's emulated RMA over tcp needs the target to progress; the TCP transport serves requests
  // here). Returns whether anything happened.
  virtual bool progress() = 0;
  // Blocks up to `timeout` until progress() may have something to do (UCX: the worker's event fd;
  // TCP: poll on its sockets), so a passive side does not spin a core away from the active one.
  virtual void wait(std::chrono::milliseconds timeout) = 0;
  // Filled in once at least one endpoint exists (lanes may be empty before).
  virtual TransportInfo info() const = 0;
};

// A transport failed at run time (peer gone, timeout, refused): a run failure (exit 1), with the
// peer and the call in the message.
class TransportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The transports this binary can use: the modules that open here ("ucx": its module and libucp
// load), then "tcp", built in. make_transport throws UsageError naming --transport for an unknown
// name, Unavailable saying why for a module that is not here or a UCX that cannot start.
std::vector<std::string> transport_names();
std::unique_ptr<Transport> make_transport(std::string_view name);
// Whether `name` is a transport this binary knows, opened here or not: what a plan's validation
// accepts (a known module that is not here is refused by make_transport, exit 3 with why).
bool transport_known(std::string_view name);
// Every transport this binary knows, in the order of preference, whether its module opens here or not.
std::vector<std::string> known_transport_names();
// The transport a run uses when none is named: the table's first row, UCX where this build has it
// (RDMA, shared memory and TCP behind one API), else the plain TCP baseline. Every command and
// dialect asks here, so the choice is written once.
std::string default_transport_name();

}  // namespace xb
