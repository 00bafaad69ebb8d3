#pragma once
// What the xfer job is asked to do, fully resolved: every default applied. One plan for both
// roles; the client-only fields are ignored by the server, which learns where to place its memory
// from the client (ClientSession::expose), as HIXL's remote engine learns it from the local one.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/address.hpp"
#include "transport/session.hpp"

namespace xb {

enum class XferRole { server, client };

// write puts the client's memory into the server's; read gets the server's into the client's.
enum class XferOp { write, read };

// The mode "XtoY": X = the client's (local) memory, Y = the server's (remote) memory, as HIXL's
// local cache and remote cache. d = device memory, h = host memory.
struct XferMode {
  RegionPlace local = RegionPlace::host;
  RegionPlace remote = RegionPlace::host;
};

inline constexpr std::uint16_t kXferDefaultControlPort = 20000;
inline constexpr std::uint64_t kXferDefaultTotal = std::uint64_t{128} << 20;  // HIXL's kTransferMemSize
inline constexpr std::chrono::seconds kXferDefaultWait{20};                     // HIXL's kWaitTransTime
inline constexpr std::uint64_t kXferDefaultPoolChunk = std::uint64_t{4} << 20;
// The staging pool's slots: two, so the copy of one chunk overlaps the transfer of the other.
inline constexpr unsigned kXferPoolSlots = 2;
// The most clients one server serves at once, and servers one client moves to at once: each is a
// thread with its own transport and memory (HIXL's launcher bounds them by the node's devices).
inline constexpr unsigned kXferMaxFanOut = 64;

struct XferPlan {
  XferRole role = XferRole::client;
  // Client: the server's control address (--peer). Server: where it listens (--listen).
  SocketAddress control;
  // Client: several servers at once (--peer A,B,…, HIXL's remotes); a single one replaces `control`.
  std::vector<SocketAddress> servers;
  // Server: the transport listener (--data-port; port 0 = ephemeral, announced over the control channel).
  SocketAddress data;
  std::string transport;  // "ucx" | "tcp"
  std::string token;
  // server: what one client may have exposed (--max-exposed, --max-regions).
  SessionCaps caps;
  std::chrono::milliseconds wait{kXferDefaultWait};
  std::string backend;  // empty: the preferred backend (an accelerator where there is one, else cpu)
  int device = 0;
  // Server: serve only a client whose mode, op and pool are this plan's (HIXL's server takes them).
  bool server_plan = false;
  // Server: clients served at once on the one control address (many to one; HIXL's peer_count).
  unsigned clients = 1;

  // Client (and a server with server_plan).
  XferMode mode;
  XferOp op = XferOp::write;
  std::vector<std::uint64_t> blocks{1u << 20, 2u << 20, 4u << 20, 8u << 20};
  std::uint64_t total = kXferDefaultTotal;  // moved per block size: total / block transfers
  bool pool = false;
  std::uint64_t pool_chunk = kXferDefaultPoolChunk;
  unsigned iters = 1;   // timed passes per block size (each moves `total`)
  unsigned warmup = 1;  // untimed passes before them
  bool latency = true;  // the per-transfer latency pass
  bool verify = false;
  std::uint64_t seed = 0x78666572;  // the pattern's seed; block size k uses seed + k
};

std::string_view to_string(XferRole role);
std::string_view to_string(XferOp op);
std::string to_string(XferMode mode);  // "d2h"
std::optional<XferOp> xfer_op_from(std::string_view name);
std::optional<XferMode> xfer_mode_from(std::string_view name);

// The transfers of one block size: whole blocks only (HIXL's transfer num = total / block).
inline std::uint64_t xfer_transfer_count(std::uint64_t total, std::uint64_t block) { return total / block; }

// "1M,2M,4M", "1M:8M" (doubling) or "1M:64M:4": core/sweep.hpp's sweep; UsageError naming `flag`.
std::vector<std::uint64_t> parse_block_sizes(std::string_view text, std::string_view flag);

// The session's token, wait and caps, and the plan in words for the handshake to compare.
SessionOptions xfer_session_options(const XferPlan& plan);

// Checks the plan before anything is created or connected: PlanError naming the field and the rule
// (a block larger than the total, an unknown transport, counts out of range, a pool chunk of 0).
void validate_xfer_plan(const XferPlan& plan);

// MachineLimit naming xfer.total, before anything is allocated, when a client's host RAM (its --total
// buffer where that is host RAM, the cpu backend's device memory too, and the pool's slots) is more
// than 90% of the memory available. Servers size their memory by what a client asks, not here.
void check_xfer_memory(const XferPlan& plan, bool device_memory_in_host_ram);

}  // namespace xb
