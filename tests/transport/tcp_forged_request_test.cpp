// Requests no honest xferbench peer sends, written by hand on the data socket: the passive side
// refuses each with an error frame, closes the connection, reports it, and never touches memory
// inside or outside the region.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <span>

#include "core/pattern.hpp"
#include "transport/tcp/tcp_regions.hpp"
#include "transport/tcp/tcp_wire.hpp"
#include "transport_test_support.hpp"

namespace xb {
namespace {

using test::PassivePeer;

constexpr std::size_t kForgedRegion = 8192;
constexpr std::uint64_t kSeed = 11;

struct Forged {
  const char* name;
  tcp::Op op;
  // Builds the header from the real key (so each case changes exactly one thing).
  tcp::Header (*header)(const tcp::RegionKey& key);
  std::size_t payload;  // bytes sent after the header (a put's would-be data)
  const char* reason;   // what the passive side's error must say
};

std::string text_of(const std::vector<std::byte>& bytes, std::size_t from) {
  if (bytes.size() <= from) return "";
  return std::string(reinterpret_cast<const char*>(bytes.data() + from), bytes.size() - from);
}

class ForgedRequest : public ::testing::TestWithParam<Forged> {};

TEST_P(ForgedRequest, IsRefusedAndMemoryIsUntouched) {
  const Forged& c = GetParam();
  PassivePeer peer(kForgedRegion, kSeed);
  const auto key = tcp::unpack_key(peer.descriptor().key);
  ASSERT_TRUE(key.has_value());
  const int fd = test::raw_connect(peer.address());
  const auto header = tcp::encode(c.header(*key));
  std::vector<std::byte> message(header.begin(), header.end());
  message.resize(message.size() + c.payload, std::byte{0xEE});
  test::raw_send(fd, message.data(), message.size());

  // The passive side answers with an error frame giving the reason, then ends the stream.
  const auto reply = test::raw_read_all(fd, 5000);
  ::close(fd);
  ASSERT_GE(reply.size(), tcp::kHeaderBytes);
  const auto raw = tcp::decode(reply.data());
  EXPECT_EQ(raw.magic, tcp::kMagic);
  EXPECT_EQ(raw.header.op, tcp::Op::error);
  EXPECT_EQ(raw.header.length, reply.size() - tcp::kHeaderBytes);
  EXPECT_NE(text_of(reply, tcp::kHeaderBytes).find(c.reason), std::string::npos) << text_of(reply, tcp::kHeaderBytes);

  const std::string reported = peer.stop();
  EXPECT_NE(reported.find(c.reason), std::string::npos) << reported;
  EXPECT_NE(reported.find("connection closed"), std::string::npos) << reported;
  const auto region = peer.region();
  EXPECT_EQ(find_pattern_mismatch(std::span<const std::byte>(region), kSeed, 0), std::nullopt);
  EXPECT_TRUE(peer.guards_intact());
}

constexpr std::uint64_t kMax = ~std::uint64_t{0};

INSTANTIATE_TEST_SUITE_P(
    TcpTransport, ForgedRequest,
    ::testing::Values(
        Forged{"put_wrong_secret", tcp::Op::put,
               [](const tcp::RegionKey& k) { return tcp::Header{tcp::Op::put, k.id, k.secret ^ 1, 0, 16}; }, 16,
               "wrong key"},
        Forged{"put_unknown_region", tcp::Op::put,
               [](const tcp::RegionKey& k) { return tcp::Header{tcp::Op::put, k.id + 7, k.secret, 0, 16}; }, 16,
               "no such region"},
        Forged{"put_past_the_end", tcp::Op::put,
               [](const tcp::RegionKey& k) { return tcp::Header{tcp::Op::put, k.id, k.secret, kForgedRegion - 8, 16}; },
               16, "outside the region"},
        Forged{"put_offset_wraps", tcp::Op::put,
               [](const tcp::RegionKey& k) { return tcp::Header{tcp::Op::put, k.id, k.secret, kMax - 7, 16}; }, 16,
               "outside the region"},
        Forged{"put_length_wraps", tcp::Op::put,
               [](const tcp::RegionKey& k) { return tcp::Header{tcp::Op::put, k.id, k.secret, 16, kMax - 8}; }, 64,
               "outside the region"},
        Forged{"get_past_the_end", tcp::Op::get,
               [](const tcp::RegionKey& k) { return tcp::Header{tcp::Op::get, k.id, k.secret, kForgedRegion, 1}; }, 0,
               "outside the region"},
        Forged{"get_wrong_secret", tcp::Op::get,
               [](const tcp::RegionKey& k) { return tcp::Header{tcp::Op::get, k.id, 0, 0, 8}; }, 0, "wrong key"},
        Forged{"unasked_get_reply", tcp::Op::get_reply,
               [](const tcp::RegionKey&) { return tcp::Header{tcp::Op::get_reply, 0, 0, 0, 8}; }, 8,
               "nobody asked for"},
        Forged{"unknown_op", tcp::Op::put,
               [](const tcp::RegionKey& k) { return tcp::Header{static_cast<tcp::Op>(77), k.id, k.secret, 0, 0}; }, 0,
               "unknown request type 77"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(TcpTransport, GarbageOnTheDataSocketIsRefused) {
  PassivePeer peer(kForgedRegion, kSeed);
  const int fd = test::raw_connect(peer.address());
  const std::string garbage = "GET / HTTP/1.1\r\nHost: example\r\n\r\n and some more bytes";
  test::raw_send(fd, garbage.data(), garbage.size());
  test::raw_read_all(fd, 5000);
  ::close(fd);
  const std::string reported = peer.stop();
  EXPECT_NE(reported.find("not a version 1 xferbench tcp transport header"), std::string::npos) << reported;
  const auto region = peer.region();
  EXPECT_EQ(find_pattern_mismatch(std::span<const std::byte>(region), kSeed, 0), std::nullopt);
  EXPECT_TRUE(peer.guards_intact());
}

TEST(TcpTransport, AForgedGetSendsNothingButTheError) {
  PassivePeer peer(kForgedRegion, kSeed);
  const auto key = tcp::unpack_key(peer.descriptor().key);
  ASSERT_TRUE(key.has_value());
  const int fd = test::raw_connect(peer.address());
  // A valid get first (answered with the region's bytes), then one that reaches past the end.
  const auto good = tcp::encode(tcp::Header{tcp::Op::get, key->id, key->secret, 0, 64});
  const auto bad = tcp::encode(tcp::Header{tcp::Op::get, key->id, key->secret, 64, kForgedRegion});
  test::raw_send(fd, good.data(), good.size());
  std::vector<std::byte> answer(tcp::kHeaderBytes + 64);
  ASSERT_EQ(::recv(fd, answer.data(), answer.size(), MSG_WAITALL), static_cast<ssize_t>(answer.size()));
  EXPECT_EQ(tcp::decode(answer.data()).header.op, tcp::Op::get_reply);
  EXPECT_EQ(find_pattern_mismatch(std::span(answer.data() + tcp::kHeaderBytes, 64), kSeed, 0), std::nullopt);
  test::raw_send(fd, bad.data(), bad.size());
  const auto reply = test::raw_read_all(fd, 5000);
  ::close(fd);
  ASSERT_GE(reply.size(), tcp::kHeaderBytes);
  const auto error = tcp::decode(reply.data());
  EXPECT_EQ(error.header.op, tcp::Op::error);
  EXPECT_EQ(reply.size(), tcp::kHeaderBytes + error.header.length);  // no region bytes beyond
  EXPECT_NE(peer.stop().find("outside the region"), std::string::npos);
}

}  // namespace
}  // namespace xb
