#include "transport/control_messages.hpp"

#include <fmt/format.h>

#include "transport/byte_order.hpp"

namespace xb {

const char* to_string(ControlType type) {
  switch (type) {
    case ControlType::hello: return "hello";
    case ControlType::welcome: return "welcome";
    case ControlType::refused: return "refused";
    case ControlType::expose: return "expose";
    case ControlType::exposed: return "exposed";
    case ControlType::fill: return "fill";
    case ControlType::verify: return "verify";
    case ControlType::verified: return "verified";
    case ControlType::done: return "done";
    case ControlType::failed: return "failed";
    case ControlType::finish: return "finish";
    case ControlType::finished: return "finished";
    case ControlType::ready: return "ready";
    case ControlType::challenge: return "challenge";
    case ControlType::proof: return "proof";
    case ControlType::stage: return "stage";
    case ControlType::answer: return "answer";
    case ControlType::answer_end: return "answer_end";
  }
  return "unknown";
}

namespace {
template <typename T>
void append(std::vector<std::byte>& out, T value) {
  std::byte b[sizeof(T)];
  store_le<T>(b, value);
  out.insert(out.end(), b, b + sizeof(T));
}
}  // namespace

PayloadWriter& PayloadWriter::u8(std::uint8_t v) {
  out_.push_back(std::byte{v});
  return *this;
}
PayloadWriter& PayloadWriter::u32(std::uint32_t v) {
  append(out_, v);
  return *this;
}
PayloadWriter& PayloadWriter::u64(std::uint64_t v) {
  append(out_, v);
  return *this;
}
PayloadWriter& PayloadWriter::text(const std::string& v) {
  u32(static_cast<std::uint32_t>(v.size()));
  const auto* p = reinterpret_cast<const std::byte*>(v.data());
  out_.insert(out_.end(), p, p + v.size());
  return *this;
}
PayloadWriter& PayloadWriter::bytes(const std::vector<std::uint8_t>& v) {
  u32(static_cast<std::uint32_t>(v.size()));
  const auto* p = reinterpret_cast<const std::byte*>(v.data());
  out_.insert(out_.end(), p, p + v.size());
  return *this;
}

const std::byte* PayloadReader::take(std::size_t n) {
  if (n > message_.payload.size() - at_) {
    throw ProtocolError(fmt::format("{} message of {} bytes is truncated", to_string(message_.type),
                                    message_.payload.size()));
  }
  const std::byte* p = message_.payload.data() + at_;
  at_ += n;
  return p;
}

std::uint8_t PayloadReader::u8() { return std::to_integer<std::uint8_t>(*take(1)); }
std::uint32_t PayloadReader::u32() { return load_le<std::uint32_t>(take(4)); }
std::uint64_t PayloadReader::u64() { return load_le<std::uint64_t>(take(8)); }

std::string PayloadReader::text() {
  const std::uint32_t n = u32();
  const auto* p = reinterpret_cast<const char*>(take(n));
  return std::string(p, n);
}

std::vector<std::uint8_t> PayloadReader::bytes() {
  const std::uint32_t n = u32();
  const auto* p = reinterpret_cast<const std::uint8_t*>(take(n));
  return std::vector<std::uint8_t>(p, p + n);
}

void PayloadReader::end() const {
  if (at_ != message_.payload.size()) {
    throw ProtocolError(fmt::format("{} message has {} unexpected trailing bytes", to_string(message_.type),
                                    message_.payload.size() - at_));
  }
}

}  // namespace xb
