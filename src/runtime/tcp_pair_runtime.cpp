#include "runtime/tcp_pair_runtime.hpp"

#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <arpa/inet.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "core/error.hpp"
#include "transport/address.hpp"
#include "transport/auth.hpp"
#include "transport/socket_ops.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

using Clock = std::chrono::steady_clock;

// Whether the connection comes from `expected` (a literal address, as --ip gives it); `from` is
// told where it does come from.
bool comes_from(int fd, const std::string& expected, std::string& from) {
  const SocketAddress peer = peer_address(fd);
  from = peer.host == "?" ? "" : peer.host;  // peer_address's "?": gone before we asked (an unknown address)
  return same_ip(peer.host, expected);
}

// Connects from `self` (bound, so the peer sees the address it was told of as --ip) to `peer`.
UniqueFd connect_retrying(const std::string& self, const SocketAddress& peer, Clock::time_point deadline,
                          std::chrono::milliseconds window) {
  sockaddr_storage sa{};
  const socklen_t len = peer.to_sockaddr(sa);
  sockaddr_storage own{};
  const socklen_t own_len = SocketAddress{self, 0}.to_sockaddr(own);
  std::string last = "no attempt";
  while (Clock::now() < deadline) {
    UniqueFd fd(socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) throw_errno("socket");
    if (bind(fd.get(), reinterpret_cast<sockaddr*>(&own), own_len) != 0) throw_errno(fmt::format("bind({})", self));
    if (connect(fd.get(), reinterpret_cast<sockaddr*>(&sa), len) == 0) return fd;
    last = std::strerror(errno);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the peer may not listen yet
  }
  throw TransportError(fmt::format("no peer at {} after {} s ({}): start the other node within the start window",
                                   peer.to_string(), window.count() / 1000, last));
}

}  // namespace

// How long one connection gets for the challenge–response (less when the start window ends first).
constexpr std::chrono::milliseconds kAuthWait{5000};
// The longest message of the challenge–response (a nonce, a proof: 32 bytes).
constexpr std::uint32_t kAuthMessageLimit = 64;

TcpPairRuntime::TcpPairRuntime(int rank, const std::string& self, const std::string& peer, std::uint16_t port,
                               std::chrono::milliseconds start_window, std::chrono::milliseconds wait,
                               const std::string& token, const PairRendezvousHooks& hooks)
    : rank_(rank), wait_(wait) {
  const auto deadline = Clock::now() + start_window;
  if (rank == 0) {
    const SocketAddress self_address{self, hooks.listening ? std::uint16_t{0} : port};
    UniqueFd listener = listen_tcp(self_address, 8);
    if (hooks.listening) hooks.listening(SocketAddress{self_address.host, local_address(listener.get()).port});
    std::string turned_away;  // the last connection refused, for the timeout's message
    for (;;) {
      if (!wait_ready(listener.get(), POLLIN, deadline)) {
        throw TransportError(
            fmt::format("no peer connected to {} within {} s: start the other node within the start "
                        "window{}",
                        self_address.to_string(), start_window.count() / 1000,
                        turned_away.empty() ? "" : fmt::format(" (turned away: {})", turned_away)));
      }
      UniqueFd conn = accept_tcp(listener.get());
      if (!conn.valid()) continue;  // gone before we took it
      std::string from;
      if (!comes_from(conn.get(), peer, from)) {
        turned_away =
            fmt::format("a connection from {}, not --ip {}", from.empty() ? "an unknown address" : from, peer);
        continue;  // closed unanswered: not the peer this node was told of
      }
      fd_ = std::move(conn);
      peer_ = from;
      try {
        if (authenticate(token, std::min(deadline, Clock::now() + kAuthWait))) break;
        turned_away = fmt::format("{}, which could not prove the token", from);
      } catch (const std::exception& e) {
        turned_away = fmt::format("{} ({})", from, e.what());
      }
      fd_ = UniqueFd();
    }
  } else {
    const SocketAddress peer_address = hooks.find_peer ? hooks.find_peer(deadline) : SocketAddress{peer, port};
    peer_ = peer_address.to_string();
    fd_ = connect_retrying(self, peer_address, deadline, start_window);
    authenticate(token, Clock::now() + std::max(kAuthWait, wait));
  }
  set_low_latency(fd_.get());
}

bool TcpPairRuntime::authenticate(const std::string& token, Clock::time_point deadline) {
  constexpr const char* kPurpose = "xferbench p2p rendezvous";
  const auto as_bytes = [](const std::string& s) {
    return std::span(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  };
  const auto as_text = [](const AuthBytes& b) { return std::string(b.begin(), b.end()); };
  if (rank_ == 1) {  // the client's side: nonce, then check the listener's proof before giving ours
    AuthClient auth(token, kPurpose);
    send_message(as_text(auth.nonce()), deadline);
    const std::string server_nonce = receive_message(deadline, kAuthMessageLimit);
    const std::string server_proof = receive_message(deadline, kAuthMessageLimit);
    if (!auth.server_proved(as_bytes(server_nonce), as_bytes(server_proof))) {
      throw TransportError(
          fmt::format("the node at {} could not prove it holds the token (both nodes need the same "
                      "--token or XFERBENCH_TOKEN); nothing more was sent to it",
                      peer_));
    }
    send_message(as_text(auth.proof()), deadline);
    return receive_message(deadline, kAuthMessageLimit) == "ok";
  }
  const std::string client_nonce = receive_message(deadline, kAuthMessageLimit);
  if (!AuthServer::valid_nonce(as_bytes(client_nonce))) return false;
  AuthServer auth(token, kPurpose, as_bytes(client_nonce));
  send_message(as_text(auth.nonce()), deadline);
  send_message(as_text(auth.proof()), deadline);
  if (!auth.client_proved(as_bytes(receive_message(deadline, kAuthMessageLimit)))) return false;
  send_message("ok", deadline);
  return true;
}

void TcpPairRuntime::send_message(const std::string& bytes, Clock::time_point deadline) {
  // A 4-byte length, then the bytes (small messages: the kernel buffers them whole).
  std::string out(4, '\0');
  const auto n = static_cast<std::uint32_t>(bytes.size());
  for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  out += bytes;
  for (std::size_t sent = 0; sent < out.size();) {
    if (!wait_ready(fd_.get(), POLLOUT, deadline)) throw TransportError(fmt::format("peer {} stopped reading", peer_));
    const ssize_t w = send(fd_.get(), out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
    if (w < 0 && errno != EINTR && errno != EAGAIN) throw_errno(fmt::format("send to peer {}", peer_));
    if (w > 0) sent += static_cast<std::size_t>(w);
  }
}

std::string TcpPairRuntime::receive_message(Clock::time_point deadline, std::uint32_t limit) {
  const auto read_exact = [&](std::size_t bytes) {
    std::string in(bytes, '\0');
    for (std::size_t got = 0; got < bytes;) {
      if (!wait_ready(fd_.get(), POLLIN, deadline)) {
        throw TransportError(fmt::format("peer {} silent for {} s", peer_, wait_.count() / 1000));
      }
      const ssize_t r = recv(fd_.get(), in.data() + got, bytes - got, 0);
      if (r == 0) throw TransportError(fmt::format("peer {} closed the connection", peer_));
      if (r < 0 && errno != EINTR && errno != EAGAIN) throw_errno(fmt::format("recv from peer {}", peer_));
      if (r > 0) got += static_cast<std::size_t>(r);
    }
    return in;
  };
  const std::string header = read_exact(4);
  std::uint32_t length = 0;
  for (int i = 0; i < 4; ++i)
    length |= static_cast<std::uint32_t>(static_cast<unsigned char>(header[static_cast<std::size_t>(i)])) << (8 * i);
  if (length > limit) throw TransportError(fmt::format("peer {} sent a message of {} bytes", peer_, length));
  return read_exact(length);
}

std::string TcpPairRuntime::exchange(const std::string& mine) {
  const auto deadline = Clock::now() + wait_;
  send_message(mine, deadline);
  return receive_message(deadline);
}

void TcpPairRuntime::barrier() { exchange({}); }

std::vector<std::string> TcpPairRuntime::allgather(const std::string& mine) {
  std::string theirs = exchange(mine);
  return rank_ == 0 ? std::vector<std::string>{mine, theirs} : std::vector<std::string>{theirs, mine};
}

}  // namespace xb
