#pragma once
// The passive side of a cross-node p2p pair, on a thread of each rank: a session server (the link
// job's run_link_server) exposing device memory of this rank's device to the partner's client, on
// this rank's address with ports the kernel chooses. A thread with its own Transport and Device,
// because the rank's main thread drives its own client at the same time (bidirectional runs) and a
// Transport belongs to one thread.
#include <chrono>
#include <exception>
#include <future>
#include <sstream>
#include <string>
#include <thread>

#include "backends/device.hpp"
#include "transport/address.hpp"

namespace xb {

class P2pPeerServer {
 public:
  // Returns once the server listens on `host`; throws what stopped it (transport, device, bind).
  P2pPeerServer(const std::string& host, std::string transport, std::string token, std::chrono::milliseconds wait,
                int device, Backend& backend);
  ~P2pPeerServer();  // joins (the thread ends when its client finished, broke off, or never came)
  P2pPeerServer(const P2pPeerServer&) = delete;
  P2pPeerServer& operator=(const P2pPeerServer&) = delete;

  const SocketAddress& control() const { return control_; }
  // Waits for the session's end; rethrows the server's error, if it had one.
  void join();

 private:
  std::promise<SocketAddress> ready_;
  std::exception_ptr error_;
  std::ostringstream log_;  // rejected connections; written by the server thread only
  SocketAddress control_;
  std::thread thread_;
};

}  // namespace xb
