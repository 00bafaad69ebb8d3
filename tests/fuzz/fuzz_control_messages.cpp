// libFuzzer target: the control channel's reader and the payload layouts of every message, on
// bytes a peer could send. The input goes into one end of a socket pair; the real ControlChannel
// reads messages from the other (framing, header checks, the payload bound) and each payload is
// taken apart as the side that receives it does. The only ways out: a message, ProtocolError
// (malformed), ChannelClosed (the end of the stream); never a read past a buffer or an allocation
// the header's length did not pass.
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "core/unique_fd.hpp"
#include "transport/auth.hpp"
#include "transport/control_channel.hpp"
#include "transport/control_messages.hpp"

namespace {

// Each message's fields in the order its receiver reads them (session.cpp).
void take_apart(const xb::ControlMessage& m) {
  using xb::ControlType;
  xb::PayloadReader r(m);
  switch (m.type) {
    case ControlType::hello: {
      const auto nonce = r.bytes();
      r.end();
      if (xb::AuthServer::valid_nonce(nonce)) (void)xb::AuthServer("token", xb::kControlAuthPurpose, nonce).proof();
      return;
    }
    case ControlType::welcome: r.text(); r.u32(); break;
    case ControlType::refused: r.u8(); r.text(); break;
    case ControlType::expose: r.u64(); r.u8(); break;
    case ControlType::exposed: r.u32(); r.u64(); r.u64(); r.bytes(); r.text(); break;
    case ControlType::fill:
    case ControlType::verify: r.u32(); r.u64(); r.u64(); r.u64(); break;
    case ControlType::verified: r.u8(); r.u64(); break;
    case ControlType::failed: r.u8(); r.text(); break;
    case ControlType::ready: r.text(); break;
    case ControlType::challenge: {
      const auto nonce = r.bytes();
      const auto proof = r.bytes();
      r.end();
      xb::AuthClient client("token", xb::kControlAuthPurpose);
      if (client.server_proved(nonce, proof)) std::abort();  // a proof forged from nothing
      return;
    }
    case ControlType::proof: r.bytes(); r.text(); r.text(); break;
    case ControlType::done:
    case ControlType::finish:
    case ControlType::finished: break;
  }
  r.end();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) std::abort();
  xb::UniqueFd writer(fds[0]);
  // Inputs are capped (-max_len) below the pair's buffer: the write never blocks.
  const int buffer = 1 << 20;
  ::setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &buffer, sizeof buffer);
  if (size > 0 && ::write(fds[0], data, size) != static_cast<ssize_t>(size)) std::abort();
  writer = xb::UniqueFd();  // the end of the stream after the input
  xb::ControlChannel channel(xb::UniqueFd(fds[1]), "fuzz");
  try {
    for (int i = 0; i < 1000; ++i) {
      const auto message = channel.receive_available();
      if (!message) break;
      try {
        take_apart(*message);
      } catch (const xb::ProtocolError&) {
      }
    }
  } catch (const xb::ProtocolError&) {
  } catch (const xb::ChannelClosed&) {
  }
  return 0;
}
