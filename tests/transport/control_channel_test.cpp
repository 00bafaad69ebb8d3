// The control channel's framing over a real socket pair: round trips, and every way a frame can
// be wrong (magic, version, type, length, truncation, silence, a closed peer).
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>

#include "core/unique_fd.hpp"
#include "transport/byte_order.hpp"
#include "transport/control_channel.hpp"

namespace xb {
namespace {

using std::chrono::milliseconds;

struct Pair {
  ControlChannel channel;
  UniqueFd other;  // the raw far end
};

Pair make_pair() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds) != 0) throw std::runtime_error("socketpair");
  return Pair{ControlChannel(UniqueFd(fds[0]), "test-peer"), UniqueFd(fds[1])};
}

std::array<std::byte, kControlHeaderBytes> header(std::uint32_t magic, std::uint16_t version, std::uint16_t type,
                                                  std::uint32_t length) {
  std::array<std::byte, kControlHeaderBytes> h{};
  store_le<std::uint32_t>(h.data(), magic);
  store_le<std::uint16_t>(h.data() + 4, version);
  store_le<std::uint16_t>(h.data() + 6, type);
  store_le<std::uint32_t>(h.data() + 8, length);
  return h;
}

void write_all(int fd, const void* data, std::size_t n) { ASSERT_EQ(::write(fd, data, n), static_cast<ssize_t>(n)); }

TEST(ControlChannel, RoundTripsFieldsBetweenTwoChannels) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
  ControlChannel a{UniqueFd(fds[0]), "a"};
  ControlChannel b{UniqueFd(fds[1]), "b"};
  a.send(ControlType::fill, PayloadWriter().u32(7).u64(1ull << 40).text("seed").bytes({1, 2, 3}).u8(9).take(),
         deadline_after(milliseconds(1000)));
  EXPECT_TRUE(b.readable());
  const ControlMessage m = b.receive(deadline_after(milliseconds(1000)));
  EXPECT_EQ(m.type, ControlType::fill);
  PayloadReader r(m);
  EXPECT_EQ(r.u32(), 7u);
  EXPECT_EQ(r.u64(), 1ull << 40);
  EXPECT_EQ(r.text(), "seed");
  EXPECT_EQ(r.bytes(), (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_EQ(r.u8(), 9);
  EXPECT_NO_THROW(r.end());
  EXPECT_FALSE(b.readable());
}

TEST(ControlChannel, ReaderNeverRunsPastThePayload) {
  ControlMessage m{ControlType::expose, PayloadWriter().u32(1000).take()};  // a string claiming 1000 bytes
  PayloadReader r(m);
  EXPECT_THROW(r.text(), ProtocolError);
  ControlMessage extra{ControlType::finish, PayloadWriter().u8(1).take()};
  EXPECT_THROW(PayloadReader(extra).end(), ProtocolError);
}

TEST(ControlChannel, RefusesBadFrames) {
  const struct {
    const char* name;
    std::array<std::byte, kControlHeaderBytes> h;
    const char* expect;
  } cases[] = {
      {"magic", header(0x12345678, kControlVersion, 1, 0), "magic"},
      {"version", header(kControlMagic, 99, 1, 0), "version 99"},
      {"type0", header(kControlMagic, kControlVersion, 0, 0), "unknown control message type 0"},
      {"type99", header(kControlMagic, kControlVersion, 99, 0), "unknown control message type 99"},
      {"length", header(kControlMagic, kControlVersion, 1, kMaxControlPayload + 1), "at most"},
  };
  for (const auto& c : cases) {
    auto [channel, other] = make_pair();
    write_all(other.get(), c.h.data(), c.h.size());
    try {
      channel.receive(deadline_after(milliseconds(1000)));
      ADD_FAILURE() << c.name << " accepted";
    } catch (const ProtocolError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expect), std::string::npos) << c.name << ": " << e.what();
    }
  }
}

TEST(ControlChannel, TruncatedFrameIsAProtocolError) {
  auto [channel, other] = make_pair();
  const auto h = header(kControlMagic, kControlVersion, 1, 100);
  write_all(other.get(), h.data(), h.size());
  write_all(other.get(), "0123456789", 10);
  other.reset();  // the peer ends the stream 10 bytes into a 100-byte payload
  try {
    channel.receive(deadline_after(milliseconds(1000)));
    ADD_FAILURE() << "a truncated frame was accepted";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

TEST(ControlChannel, HalfAHeaderThenSilenceTimesOut) {
  auto [channel, other] = make_pair();
  write_all(other.get(), "XB", 2);
  try {
    channel.receive(deadline_after(milliseconds(100)));
    ADD_FAILURE() << "no timeout";
  } catch (const ChannelTimeout& e) {
    EXPECT_NE(std::string(e.what()).find("middle of a message"), std::string::npos) << e.what();
  }
}

TEST(ControlChannel, SilenceTimesOutAndCloseIsReported) {
  auto [channel, other] = make_pair();
  EXPECT_THROW(channel.receive(deadline_after(milliseconds(50))), ChannelTimeout);
  other.reset();
  EXPECT_TRUE(channel.readable());
  EXPECT_THROW(channel.receive(deadline_after(milliseconds(1000))), ChannelClosed);
  EXPECT_THROW(channel.send(ControlType::finish, {}, deadline_after(milliseconds(1000))), ChannelClosed);
}

}  // namespace
}  // namespace xb
