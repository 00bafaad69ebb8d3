#pragma once
// The serving side of every peer session (transport/session.hpp): a server's device, its
// transport, the memory it exposes to its client, and one client served. `xferbench link
// --listen` and the xfer server serve in the main thread; --loopback and every rank of p2p across
// nodes and of the fleet serve on a thread of the measuring process (PeerServerThread), since a
// Transport belongs to one thread and that process drives its own client meanwhile.
#include <chrono>
#include <exception>
#include <functional>
#include <future>
#include <iosfwd>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "backends/device.hpp"
#include "transport/address.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {

// What a server does with device memory its transport cannot register.
enum class UnreachableDeviceMemory {
  refuse,  // Unavailable, naming why (a peer can only put into memory the transport registered)
  stage,   // a registered host window, copied to and from around each pass (staged_device_memory)
};

// A server's device and transport, open while it serves, and the memory factory over them.
class ServingEndpoint {
 public:
  ServingEndpoint(Backend& backend, int device, const std::string& transport, UnreachableDeviceMemory unreachable);
  ServingEndpoint(const ServingEndpoint&) = delete;
  ServingEndpoint& operator=(const ServingEndpoint&) = delete;

  Device& device() { return *device_; }
  Transport& transport() { return *transport_; }
  // The memory of each region a client asks for, in the place it asks for.
  ExposedMemoryFactory memory_factory();

 private:
  Backend& backend_;
  UnreachableDeviceMemory unreachable_;
  std::unique_ptr<Device> device_;
  std::unique_ptr<Transport> transport_;
};

struct PeerServerPlan {
  SocketAddress control;  // port 0: any
  SocketAddress data;     // the transport's listener; port 0: any (announced to the client)
  std::string transport;  // "ucx", "tcp"
  std::string token;
  std::chrono::milliseconds wait{20000};
  int device = 0;
  SessionCaps caps;  // what one client may have exposed (a thread's: exactly_the_plan)
};

// Serves one client to its end with `backend`'s device, refusing device memory the transport cannot
// register; `on_listening` (may be empty) runs once both addresses are bound, refused connections go
// to `log`. Throws TransportError when no client came in time or the client broke off.
SessionReport serve_peer(const PeerServerPlan& plan, Backend& backend, std::ostream& log,
                         const std::function<void(const SocketAddress& control, const SocketAddress& data)>& on_listening);

// serve_peer on a thread of this process, on `host` with ports the kernel chooses.
class PeerServerThread {
 public:
  // Returns once the server listens; throws what stopped it (its transport or device, the bind).
  PeerServerThread(const std::string& host, std::string transport, std::string token, std::chrono::milliseconds wait,
                   int device, Backend& backend, SessionCaps caps);
  // Joins the thread (which ends once its client finished or went away, or its wait ran out).
  ~PeerServerThread();
  PeerServerThread(const PeerServerThread&) = delete;
  PeerServerThread& operator=(const PeerServerThread&) = delete;

  const SocketAddress& control() const { return control_; }
  // Waits for the session's end; rethrows the server's error, if it had one.
  void join();

 private:
  void serve(PeerServerPlan plan, Backend& backend);

  std::promise<SocketAddress> ready_;
  std::exception_ptr error_;
  std::ostringstream log_;  // rejected connections; written by the server thread only, read after join
  SocketAddress control_;
  std::thread thread_;
};

}  // namespace xb
