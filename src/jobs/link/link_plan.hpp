#pragma once
// What a link run measures: a message-size sweep over one link (one endpoint's memory put into a
// peer's), sharp_coll_test's HCA-to-TOR test generalised to any transport. Parsed by `xferbench
// link` and the sharp_coll_test dialect, checked by validate_link_plan before anything is created.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "transport/address.hpp"
#include "transport/session.hpp"

namespace xb {

struct LinkPlan {
  std::uint64_t min_bytes = 4;                     // sharp_coll_test's default 4:32M
  std::uint64_t max_bytes = std::uint64_t{32} << 20;
  std::uint64_t step = 2;                          // each size is the previous one times this
  std::uint64_t iterations = 100;                  // timed transfers per size
  std::uint64_t warmup = 10;                       // untimed transfers per size, first
  RegionPlace src = RegionPlace::host;             // this side's memory (put from)
  RegionPlace dst = RegionPlace::host;             // the peer's memory (put into)
  std::optional<SocketAddress> peer;               // a `link --listen` server; none: loopback
  std::string transport;                           // "ucx", "tcp"; empty: default_transport_name()
  bool check = false;                              // verify the data of every size at the peer
  bool pingpong = false;                           // each put answered by the peer's: half the round trip
  std::string token;                               // the session token (default_session_token())
  std::chrono::milliseconds wait{20000};           // for the peer (and each flush)
  int device = 0;                                  // device index on this side (and a loopback peer)
};

// The memory names of -M: host, cuda (device memory of the preferred device backend), null.
std::string_view link_memory_name(RegionPlace place);  // "host", "cuda", "null"
// "SRC[:DST]" (one name: both sides). UsageError naming `flag` and the names.
std::pair<RegionPlace, RegionPlace> parse_link_memory(std::string_view text, std::string_view flag);

// PlanError naming the field and the rule: MIN > MAX, a factor below 2, no iterations, --check on
// null memory (which the CPU never touches), --pingpong on memory other than host at either end
// (each side's CPU watches a byte), a transport this build does not have.
void validate_link_plan(const LinkPlan& plan);

// MachineLimit naming link.size when the host RAM a client run takes at its largest size (its source,
// a host staging buffer for device memory not in host RAM, on loopback the server's destination; null
// memory never) is more than 90% of the memory available: refused before anything is allocated.
void check_link_memory(const LinkPlan& plan, bool device_memory_in_host_ram);

// MIN, MIN*f, MIN*f^2, … while not above MAX (MAX only when the steps land on it, as the loops of
// sharp_coll_test and the OSU benchmarks do).
std::vector<std::uint64_t> link_sizes(const LinkPlan& plan);

// Bandwidth of one transfer of `bytes` taking `avg_us` on average, in decimal gigabits per second
// (sharp_coll_test's Avg BW(Gb/s)): 67108864 B / 1510.23 us = 355.49.
double link_bandwidth_gbps(std::uint64_t bytes, double avg_us);

}  // namespace xb
