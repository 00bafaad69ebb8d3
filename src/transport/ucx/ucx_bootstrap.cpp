#include "transport/ucx/ucx_bootstrap.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include "transport/transport.hpp"
#include "transport/ucx/ucx_sockaddr.hpp"

namespace xb::ucx {
namespace {

// "XBUCXADR" then a 32-bit length then the worker address.
constexpr char kMagic[8] = {'X', 'B', 'U', 'C', 'X', 'A', 'D', 'R'};
// UCX worker addresses are a few hundred bytes; anything much larger is not one.
constexpr std::uint32_t kMaxAddress = 1 << 20;

int remaining_ms(Deadline deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<long long>(left.count(), 0, 1000));
}

std::string errno_text(int error) { return std::strerror(error); }

// Waits for `events` on fd; false at the deadline.
bool wait_for(int fd, short events, Deadline deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int rc = ::poll(&p, 1, remaining_ms(deadline));
    if (rc > 0) return true;
    if (rc < 0 && errno != EINTR) return false;
    if (std::chrono::steady_clock::now() >= deadline) return false;
  }
}

void send_all(int fd, const void* data, std::size_t n, Deadline deadline, const std::string& peer) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  while (n > 0) {
    const ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
    if (w > 0) {
      p += w;
      n -= static_cast<std::size_t>(w);
    } else if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!wait_for(fd, POLLOUT, deadline)) {
        throw TransportError(fmt::format("ucx: sending the worker address to {} timed out", peer));
      }
    } else {
      throw TransportError(fmt::format("ucx: sending the worker address to {} failed: {}", peer, errno_text(errno)));
    }
  }
}

void receive_all(int fd, void* data, std::size_t n, Deadline deadline, const std::string& peer) {
  auto* p = static_cast<std::uint8_t*>(data);
  while (n > 0) {
    const ssize_t r = ::recv(fd, p, n, 0);
    if (r > 0) {
      p += r;
      n -= static_cast<std::size_t>(r);
    } else if (r == 0) {
      throw TransportError(fmt::format("ucx: {} closed the connection before sending its worker address", peer));
    } else if (errno == EAGAIN || errno == EINTR) {
      if (!wait_for(fd, POLLIN, deadline)) {
        throw TransportError(fmt::format("ucx: no worker address from {} in time", peer));
      }
    } else {
      throw TransportError(fmt::format("ucx: receiving the worker address from {} failed: {}", peer, errno_text(errno)));
    }
  }
}

UniqueFd make_socket(int family) {
  UniqueFd fd(::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) throw TransportError(fmt::format("ucx: socket() failed: {}", errno_text(errno)));
  return fd;
}

}  // namespace

UniqueFd listen_on(const SocketAddress& address) {
  sockaddr_storage storage{};
  const socklen_t length = to_sockaddr(address, storage);
  UniqueFd fd = make_socket(storage.ss_family);
  const int one = 1;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&storage), length) != 0 || ::listen(fd.get(), 64) != 0) {
    throw TransportError(fmt::format("ucx: cannot listen on {}: {}", format_address(address), errno_text(errno)));
  }
  return fd;
}

SocketAddress local_address(int fd) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &length);
  return from_sockaddr(storage);
}

SocketAddress remote_address(int fd) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  ::getpeername(fd, reinterpret_cast<sockaddr*>(&storage), &length);
  return from_sockaddr(storage);
}

UniqueFd accept_one(int listen_fd) {
  UniqueFd fd(::accept4(listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
  if (fd.valid()) {
    const int one = 1;
    ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  return fd;
}

UniqueFd connect_to(const SocketAddress& address, Deadline deadline, std::string& why) {
  sockaddr_storage storage{};
  const socklen_t length = to_sockaddr(address, storage);
  UniqueFd fd = make_socket(storage.ss_family);
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&storage), length) != 0) {
    if (errno != EINPROGRESS) {
      why = errno_text(errno);
      return UniqueFd();
    }
    if (!wait_for(fd.get(), POLLOUT, deadline)) {
      why = "connect timed out";
      return UniqueFd();
    }
    int error = 0;
    socklen_t size = sizeof error;
    ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &size);
    if (error != 0) {
      why = errno_text(error);
      return UniqueFd();
    }
  }
  const int one = 1;
  ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

std::vector<std::uint8_t> exchange_addresses(int fd, std::span<const std::uint8_t> mine, Deadline deadline,
                                             const std::string& peer) {
  const auto size = static_cast<std::uint32_t>(mine.size());
  std::vector<std::uint8_t> message(kMagic, kMagic + sizeof kMagic);
  const auto* size_bytes = reinterpret_cast<const std::uint8_t*>(&size);
  message.insert(message.end(), size_bytes, size_bytes + sizeof size);
  message.insert(message.end(), mine.begin(), mine.end());
  send_all(fd, message.data(), message.size(), deadline, peer);

  char magic[sizeof kMagic];
  std::uint32_t theirs = 0;
  receive_all(fd, magic, sizeof magic, deadline, peer);
  receive_all(fd, &theirs, sizeof theirs, deadline, peer);
  if (std::memcmp(magic, kMagic, sizeof kMagic) != 0 || theirs == 0 || theirs > kMaxAddress) {
    throw TransportError(fmt::format("ucx: {} is not an xferbench UCX endpoint (bad address message)", peer));
  }
  std::vector<std::uint8_t> address(theirs);
  receive_all(fd, address.data(), address.size(), deadline, peer);
  return address;
}

bool peer_hung_up(int fd) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  if ((p.revents & (POLLHUP | POLLERR)) != 0) return true;
  char byte;
  const ssize_t r = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR);
}

}  // namespace xb::ucx
