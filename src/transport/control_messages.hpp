#pragma once
// The control channel's messages (session.hpp): each a 12-byte frame header (magic, version, type,
// payload length) and a payload of little-endian fields, at most kMaxControlPayload bytes. The
// writer and reader here build and take apart payloads; a reader that runs off the end throws
// ProtocolError, so a truncated or lying message is an error, never a read past the buffer.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace xb {

inline constexpr std::uint32_t kControlMagic = 0x43544258;  // "XBTC" on the wire
// 2: challenge–response (auth.hpp) instead of a token in the hello.
// 3: the client's plan in its proof (a server started with a plan of its own refuses another).
// 4: staged regions (a flag in `exposed`, and `stage`): device memory the transport cannot reach,
//    exposed through a registered host window the server copies to and from on the client's word.
inline constexpr std::uint16_t kControlVersion = 4;
inline constexpr std::size_t kControlHeaderBytes = 12;
inline constexpr std::uint32_t kMaxControlPayload = 64 * 1024;
inline constexpr std::size_t kMaxTokenBytes = 1024;
// What the handshake's proofs are for (auth.hpp): a proof made for another protocol is none here.
inline constexpr const char* kControlAuthPurpose = "xferbench control session";

enum class ControlType : std::uint16_t {
  hello = 1,     // client → server: the client's nonce (always the first message)
  welcome = 2,   // server → client: data address, server description
  refused = 3,   // server → client: why the handshake failed (nothing else)
  expose = 4,    // client → server: bytes, place
  exposed = 5,   // server → client: id, address, bytes, key, description
  fill = 6,      // client → server: id, offset, bytes, seed
  verify = 7,    // client → server: id, offset, bytes, seed
  verified = 8,  // server → client: mismatch flag, offset
  done = 9,      // server → client: a fill finished
  failed = 10,   // server → client: error kind, text (the request failed; the session goes on)
  finish = 11,   // client → server: the session is over
  finished = 12, // server → client: regions released
  ready = 13,    // server → client: the data connection is accepted; the server's description
  challenge = 14,  // server → client: the server's nonce and its proof of the token
  proof = 15,      // client → server: the client's proof of the token, transport name, plan
  stage = 16,      // client → server: id, offset, bytes, direction (a staged region's copy; `done`)
  answer = 17,     // client → server: id, bytes, the client's region (address, bytes, key): ping-pong
                   // (pingpong.hpp); `done` once the server answers, then its puts until answer_end
  answer_end = 18, // client → server: stop answering (`done` once the server's puts are flushed)
};
inline constexpr std::uint16_t kLastControlType = 18;
const char* to_string(ControlType type);

// The peer broke the protocol (bad magic, version, type, length, truncated payload).
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ControlMessage {
  ControlType type{};
  std::vector<std::byte> payload;
};

class PayloadWriter {
 public:
  PayloadWriter& u8(std::uint8_t v);
  PayloadWriter& u32(std::uint32_t v);
  PayloadWriter& u64(std::uint64_t v);
  // A length-prefixed (u32) string or byte string.
  PayloadWriter& text(const std::string& v);
  PayloadWriter& bytes(const std::vector<std::uint8_t>& v);
  std::vector<std::byte> take() { return std::move(out_); }

 private:
  std::vector<std::byte> out_;
};

class PayloadReader {
 public:
  explicit PayloadReader(const ControlMessage& message) : message_(message) {}
  std::uint8_t u8();
  std::uint32_t u32();
  std::uint64_t u64();
  std::string text();
  std::vector<std::uint8_t> bytes();
  // Throws unless every byte was read (a message longer than its type allows is malformed too).
  void end() const;

 private:
  const std::byte* take(std::size_t n);
  const ControlMessage& message_;
  std::size_t at_ = 0;
};

}  // namespace xb
