#pragma once
// The Runtime of two nodes started by hand (ascend-dmi --sp 0/1 --ip PEER --hip SELF): one TCP
// connection between them carries the group's few small messages. Rank 0 (the --sp 0 node, whose
// unidirectional bandwidth is tested first) listens on its own address; rank 1 connects to its
// peer's, retrying. Both must start within the start window (10 s by default, as the seed says):
// past it, a TransportError names the address and the window, never a hang. Every collective is
// one exchange (both send, then both read), so neither side can wait for the other for ever: a
// peer silent past `wait` is an error naming it.
//
// Before any plan or address crosses it, the connection is authenticated both ways with the
// session token (challenge–response, transport/auth.hpp: the token never crosses the wire), and
// rank 0 takes a connection only from the --ip address: one from anywhere else, or one that cannot
// prove the token, is closed and rank 0 waits on for the real peer until the start window ends.
// Rank 1 proves nothing to a listener that has not proved the token first.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/unique_fd.hpp"
#include "runtime/runtime.hpp"
#include "transport/address.hpp"

namespace xb {

inline constexpr std::uint16_t kPairRendezvousPort = 20005;

// How the connection's address is found other than by a fixed port (the shared directory): rank 0
// listens on port 0 and `listening` publishes the bound address; rank 1 asks `find_peer` (which may
// wait until the deadline) where to connect.
struct PairRendezvousHooks {
  std::function<void(const SocketAddress&)> listening;
  std::function<SocketAddress(std::chrono::steady_clock::time_point deadline)> find_peer;
};

class TcpPairRuntime final : public Runtime {
 public:
  // rank 0: listens on self:port for the peer; rank 1: connects to peer:port.
  TcpPairRuntime(int rank, const std::string& self, const std::string& peer, std::uint16_t port,
                 std::chrono::milliseconds start_window, std::chrono::milliseconds wait, const std::string& token,
                 const PairRendezvousHooks& hooks = {});
  int rank() const override { return rank_; }
  int size() const override { return 2; }
  std::string_view name() const override { return "peer-ip"; }
  void barrier() override;
  // One exchange; gather, broadcast and max are the Runtime's, built on it.
  std::vector<std::string> allgather(const std::string& mine) override;
  // The peer's string for ours (both send, then both read).
  std::string exchange(const std::string& mine);

 private:
  void send_message(const std::string& bytes, std::chrono::steady_clock::time_point deadline);
  // At most `limit` bytes (the handshake's messages are small: a stranger cannot make us allocate).
  std::string receive_message(std::chrono::steady_clock::time_point deadline, std::uint32_t limit = 64u << 20);
  // The challenge–response on the connection just made; false (rank 0) when the peer failed it.
  // Rank 1 throws TransportError when rank 0 cannot prove the token.
  bool authenticate(const std::string& token, std::chrono::steady_clock::time_point deadline);

  int rank_;
  std::string peer_;  // "IP:PORT", for messages
  std::chrono::milliseconds wait_;
  UniqueFd fd_;
};

}  // namespace xb
