#pragma once
// The passive side of a cross-node p2p pair, on a thread of each rank: a session server (the link
// job's run(LinkServerPlan)) exposing device memory of this rank's device to the partner's client, on
// this rank's address with ports the kernel chooses. A thread with its own Transport and Device,
// because the rank's main thread drives its own client at the same time (bidirectional runs) and a
// Transport belongs to one thread: exactly the link job's LinkServerThread, named for p2p.
//
// P2pPeerServer(host, transport, token, wait, device, backend, caps) returns once the server listens on
// `host` and throws what stopped it (transport, device, bind); control() is where it listens;
// join() waits for the session's end and rethrows the server's error; the destructor joins (the
// thread ends when its client finished, broke off, or never came).
#include "jobs/link/link_server.hpp"

namespace xb {

class P2pPeerServer final : public LinkServerThread {
 public:
  using LinkServerThread::LinkServerThread;
};

}  // namespace xb
