#include "transport/control_channel.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

#include "core/error.hpp"
#include "transport/byte_order.hpp"

namespace xb {

ControlChannel::ControlChannel(UniqueFd fd, std::string peer) : fd_(std::move(fd)), peer_(std::move(peer)) {}

void ControlChannel::send(ControlType type, const std::vector<std::byte>& payload, Deadline deadline) {
  std::vector<std::byte> frame(kControlHeaderBytes + payload.size());
  store_le<std::uint32_t>(frame.data(), kControlMagic);
  store_le<std::uint16_t>(frame.data() + 4, kControlVersion);
  store_le<std::uint16_t>(frame.data() + 6, static_cast<std::uint16_t>(type));
  store_le<std::uint32_t>(frame.data() + 8, static_cast<std::uint32_t>(payload.size()));
  std::copy(payload.begin(), payload.end(), frame.begin() + kControlHeaderBytes);
  std::size_t sent = 0;
  while (sent < frame.size()) {
    const ssize_t n = ::send(fd_.get(), frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n >= 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait_ready(fd_.get(), POLLOUT, deadline)) {
        throw ChannelTimeout(fmt::format("sending a {} message timed out", to_string(type)));
      }
      continue;
    }
    if (errno == EPIPE || errno == ECONNRESET) throw ChannelClosed("the peer closed the connection");
    throw_errno(fmt::format("send({} message to {})", to_string(type), peer_));
  }
}

namespace {
// The payload length a complete header announces, once it passed every check.
std::uint32_t checked_length(const std::byte* header) {
  const auto magic = load_le<std::uint32_t>(header);
  const auto version = load_le<std::uint16_t>(header + 4);
  const auto type = load_le<std::uint16_t>(header + 6);
  const auto length = load_le<std::uint32_t>(header + 8);
  if (magic != kControlMagic) throw ProtocolError("not an xferbench control message (wrong magic)");
  if (version != kControlVersion) {
    throw ProtocolError(fmt::format("control protocol version {}, this side speaks {}", version, kControlVersion));
  }
  if (type < static_cast<std::uint16_t>(ControlType::hello) || type > kLastControlType) {
    throw ProtocolError(fmt::format("unknown control message type {}", type));
  }
  if (length > kMaxControlPayload) {
    throw ProtocolError(fmt::format("a control message of {} bytes (at most {})", length, kMaxControlPayload));
  }
  return length;
}
}  // namespace

std::optional<ControlMessage> ControlChannel::receive_available() {
  for (;;) {
    std::size_t want = kControlHeaderBytes;
    if (inbox_.size() >= kControlHeaderBytes) want += checked_length(inbox_.data());
    if (inbox_.size() == want) {
      ControlMessage message{static_cast<ControlType>(load_le<std::uint16_t>(inbox_.data() + 6)),
                             std::vector<std::byte>(inbox_.begin() + kControlHeaderBytes, inbox_.end())};
      inbox_.clear();
      return message;
    }
    // Never past this message: what follows it stays in the socket for the next call.
    const std::size_t had = inbox_.size();
    inbox_.resize(want);
    const ssize_t r = ::recv(fd_.get(), inbox_.data() + had, want - had, MSG_DONTWAIT);
    inbox_.resize(had + static_cast<std::size_t>(r > 0 ? r : 0));
    if (r > 0) continue;
    if (r == 0 || errno == ECONNRESET) {
      if (had == 0) throw ChannelClosed("the peer closed the connection");
      throw ProtocolError(fmt::format("truncated message (the connection ended {} bytes into a {}-byte message)", had,
                                      want));
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return std::nullopt;
    throw_errno(fmt::format("recv(control message from {})", peer_));
  }
}

ControlMessage ControlChannel::receive(Deadline deadline) {
  for (;;) {
    if (auto message = receive_available()) return std::move(*message);
    if (!wait_ready(fd_.get(), POLLIN, deadline)) {
      throw ChannelTimeout(inside_message() ? "the peer stopped in the middle of a message"
                                            : "the peer sent nothing in time");
    }
  }
}

bool ControlChannel::readable() const {
  pollfd p{fd_.get(), POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

}  // namespace xb
