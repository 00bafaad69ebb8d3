#include "transport/tcp/tcp_connection.hpp"

#include <fmt/format.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/range.hpp"
#include "transport/transport.hpp"

namespace xb::tcp {
namespace {

// How many queued messages one sendmsg gathers (two pieces each: header and payload), so a stream
// of small puts costs one system call per batch rather than per put.
constexpr std::size_t kGatherMessages = 32;
constexpr std::size_t kDiscardBytes = 64 * 1024;

bool peer_gone(int error) { return error == EPIPE || error == ECONNRESET || error == ENOTCONN || error == ETIMEDOUT; }

}  // namespace

Connection::Connection(UniqueFd fd, std::string peer, const RegionTable& regions)
    : fd_(std::move(fd)), peer_(std::move(peer)), regions_(regions) {}

void Connection::queue_put(const std::byte* src, const RegionKey& dst, std::uint64_t offset, std::uint64_t bytes) {
  Outgoing item;
  item.header = encode(Header{Op::put, dst.id, dst.secret, offset, bytes});
  item.data = src;
  item.length = bytes;
  out_.push_back(std::move(item));
}

void Connection::queue_get(std::byte* dst, const RegionKey& src, std::uint64_t offset, std::uint64_t bytes) {
  Outgoing item;
  item.header = encode(Header{Op::get, src.id, src.secret, offset, bytes});
  out_.push_back(std::move(item));
  gets_.push_back(PendingGet{dst, bytes});
}

std::uint64_t Connection::queue_flush() {
  Outgoing item;
  item.header = encode(Header{Op::flush, 0, 0, ++issued_flush_, 0});
  out_.push_back(std::move(item));
  return issued_flush_;
}

short Connection::poll_events() const {
  if (failure_) return 0;
  return static_cast<short>(POLLIN | (out_.empty() ? 0 : POLLOUT));
}

std::uint64_t Connection::unsent_bytes() const {
  std::uint64_t bytes = 0;
  for (const auto& item : out_) bytes += item.header_bytes + item.length - item.sent;
  return bytes;
}

bool Connection::drive() {
  if (failure_) return false;
  bool moved = send_some();
  moved |= receive_some();
  return moved;
}

bool Connection::send_some() {
  bool moved = false;
  while (!out_.empty() && !failure_) {
    iovec iov[2 * kGatherMessages];
    int count = 0;
    for (std::size_t i = 0; i < out_.size() && i < kGatherMessages; ++i) {
      Outgoing& item = out_[i];
      if (item.sent < item.header_bytes) {
        iov[count++] = iovec{item.header.data() + item.sent, item.header_bytes - item.sent};
      }
      const std::uint64_t payload_sent = item.sent > item.header_bytes ? item.sent - item.header_bytes : 0;
      if (payload_sent == item.length) continue;
      const std::byte* payload = item.data;
      if (!item.text.empty()) payload = reinterpret_cast<const std::byte*>(item.text.data());
      if (item.region != 0) {
        // A get reply: the region may have been released since the request was accepted.
        const Region* region = regions_.find(item.region);
        if (region == nullptr) {
          fail(fmt::format("region {} was released while peer {} was reading it; connection closed", item.region,
                           peer_));
        }
        payload = region->data + item.region_offset;
      }
      iov[count++] = iovec{const_cast<std::byte*>(payload + payload_sent), item.length - payload_sent};
    }
    msghdr message{};
    message.msg_iov = iov;
    message.msg_iovlen = static_cast<std::size_t>(count);
    // MSG_NOSIGNAL: a peer that vanished is an error to report, not a SIGPIPE that kills us.
    const ssize_t n = ::sendmsg(fd_.get(), &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      const int error = errno;
      // The peer may have said why before it went (an error frame): read what is left first.
      receive_some();
      if (!failure_) {
        failure_ = peer_gone(error) ? fmt::format("peer {} closed the connection", peer_)
                                    : fmt::format("send to peer {} failed: {}", peer_, std::strerror(error));
      }
      return true;
    }
    moved = true;
    auto left = static_cast<std::uint64_t>(n);
    while (left > 0) {
      Outgoing& item = out_.front();
      const std::uint64_t take = std::min(left, item.header_bytes + item.length - item.sent);
      item.sent += take;
      left -= take;
      if (item.sent == item.header_bytes + item.length) out_.pop_front();
    }
  }
  return moved;
}

bool Connection::receive_some() {
  bool moved = false;
  while (!failure_) {
    std::byte* into = nullptr;
    std::size_t want = 0;
    switch (receiving_) {
      case Receiving::header:
        into = in_header_.data() + in_header_bytes_;
        want = kHeaderBytes - in_header_bytes_;
        break;
      case Receiving::put_payload: {
        const std::uint64_t left = current_.length - payload_done_;
        // Checked against the region when the header arrived; a region released since then (ids
        // are never reused) takes the rest of the payload into a scratch buffer.
        if (const Region* region = regions_.find(current_.region)) {
          into = region->data + current_.offset + payload_done_;
          want = left;
        } else {
          discard_.resize(kDiscardBytes);
          into = discard_.data();
          want = std::min<std::uint64_t>(left, kDiscardBytes);
        }
        break;
      }
      case Receiving::get_reply_payload:
        into = reply_dst_ + payload_done_;
        want = current_.length - payload_done_;
        break;
      case Receiving::error_text:
        into = reinterpret_cast<std::byte*>(error_text_.data()) + payload_done_;
        want = current_.length - payload_done_;
        break;
    }
    const ssize_t n = ::recv(fd_.get(), into, want, MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return moved;
      failure_ = peer_gone(errno) ? fmt::format("peer {} closed the connection", peer_)
                                  : fmt::format("recv from peer {} failed: {}", peer_, std::strerror(errno));
      return true;
    }
    if (n == 0) {
      failure_ = fmt::format("peer {} closed the connection", peer_);
      return true;
    }
    moved = true;
    const auto got = static_cast<std::uint64_t>(n);
    if (receiving_ == Receiving::header) {
      in_header_bytes_ += got;
      if (in_header_bytes_ == kHeaderBytes) {
        in_header_bytes_ = 0;
        on_header();
      }
      continue;
    }
    payload_done_ += got;
    if (payload_done_ < current_.length) continue;
    if (receiving_ == Receiving::error_text) {
      fail(fmt::format("peer {} refused a request ({}) and closed the connection", peer_, error_text_));
    }
    receiving_ = Receiving::header;
  }
  return moved;
}

void Connection::on_header() {
  const RawHeader raw = decode(in_header_.data());
  if (raw.magic != kMagic || raw.version != kVersion) {
    refuse(fmt::format("sent a message that is not a version {} xferbench tcp transport header", kVersion));
  }
  const Header& h = raw.header;
  payload_done_ = 0;
  switch (h.op) {
    case Op::put:
      checked_region(h, "put");
      current_ = h;
      if (h.length > 0) receiving_ = Receiving::put_payload;
      return;
    case Op::get: {
      checked_region(h, "get");
      Outgoing reply;
      reply.header = encode(Header{Op::get_reply, 0, 0, 0, h.length});
      reply.region = h.region;
      reply.region_offset = h.offset;
      reply.length = h.length;
      out_.push_back(std::move(reply));
      return;
    }
    case Op::flush: {
      // TCP delivers in order and puts land as they arrive, so everything before this marker is
      // in place; get replies queued before it go out before the acknowledgement.
      Outgoing ack;
      ack.header = encode(Header{Op::flush_ack, 0, 0, h.offset, 0});
      out_.push_back(std::move(ack));
      return;
    }
    case Op::get_reply:
      if (gets_.empty()) refuse("sent a get reply nobody asked for");
      if (h.length != gets_.front().bytes) {
        refuse(fmt::format("answered a get of {} bytes with {} bytes", gets_.front().bytes, h.length));
      }
      current_ = h;
      reply_dst_ = gets_.front().dst;
      gets_.pop_front();
      receiving_ = Receiving::get_reply_payload;
      return;
    case Op::flush_ack:
      if (h.offset > issued_flush_ || h.offset < acked_flush_) refuse("acknowledged a flush that was never sent");
      acked_flush_ = h.offset;
      return;
    case Op::error:
      if (h.length == 0 || h.length > kMaxErrorText) {
        fail(fmt::format("peer {} refused a request and closed the connection", peer_));
      }
      current_ = h;
      error_text_.assign(h.length, '\0');
      receiving_ = Receiving::error_text;
      return;
  }
  refuse(fmt::format("sent an unknown request type {}", raw.op));
}

const Region& Connection::checked_region(const Header& h, const char* what) {
  const Region* region = regions_.find(h.region);
  const auto request = fmt::format("{} of {} bytes at offset {} of region {}", what, h.length, h.offset, h.region);
  if (region == nullptr) refuse(request + ": no such region");
  // The secret is random per region: a peer that was not given the descriptor cannot guess it.
  if (region->secret != h.secret) refuse(request + ": wrong key");
  if (!range_inside(h.offset, h.length, region->size)) {
    refuse(fmt::format("{}: outside the region ({} bytes)", request, region->size));
  }
  return *region;
}

void Connection::refuse(const std::string& why) {
  // Tell the peer why, if the socket takes it now: drop what was queued behind a message already
  // half on the wire (the peer's requests are no longer served), then the error frame.
  const std::string text = why.substr(0, kMaxErrorText);
  while (out_.size() > 1 || (!out_.empty() && out_.front().sent == 0)) out_.pop_back();
  Outgoing error;
  error.header = encode(Header{Op::error, 0, 0, 0, text.size()});
  error.text = text;
  error.length = text.size();
  out_.push_back(std::move(error));
  gets_.clear();
  try {
    send_some();
  } catch (const std::exception&) {
    // Best effort only: the connection is being closed for the reason below either way.
  }
  fail(fmt::format("peer {}: {}; connection closed", peer_, why));
}

void Connection::fail(const std::string& why) {
  failure_ = why;
  // Stop both directions: the peer sees the end of the stream after whatever was already sent.
  ::shutdown(fd_.get(), SHUT_WR);
  throw TransportError(why);
}

}  // namespace xb::tcp
