#pragma once
// The gate of a data listener (tcp, ucx): a connection is admitted only once its first bytes are
// the session's data ticket (auth.hpp), read before the listener sends or reads anything else, so
// whoever reaches the data port first can neither take the session's data slot nor learn a worker
// address. Connections are read side by side, each for at most kTicketWait, at most
// kMaxPendingTickets at once (a new one beyond that closes the oldest): silent or wrong ones cost
// the real client nothing. Without a ticket (a transport's own tests), the first connection is
// admitted as it comes.
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/unique_fd.hpp"
#include "transport/socket_ops.hpp"

namespace xb {

inline constexpr std::chrono::milliseconds kTicketWait{3000};
inline constexpr std::size_t kMaxPendingTickets = 32;

class TicketGate {
 public:
  explicit TicketGate(std::span<const std::uint8_t> ticket);

  // Accepts what is pending on `listen_fd` and reads what each connection has sent; the first
  // connection that presented the ticket whole, or an invalid fd. Never blocks.
  UniqueFd admit(int listen_fd);
  // While connections are being read, how long a caller's poll may sleep before calling admit()
  // again (their bytes do not wake a poll on the listener alone).
  bool reading() const { return !pending_.empty(); }
  // How many connections were turned away, for the caller's timeout message.
  std::size_t turned_away() const { return turned_away_; }

 private:
  struct Pending {
    UniqueFd fd;
    std::vector<std::uint8_t> got;
    Deadline deadline;
  };
  std::vector<std::uint8_t> ticket_;
  std::vector<Pending> pending_;
  std::size_t turned_away_ = 0;
};

// ", 2 connections without the session's ticket turned away" for a timeout's message, or "".
std::string turned_away_text(const TicketGate& gate);

// Sends the ticket as the first bytes of a data connection, before the deadline. Throws
// TransportError naming `peer` when it cannot.
void present_ticket(int fd, std::span<const std::uint8_t> ticket, Deadline deadline, const std::string& peer);

}  // namespace xb
