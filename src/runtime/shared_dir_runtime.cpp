#include "runtime/shared_dir_runtime.hpp"

#include <fmt/format.h>

#include "transport/address.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// Rank 0 publishes where it listens; rank 1 asks the directory where to connect.
PairRendezvousHooks directory_hooks(SharedDirRendezvous& dir, const std::string& path, const PairMeet& meet) {
  PairRendezvousHooks hooks;
  if (meet.rank == 0) {
    hooks.listening = [&dir](const SocketAddress& a) { dir.publish(a); };
  } else {
    hooks.find_peer = [&dir, path, meet](std::chrono::steady_clock::time_point deadline) {
      const SocketAddress found = dir.await_peer(deadline, meet.window, meet.self, meet.listener);
      // The shared directory says which port; the address must still be the peer's own.
      if (!same_ip(found.host, meet.peer)) {
        throw TransportError(
            fmt::format("the shared directory {} names {} for the peer, not --ip {}: not connecting "
                        "there",
                        path, found.to_string(), meet.peer));
      }
      return found;
    };
  }
  return hooks;
}

}  // namespace

SharedDirRuntime::SharedDirRuntime(const std::string& dir, const PairMeet& meet, int device0, int device1, bool card)
    : dir_(dir, meet.rank, meet.self, meet.peer, device0, device1, card),
      pair_(meet.rank, meet.self, meet.peer, kPairRendezvousPort, meet.window, meet.wait, meet.token,
            directory_hooks(dir_, dir, meet)) {}

}  // namespace xb
