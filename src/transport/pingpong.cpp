#include "transport/pingpong.hpp"

#include <cstring>
#include <fmt/format.h>

#include "core/stop.hpp"
#include "transport/control_channel.hpp"

namespace xb {
namespace {

using Clock = std::chrono::steady_clock;

// How often a spinning side reads the clock (for its deadline and the once-a-millisecond looks):
// rarely enough that a round is not slowed by it, often enough to stay within a millisecond.
constexpr unsigned kSpinsPerClockRead = 64;
constexpr auto kLookEvery = std::chrono::milliseconds(1);
// The byte is read between progress calls, so one arriving during a call waits for its end; a put
// into shared memory (the latency that matters most) arrives with no progress here at all, and
// what needs it (active messages, TCP) waits at most a few reads more.
constexpr unsigned kSpinsPerProgress = 8;

}  // namespace

void await_pingpong_answer(Transport& transport, const void* reply, std::uint64_t bytes, std::uint8_t sequence,
                           std::chrono::milliseconds wait, const std::string& peer, std::uint64_t round) {
  Clock::time_point deadline{};
  for (unsigned spins = 1;; ++spins) {
    if (read_last_byte(reply, bytes) == sequence) return;
    if (spins % kSpinsPerProgress == 0) transport.progress();
    if (spins % kSpinsPerClockRead != 0) continue;
    const auto now = Clock::now();
    if (deadline == Clock::time_point{}) {
      deadline = now + wait;
    } else if (now > deadline) {
      throw TransportError(fmt::format("ping-pong: peer {} did not answer round {} ({} bytes) within {} ms", peer,
                                       round, bytes, wait.count()));
    }
  }
}

ControlMessage answer_pingpong(Transport& transport, Endpoint& endpoint, const LocalRegion& mine,
                               const LocalRegion& answer, RemoteRegion& reply, std::uint64_t bytes,
                               ControlChannel& channel, std::chrono::milliseconds wait, const std::stop_token& stop) {
  const void* watched = mine.data();  // read every spin: not through a virtual call each time
  void* out = answer.data();
  std::uint64_t round = 0;
  std::uint64_t round_at_look = 0;  // rounds answered by the last look: none since, for `wait`, ends it
  auto last_round = Clock::now();   // read at the looks only: a round pays for no clock read
  auto last_look = last_round;
  for (unsigned spins = 1;; ++spins) {
    if (read_last_byte(watched, bytes) == pingpong_sequence(round)) {
      // The bytes before the last were written before it (pingpong.hpp), so the first round's are whole.
      if (round == 0) std::memcpy(out, watched, bytes - 1);
      write_last_byte(out, bytes, pingpong_sequence(round));
      endpoint.put(answer, 0, reply, 0, bytes);
      ++round;
      continue;
    }
    if (spins % kSpinsPerProgress == 0) transport.progress();
    if (spins % kSpinsPerClockRead != 0) continue;
    const auto now = Clock::now();
    if (now - last_look < kLookEvery) continue;
    last_look = now;
    if (round != round_at_look) {
      round_at_look = round;
      last_round = now;
    }
    stop_here_if_asked(stop);
    if (channel.readable()) return channel.receive(deadline_after(wait));
    if (now - last_round > wait) {
      throw TransportError(fmt::format("ping-pong: client {} sent neither round {} nor the end within {} ms",
                                       channel.peer(), round, wait.count()));
    }
  }
}

}  // namespace xb
