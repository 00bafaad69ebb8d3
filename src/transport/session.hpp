#pragma once
// The control channel that lines two endpoints up (HIXL's tcp_port): a TCP connection on which
// client and server prove to each other that they hold the shared token (challenge–response,
// auth.hpp: the token never crosses the wire), the client learns where the transport listens,
// asks the server to expose regions (and to fill or verify them), and says when it is done. Only
// after the client proved the token does the server send any address or remote key, and the data
// connection is admitted only with the session's ticket (ticket_gate.hpp). Messages are framed
// (magic, type, length) and bounded; a malformed, truncated or oversized message closes that
// connection with a clear error.
//
// The server serves one authenticated client per serve_one(). Handshakes are read side by side
// (at most 32 at once, each within its own deadline); one that fails (garbage, wrong token, wrong
// version, silence) is closed, reported on `log`, and the server goes on waiting for a good one
// until its wait runs out, after which it takes no connection: it neither crashes nor hangs.
#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "core/unique_fd.hpp"
#include "transport/address.hpp"
#include "transport/transport.hpp"

namespace xb {

// Where the server places a region a client asks for.
enum class RegionPlace : std::uint8_t {
  host = 0,    // host memory (pinned where the backend can)
  device = 1,  // device memory of the server's device
  null = 2,    // registered memory the CPU never touches (sharp_coll_test's "null")
};
const char* to_string(RegionPlace place);

// What a server lets one session expose by default (--max-exposed, --max-regions): far above a
// benchmark's needs, far below what would take a node's memory.
inline constexpr std::uint64_t kDefaultMaxExposedBytes = std::uint64_t{64} << 30;
inline constexpr std::uint32_t kDefaultMaxRegions = 1024;

// The server's caps on one session: bytes exposed in all and regions held. A request past either
// fails (the session goes on), naming the cap and where it comes from. The server commands take them
// from --max-exposed and --max-regions; a server on a thread of a measuring run (link --loopback,
// the p2p and fleet peers) holds its one client to exactly what the run's plan exposes.
struct SessionCaps {
  std::uint64_t max_exposed_bytes = kDefaultMaxExposedBytes;
  std::uint32_t max_regions = kDefaultMaxRegions;
  // Named in a refusal after the cap: empty names the flags ("--max-exposed", "--max-regions").
  std::string origin;
};

// One region of `bytes`, nothing more: the caps of a run's own peer server.
SessionCaps exactly_the_plan(std::uint64_t bytes);

struct SessionOptions {
  // Both sides must hold the same; proved by challenge–response (auth.hpp), never sent.
  std::string token;
  // How long the side started first waits for its peer, and the longest a session may sit idle
  // (HIXL's kWaitTransTime is 20 s).
  std::chrono::milliseconds wait{20000};
  SessionCaps caps;  // the server's
  // What the run does, in words both sides form the same way ("d2d write, no buffer pool").
  // Client: its plan, sent with its proof. Server: the plan it was started with, or empty to
  // serve any; a client with another plan is refused, both named (HIXL's server has a plan).
  std::string plan;
  // An interrupt (cli's PartialRun, core/stop.hpp). A server's serve_one() looks at it between its
  // waits (at most kStopSlice apart while waiting for a client, every serving slice in a session)
  // and throws Interrupted, so the exposed memory is released as the job unwinds (an NPU's
  // aclrtFree and aclFinalize) before the process dies of the signal. A client looks at it while
  // it waits for its server to listen (its device already open).
  std::stop_token stop;
};

// A staged region's copy between the window the transport reaches and the memory behind it.
enum class StageDirection : std::uint8_t {
  to_memory = 0,  // window → memory: after the client wrote the window
  to_window = 1,  // memory → window: before the client reads the window
};
const char* to_string(StageDirection direction);

// Memory the server exposes for one region, made by the job (which knows the backend and device).
class ExposedMemory {
 public:
  virtual ~ExposedMemory() = default;
  virtual void* data() const = 0;  // registered with the transport for the session's life
  virtual std::size_t size() const = 0;
  // Writes the verification pattern (core/pattern.hpp, offsets absolute within the region).
  virtual void fill(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) = 0;
  // The first offset whose byte differs from the pattern, or nullopt when all match.
  virtual std::optional<std::uint64_t> verify(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) = 0;
  virtual std::string description() const = 0;  // "cpu::device::1", "host pinned"
  // The memory's own registration when the transport allocated it (Transport::allocate_memory):
  // the session exposes that one instead of registering data() a second time. Null by default.
  virtual LocalRegion* registration() const { return nullptr; }
  // Staged memory (device memory the transport cannot register: an NPU's or a GPU's over TCP):
  // data() is a registered host window of the same size, and the memory behind it is reached only
  // by stage(), which the client asks for around each pass (ClientSession::stage). fill and verify
  // act on the memory behind the window.
  virtual bool staged() const { return false; }
  virtual void stage(StageDirection direction, std::uint64_t offset, std::uint64_t bytes);
};
using ExposedMemoryFactory = std::function<std::unique_ptr<ExposedMemory>(std::uint64_t bytes, RegionPlace place)>;

// What serve_one() reports once its client is done.
struct SessionReport {
  std::string client;           // the client's control address
  std::uint64_t regions = 0;    // regions exposed
  std::uint64_t exposed_bytes = 0;
};

// One control address that several SessionServers take clients from at once (one server, several
// clients: xfer's many-to-one). Each server accepts from it only while it holds no handshake, so
// the next client's connection stays for a server that is free.
class SharedControlListener {
 public:
  // Binds and listens on `control` (port 0: the kernel picks). Throws SystemError naming it.
  explicit SharedControlListener(const SocketAddress& control);
  const SocketAddress& address() const { return address_; }
  int fd() const { return fd_.get(); }

 private:
  UniqueFd fd_;
  SocketAddress address_;
};

class SessionServer {
 public:
  // Binds the control address (port 0: the kernel picks) and the transport's listener on `data`
  // (port 0: ephemeral, announced to the client after the handshake). Throws SystemError naming
  // the address when it cannot bind.
  SessionServer(Transport& transport, const SocketAddress& control, const SocketAddress& data,
                SessionOptions options, ExposedMemoryFactory factory, std::ostream& log);
  // A server taking its client from `shared` (which must outlive it), beside others: it holds at
  // most one handshake at a time (a silent connection holds it up to the handshake's deadline).
  SessionServer(Transport& transport, const SharedControlListener& shared, const SocketAddress& data,
                SessionOptions options, ExposedMemoryFactory factory, std::ostream& log);
  ~SessionServer();
  SessionServer(const SessionServer&) = delete;
  SessionServer& operator=(const SessionServer&) = delete;

  SocketAddress control_address() const;
  SocketAddress data_address() const;
  // What the serving job says about itself (backend, device), sent to each client after the
  // transport's own description (ClientSession::server_description()). Empty by default.
  void set_description(std::string job_description);
  // Waits (up to options.wait) for a client that passes the handshake, serves it until it says
  // done. Throws TransportError with a clear message when no client came in time, or when the
  // authenticated client vanished or broke the protocol mid-session.
  SessionReport serve_one();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// A region the server exposed to this client, attached to the client's endpoint.
struct PeerRegion {
  std::uint32_t id = 0;
  std::unique_ptr<RemoteRegion> remote;
  std::string description;  // the server's ExposedMemory::description()
  bool staged = false;      // the server's ExposedMemory::staged(): stage() around each pass
};

class ClientSession {
 public:
  // Connects the control channel, retrying until options.wait runs out (the server may start
  // later), presents the token, then connects the transport to the data address the server
  // announced. Throws TransportError ("no server at … after 20 s", "token refused by …").
  ClientSession(Transport& transport, const SocketAddress& control, SessionOptions options);
  ~ClientSession();
  ClientSession(const ClientSession&) = delete;
  ClientSession& operator=(const ClientSession&) = delete;

  Endpoint& endpoint();
  // The server's transport info and device, for the result document.
  const std::string& server_description() const;
  PeerRegion expose(std::uint64_t bytes, RegionPlace place);
  void fill(const PeerRegion& region, std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed);
  std::optional<std::uint64_t> verify(const PeerRegion& region, std::uint64_t offset, std::uint64_t bytes,
                                      std::uint64_t seed);
  // A staged region (PeerRegion::staged): the server copies [offset, offset + bytes) between the
  // window and its memory, and answers once the copy is complete.
  void stage(const PeerRegion& region, StageDirection direction, std::uint64_t offset, std::uint64_t bytes);
  // Ping-pong (transport/pingpong.hpp): asks the server to answer each put of `bytes` into
  // `region` (host memory) with a put of the same bytes into `reply`, a region of this side's
  // registered with this session's transport; returns once the server watches for round 0. Until
  // end_answering() returns (the server's puts flushed), the control channel takes nothing else.
  void start_answering(const PeerRegion& region, const LocalRegion& reply, std::uint64_t bytes);
  void end_answering();
  // Tells the server the session is over; it releases the regions and serve_one() returns.
  void finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The token the environment gives: $XFERBENCH_TOKEN, else the first line of the file
// $XFERBENCH_TOKEN_FILE names (transport/token_file.hpp: this user's, mode 0600), else "".
std::string environment_token();

// The token both sides use when none is given: --token, else the environment's, else this
// built-in default (which keeps stray clients out, not attackers: it serves loopback only).
std::string default_session_token();

// The token the user gave: `flag_value` (--token / --token-file), else the environment's, else "".
std::string given_session_token(std::string_view flag_value);

// Whether `host` (numeric, as parse_address gives it) is a loopback address: 127.0.0.0/8, ::1, or
// 127.x.x.x mapped into IPv6.
bool is_loopback_host(std::string_view host);

// The token of a server listening on `host`: `given` (--token), else $XFERBENCH_TOKEN, else, on a
// loopback address only, the built-in default. A server others can reach never runs on the
// built-in token, which is public: UsageError naming `flag` and the address instead, saying how
// to give one (`flag_for_token`: the command's --token flag, or empty where it has none).
std::string server_session_token(std::string_view given, std::string_view host, std::string_view flag,
                                 std::string_view flag_for_token = "--token");

}  // namespace xb
