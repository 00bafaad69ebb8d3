#include "transport/socket_ops.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "core/error.hpp"
#include "core/stop.hpp"

namespace xb {
namespace {

SocketAddress from_sockaddr(const sockaddr_storage& storage) {
  SocketAddress address;
  char text[INET6_ADDRSTRLEN] = {};
  if (storage.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&storage);
    inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    address.port = ntohs(v4->sin_port);
  } else if (storage.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&storage);
    inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    address.port = ntohs(v6->sin6_port);
  }
  address.host = text;
  return address;
}

UniqueFd tcp_socket(int family) {
  UniqueFd fd(::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) throw_errno("socket(TCP)");
  return fd;
}

}  // namespace

int poll_timeout_ms(Deadline deadline) {
  const auto left = deadline - std::chrono::steady_clock::now();
  if (left <= std::chrono::steady_clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > 1'000'000 ? 1'000'000 : static_cast<int>(ms);
}

UniqueFd listen_tcp(const SocketAddress& address, int backlog) {
  sockaddr_storage storage;
  const socklen_t length = address.to_sockaddr(storage);
  UniqueFd fd = tcp_socket(storage.ss_family);
  const int on = 1;
  // A server restarted on its port must not wait for the old connections' TIME_WAIT.
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&storage), length) != 0) {
    throw_errno(fmt::format("bind({})", address.to_string()));
  }
  if (::listen(fd.get(), backlog) != 0) throw_errno(fmt::format("listen({})", address.to_string()));
  return fd;
}

UniqueFd accept_tcp(int listen_fd) {
  for (;;) {
    const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) return UniqueFd(fd);
    if (errno == EINTR) continue;
    // A connection reset before we took it is not our error: report "none pending".
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED || errno == EPROTO) return UniqueFd();
    throw_errno(fmt::format("accept({})", local_address(listen_fd).to_string()));
  }
}

std::optional<UniqueFd> connect_tcp(const SocketAddress& address, Deadline deadline, std::string& last_error,
                                    const std::stop_token& stop) {
  sockaddr_storage storage;
  const socklen_t length = address.to_sockaddr(storage);
  // Waits for the connection in slices when an interrupt may come, looking at it between them.
  const auto connected = [&](int fd) {
    if (!stop.stop_possible()) return wait_ready(fd, POLLOUT, deadline);
    for (;;) {
      if (wait_ready(fd, POLLOUT, std::min(deadline, std::chrono::steady_clock::now() + std::chrono::milliseconds(50)))) {
        return true;
      }
      if (std::chrono::steady_clock::now() >= deadline) return false;
      stop_here_if_asked(stop);
    }
  };
  for (;;) {
    stop_here_if_asked(stop);
    UniqueFd fd = tcp_socket(storage.ss_family);
    int error = 0;
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&storage), length) != 0) {
      error = errno;
      if (error == EINPROGRESS || error == EINTR) {
        if (connected(fd.get())) {
          socklen_t size = sizeof error;
          ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &size);
        } else {
          error = ETIMEDOUT;
        }
      }
    }
    if (error == 0) return fd;
    last_error = fmt::format("connect({}) failed: {}", address.to_string(), std::strerror(error));
    const bool retry = error == ECONNREFUSED || error == ENETUNREACH || error == EHOSTUNREACH ||
                       error == ETIMEDOUT || error == ECONNRESET || error == EAGAIN;
    if (!retry) throw SystemError(fmt::format("connect({})", address.to_string()), error);
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(50, poll_timeout_ms(deadline))));
  }
}

bool wait_ready(int fd, short events, Deadline deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int rc = ::poll(&p, 1, poll_timeout_ms(deadline));
    if (rc > 0) return true;
    if (rc == 0) return false;
    if (errno != EINTR) throw_errno("poll");
  }
}

SocketAddress local_address(int fd) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0) throw_errno("getsockname");
  return from_sockaddr(storage);
}

SocketAddress peer_address(int fd) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0) return SocketAddress{"?", 0};
  return from_sockaddr(storage);
}

void set_low_latency(int fd) {
  const int on = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
}

SocketAddress announce_address(const SocketAddress& bound, int connected_fd) {
  if (bound.host != "0.0.0.0" && bound.host != "::") return bound;
  SocketAddress reached = local_address(connected_fd);
  // An IPv4 client on a dual-stack socket shows up as ::ffff:a.b.c.d; announce the plain form.
  if (reached.host.rfind("::ffff:", 0) == 0 && reached.host.find('.') != std::string::npos) {
    reached.host = reached.host.substr(7);
  }
  reached.port = bound.port;
  return reached;
}

}  // namespace xb
