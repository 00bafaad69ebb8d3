#pragma once
// Ping-pong over one-sided puts (link --pingpong), the latency ucx_perftest's put_lat and
// perftest's ib_write_lat report: the client puts a message whose last byte carries the round's
// sequence number; the server, watching that byte in its region, puts a message of the same size
// back into a region of the client's from a buffer of its own (as ucx_perftest's responder puts
// from its send buffer: it never reads the rest of what arrived); the client, watching its own
// region's last byte, has the round trip.
// Neither side flushes inside a round (the tools compared with do not): the byte arriving is the
// completion, the data before it having been written first by every transport here (UCX's RMA and
// active messages, the TCP transport's in-order stream). Both sides flush when the rounds end.
#include <chrono>
#include <cstdint>
#include <stop_token>
#include <string>

#include "transport/transport.hpp"

namespace xb {

class ControlChannel;
struct ControlMessage;

// The sequence number of round `round` (from 0): 1 … 255, never 0, which both sides write first so
// that no byte left from before reads as the first round's.
inline std::uint8_t pingpong_sequence(std::uint64_t round) { return static_cast<std::uint8_t>(1 + round % 255); }

// The last byte of a message of `bytes` at `base` (a CPU-reachable region another agent writes).
// Atomic (acquire) because another process, a NIC or this process's transport progress writes it:
// a plain read could be hoisted out of the spin. Inline: the spin reads it every few nanoseconds.
inline std::uint8_t read_last_byte(const void* base, std::uint64_t bytes) {
  return __atomic_load_n(static_cast<const std::uint8_t*>(base) + (bytes - 1), __ATOMIC_ACQUIRE);
}
inline void write_last_byte(void* base, std::uint64_t bytes, std::uint8_t value) {
  __atomic_store_n(static_cast<std::uint8_t*>(base) + (bytes - 1), value, __ATOMIC_RELEASE);
}

// The client's side of one round, after its put: makes progress on `transport` until the last
// byte of its `reply` region reads `sequence`. Throws TransportError naming `peer` and the round
// when `wait` passes first (the server is gone or never answered).
void await_pingpong_answer(Transport& transport, const void* reply, std::uint64_t bytes, std::uint8_t sequence,
                           std::chrono::milliseconds wait, const std::string& peer, std::uint64_t round);

// The server's side (SessionServer, on an `answer` request): answers every round (the last byte
// of `mine` reading the next sequence number) with a put of [0, bytes) of `answer` (its own
// buffer, at least `bytes`: the first round's bytes, copied once, its last byte each round's
// number) into `reply`, until a control message arrives, which it returns (answer_end, or anything
// else for the caller to refuse). Looks at the channel and at `stop` once a millisecond; throws
// TransportError when neither a round nor a message came for `wait`.
ControlMessage answer_pingpong(Transport& transport, Endpoint& endpoint, const LocalRegion& mine,
                               const LocalRegion& answer, RemoteRegion& reply, std::uint64_t bytes,
                               ControlChannel& channel, std::chrono::milliseconds wait, const std::stop_token& stop);

}  // namespace xb
