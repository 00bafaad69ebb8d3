#pragma once
// The peer side of a link run: a session server (transport/session.hpp) that exposes EndpointMemory
// of its own device in the place the client asks for, and fills or verifies it on request. Runs as
// `xferbench link --listen` (run(LinkServerPlan)) or on a thread of the measuring process
// (LinkServerThread: --loopback, and every rank of a cross-node p2p run).
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <future>
#include <iosfwd>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "backends/device.hpp"
#include "jobs/job_context.hpp"
#include "transport/address.hpp"
#include "transport/session.hpp"

namespace xb {

// `xferbench link --listen` without a port listens here (xfer's server takes 20000).
inline constexpr std::uint16_t kLinkDefaultControlPort = 20001;

struct LinkServerPlan {
  SocketAddress control;  // port 0: any
  SocketAddress data;     // the transport's listener; port 0: any (announced to the client)
  std::string transport;  // "ucx", "tcp"
  std::string token;
  std::chrono::milliseconds wait{20000};
  int device = 0;
  // What one client may have exposed (--max-exposed, --max-regions; a thread's: exactly_the_plan).
  SessionCaps caps;
};

// Serves one client to its end with ctx.backend's device. ctx.on_listening runs once both
// addresses are bound (before waiting). Rejected connections are reported on ctx.log. Throws
// TransportError when no client came in time or the client broke off.
SessionReport run(const LinkServerPlan& plan, JobContext& ctx);

// A link server on a thread of this process, on `host` with ports chosen by the kernel: the peer
// side for --loopback (LoopbackLinkServer) and each rank's server of a cross-node p2p run
// (P2pPeerServer). A thread with its own Transport and Device, since a Transport belongs to one
// thread and this process's main thread drives its own client meanwhile.
class LinkServerThread {
 public:
  // Returns once the server listens; throws what stopped it from listening (its transport or
  // device could not be made, the bind failed).
  // `caps`: what its one client may expose (exactly_the_plan: the one region the run needs).
  LinkServerThread(const std::string& host, std::string transport, std::string token, std::chrono::milliseconds wait,
                   int device, Backend& backend, SessionCaps caps);
  // Joins the thread (which ends once its client finished or went away, or its wait ran out).
  ~LinkServerThread();
  LinkServerThread(const LinkServerThread&) = delete;
  LinkServerThread& operator=(const LinkServerThread&) = delete;

  const SocketAddress& control() const { return control_; }
  // Waits for the session's end; rethrows the server's error, if it had one.
  void join();

 private:
  void serve(LinkServerPlan plan, Backend& backend);

  std::promise<SocketAddress> ready_;
  std::exception_ptr error_;
  std::ostringstream log_;  // rejected connections; written by the server thread only, read after join
  SocketAddress control_;
  std::thread thread_;
};

// The --loopback peer: a LinkServerThread on 127.0.0.1.
class LoopbackLinkServer final : public LinkServerThread {
 public:
  LoopbackLinkServer(std::string transport, std::string token, std::chrono::milliseconds wait, int device,
                     Backend& backend, SessionCaps caps)
      : LinkServerThread("127.0.0.1", std::move(transport), std::move(token), wait, device, backend, std::move(caps)) {}
};

}  // namespace xb
