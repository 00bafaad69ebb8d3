#pragma once
// The TCP transport's wire format: every message starts with one fixed 40-byte header; a put and a
// get reply carry `length` payload bytes right after it, an error its text. Requests name the
// region by id and secret (the remote key), and an offset and length inside it.
#include <array>
#include <cstddef>
#include <cstdint>

#include "transport/byte_order.hpp"

namespace xb::tcp {

inline constexpr std::uint32_t kMagic = 0x44544258;  // "XBTD" on the wire
inline constexpr std::uint8_t kVersion = 1;
inline constexpr std::size_t kHeaderBytes = 40;
inline constexpr std::uint64_t kMaxErrorText = 4096;

enum class Op : std::uint8_t {
  put = 1,        // region, secret, offset, length + payload: write into our region
  get = 2,        // region, secret, offset, length: send that range back
  get_reply = 3,  // length + payload: the data of the oldest unanswered get
  flush = 4,      // offset = sequence number: acknowledge once everything before has landed
  flush_ack = 5,  // offset = the flush's sequence number
  error = 6,      // length + text: the sender refused a request and stops serving this connection
};

struct Header {
  Op op = Op::put;
  std::uint32_t region = 0;
  std::uint64_t secret = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

using HeaderBytes = std::array<std::byte, kHeaderBytes>;

inline HeaderBytes encode(const Header& h) {
  HeaderBytes b{};
  store_le<std::uint32_t>(b.data(), kMagic);
  b[4] = std::byte{kVersion};
  b[5] = std::byte{static_cast<std::uint8_t>(h.op)};
  store_le<std::uint32_t>(b.data() + 8, h.region);
  store_le<std::uint64_t>(b.data() + 16, h.secret);
  store_le<std::uint64_t>(b.data() + 24, h.offset);
  store_le<std::uint64_t>(b.data() + 32, h.length);
  return b;
}

// Fields as they are; the caller checks magic, version and op.
struct RawHeader {
  std::uint32_t magic;
  std::uint8_t version;
  std::uint8_t op;
  Header header;
};

inline RawHeader decode(const std::byte* b) {
  RawHeader r{};
  r.magic = load_le<std::uint32_t>(b);
  r.version = std::to_integer<std::uint8_t>(b[4]);
  r.op = std::to_integer<std::uint8_t>(b[5]);
  r.header.op = static_cast<Op>(r.op);
  r.header.region = load_le<std::uint32_t>(b + 8);
  r.header.secret = load_le<std::uint64_t>(b + 16);
  r.header.offset = load_le<std::uint64_t>(b + 24);
  r.header.length = load_le<std::uint64_t>(b + 32);
  return r;
}

}  // namespace xb::tcp
