#pragma once
// One control connection: framed messages (control_messages.hpp) over a TCP socket, every read
// and write bounded by a deadline, so a silent or slow peer costs a timeout, never a hang.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/unique_fd.hpp"
#include "transport/control_messages.hpp"
#include "transport/socket_ops.hpp"

namespace xb {

// The peer closed the connection at a message boundary.
class ChannelClosed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The deadline passed before a whole message arrived or left.
class ChannelTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ControlChannel {
 public:
  // `fd` is a connected, non-blocking socket; `peer` names the other end in messages.
  ControlChannel(UniqueFd fd, std::string peer);

  int fd() const { return fd_.get(); }
  const std::string& peer() const { return peer_; }

  void send(ControlType type, const std::vector<std::byte>& payload, Deadline deadline);
  // Throws ChannelClosed, ChannelTimeout, ProtocolError (bad magic, version, type or length, or the
  // connection ended inside a message) or SystemError.
  ControlMessage receive(Deadline deadline);
  // Takes what has arrived without waiting: the message once all of it is in, else nullopt (what
  // came so far is kept for the next call). The same errors as receive() but the timeout; a
  // header is judged as soon as its 12 bytes are in, so a lying length costs no buffer.
  std::optional<ControlMessage> receive_available();
  // True when a message (or the end of the stream) is waiting: receive() would not block first.
  bool readable() const;
  // Whether part of a message has arrived (for a timeout's message).
  bool inside_message() const { return !inbox_.empty(); }

 private:
  UniqueFd fd_;
  std::string peer_;
  std::vector<std::byte> inbox_;  // the message arriving: its header, then its payload
};

}  // namespace xb
