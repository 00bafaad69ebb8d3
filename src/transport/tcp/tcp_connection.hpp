#pragma once
// One TCP transport connection: both its active side (our put/get/flush requests and their
// answers) and its passive side (the peer's requests into our regions), driven without blocking.
// drive() sends what the socket takes and receives what has arrived, until EAGAIN, so the owner
// decides when to wait (Transport::wait, Endpoint::flush). Payloads go straight between the socket
// and region memory: no intermediate copy.
//
// A request the passive side refuses (unknown region, wrong secret, a range outside the region,
// a broken header) fails this connection: an error frame tells the peer why, the connection stops
// serving, and drive() throws TransportError with the reason. Memory is never touched for it.
#include <poll.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "core/unique_fd.hpp"
#include "transport/tcp/tcp_regions.hpp"
#include "transport/tcp/tcp_wire.hpp"

namespace xb::tcp {

class Connection {
 public:
  Connection(UniqueFd fd, std::string peer, const RegionTable& regions);

  int fd() const { return fd_.get(); }
  const std::string& peer() const { return peer_; }

  // Active side. The caller has checked both ranges; `src`/`dst` stay valid until flushed.
  void queue_put(const std::byte* src, const RegionKey& dst, std::uint64_t offset, std::uint64_t bytes);
  void queue_get(std::byte* dst, const RegionKey& src, std::uint64_t offset, std::uint64_t bytes);
  // Queues a flush marker; returns its sequence number for flushed().
  std::uint64_t queue_flush();
  bool flushed(std::uint64_t sequence) const { return acked_flush_ >= sequence; }

  // Sends and receives until the socket would block. Returns whether anything moved. Throws
  // TransportError (naming the peer) when this call found the connection broken; afterwards
  // failure() holds the reason and drive() does nothing.
  bool drive();
  // What to poll for: POLLIN always, POLLOUT while sends are pending; 0 once failed.
  short poll_events() const;
  const std::optional<std::string>& failure() const { return failure_; }
  // Bytes queued but not yet handed to the kernel (for timeout messages).
  std::uint64_t unsent_bytes() const;

 private:
  struct Outgoing {
    HeaderBytes header{};
    std::size_t header_bytes = kHeaderBytes;
    const std::byte* data = nullptr;  // payload in our memory (a put), or
    std::uint32_t region = 0;         // a region of ours, looked up when sent (a get reply), or
    std::string text;                 // an error's text
    std::uint64_t region_offset = 0;
    std::uint64_t length = 0;  // payload bytes
    std::uint64_t sent = 0;    // header + payload bytes already sent
  };
  enum class Receiving { header, put_payload, get_reply_payload, error_text };
  struct PendingGet {
    std::byte* dst;
    std::uint64_t bytes;
  };

  bool send_some();
  bool receive_some();
  void on_header();
  // Refuses the peer's request: error frame, stop serving, throw.
  [[noreturn]] void refuse(const std::string& why);
  [[noreturn]] void fail(const std::string& why);
  // The region of a peer's request if its id, secret and range are valid; else refuses.
  const Region& checked_region(const Header& h, const char* what);

  UniqueFd fd_;
  std::string peer_;
  const RegionTable& regions_;
  std::deque<Outgoing> out_;
  std::deque<PendingGet> gets_;
  std::uint64_t issued_flush_ = 0;
  std::uint64_t acked_flush_ = 0;

  Receiving receiving_ = Receiving::header;
  HeaderBytes in_header_{};
  std::size_t in_header_bytes_ = 0;
  Header current_{};              // the request or reply whose payload is arriving
  std::uint64_t payload_done_ = 0;
  std::byte* reply_dst_ = nullptr;  // where the current get reply lands
  std::string error_text_;
  std::vector<std::byte> discard_;  // a put into a region released meanwhile lands here

  std::optional<std::string> failure_;
};

}  // namespace xb::tcp
