#include "transport/ticket_gate.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

#include "core/error.hpp"
#include "transport/auth.hpp"
#include "transport/transport.hpp"

namespace xb {

TicketGate::TicketGate(std::span<const std::uint8_t> ticket) : ticket_(ticket.begin(), ticket.end()) {}

UniqueFd TicketGate::admit(int listen_fd) {
  for (;;) {
    UniqueFd fd = accept_tcp(listen_fd);
    if (!fd.valid()) break;
    if (ticket_.empty()) return fd;
    if (pending_.size() >= kMaxPendingTickets) {
      pending_.erase(pending_.begin());  // the oldest: a flood of new ones cannot hold the real one off for long
      ++turned_away_;
    }
    pending_.push_back(Pending{std::move(fd), {}, deadline_after(kTicketWait)});
  }
  const auto now = std::chrono::steady_clock::now();
  for (auto it = pending_.begin(); it != pending_.end();) {
    Pending& p = *it;
    bool drop = now >= p.deadline;
    while (!drop && p.got.size() < ticket_.size()) {
      std::uint8_t buffer[64];
      const std::size_t want = std::min(sizeof buffer, ticket_.size() - p.got.size());
      const ssize_t r = ::recv(p.fd.get(), buffer, want, MSG_DONTWAIT);
      if (r > 0) {
        p.got.insert(p.got.end(), buffer, buffer + r);
        continue;
      }
      if (r < 0 && errno == EINTR) continue;
      drop = !(r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));  // closed or broken
      break;
    }
    if (!drop && p.got.size() == ticket_.size()) {
      if (same_bytes(p.got, ticket_)) {  // constant time, as every secret comparison (auth.hpp)
        UniqueFd admitted = std::move(p.fd);
        pending_.erase(it);
        return admitted;
      }
      drop = true;
    }
    if (drop) {
      ++turned_away_;
      it = pending_.erase(it);  // closed with no reply: a stranger learns nothing
    } else {
      ++it;
    }
  }
  return UniqueFd();
}

std::string turned_away_text(const TicketGate& gate) {
  if (gate.turned_away() == 0) return "";
  return fmt::format(" ({} connection{} without the session's ticket turned away)", gate.turned_away(),
                     gate.turned_away() == 1 ? "" : "s");
}

void present_ticket(int fd, std::span<const std::uint8_t> ticket, Deadline deadline, const std::string& peer) {
  std::size_t sent = 0;
  while (sent < ticket.size()) {
    const ssize_t n = ::send(fd, ticket.data() + sent, ticket.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_ready(fd, POLLOUT, deadline)) throw TransportError(fmt::format("{}: could not send the data ticket in time", peer));
      continue;
    }
    throw TransportError(fmt::format("{}: the connection broke while sending the data ticket", peer));
  }
}

}  // namespace xb
