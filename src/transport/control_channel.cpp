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

void ControlChannel::read_exact(std::byte* into, std::size_t n, Deadline deadline, bool started) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::recv(fd_.get(), into + got, n - got, MSG_DONTWAIT);
    if (r > 0) {
      got += static_cast<std::size_t>(r);
      continue;
    }
    if (r == 0 || errno == ECONNRESET) {
      if (!started && got == 0) throw ChannelClosed("the peer closed the connection");
      throw ProtocolError(fmt::format("truncated message (the connection ended {} bytes into a {}-byte read)", got, n));
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait_ready(fd_.get(), POLLIN, deadline)) {
        throw ChannelTimeout(started || got > 0 ? "the peer stopped in the middle of a message"
                                                : "the peer sent nothing in time");
      }
      continue;
    }
    throw_errno(fmt::format("recv(control message from {})", peer_));
  }
}

ControlMessage ControlChannel::receive(Deadline deadline) {
  std::byte header[kControlHeaderBytes];
  read_exact(header, kControlHeaderBytes, deadline, false);
  const auto magic = load_le<std::uint32_t>(header);
  const auto version = load_le<std::uint16_t>(header + 4);
  const auto type = load_le<std::uint16_t>(header + 6);
  const auto length = load_le<std::uint32_t>(header + 8);
  if (magic != kControlMagic) throw ProtocolError("not an xferbench control message (wrong magic)");
  if (version != kControlVersion) {
    throw ProtocolError(fmt::format("control protocol version {}, this side speaks {}", version, kControlVersion));
  }
  if (type < static_cast<std::uint16_t>(ControlType::hello) || type > static_cast<std::uint16_t>(ControlType::ready)) {
    throw ProtocolError(fmt::format("unknown control message type {}", type));
  }
  if (length > kMaxControlPayload) {
    throw ProtocolError(fmt::format("a control message of {} bytes (at most {})", length, kMaxControlPayload));
  }
  ControlMessage message{static_cast<ControlType>(type), std::vector<std::byte>(length)};
  read_exact(message.payload.data(), length, deadline, true);
  return message;
}

bool ControlChannel::readable() const {
  pollfd p{fd_.get(), POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

}  // namespace xb
