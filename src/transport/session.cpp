// The control session (session.hpp): the server's handshake and request loop, the client's side
// of each request. The wire format is control_messages.hpp, the framing control_channel.hpp.
#include "transport/session.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <vector>

#include "core/error.hpp"
#include "core/range.hpp"
#include "core/stop.hpp"
#include "transport/auth.hpp"
#include "transport/control_channel.hpp"
#include "transport/control_messages.hpp"
#include "transport/pingpong.hpp"
#include "transport/socket_ops.hpp"
#include "transport/token_file.hpp"

namespace xb {

SessionCaps exactly_the_plan(std::uint64_t bytes) {
  return SessionCaps{bytes, 1, fmt::format("a run's own peer server: one region of the plan's {} bytes", bytes)};
}
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// The longest a new control connection may take to present its token (less when the whole wait
// is short): a silent connection holds the server up this long at most.
milliseconds handshake_timeout(milliseconds wait) { return std::clamp(wait / 4, milliseconds(100), milliseconds(5000)); }
// How long the serving loop sleeps in the transport's wait before looking at the control socket
// again: the latency of a control request while no data moves.
constexpr milliseconds kServeSlice{2};
// The longest the server sleeps for a client without looking at its stop token.
constexpr milliseconds kStopSlice{50};
// Control connections the server reads side by side before one authenticated; a new one past
// this closes the oldest, so a flood of silent connections cannot hold the real client off.
constexpr std::size_t kMaxPendingHandshakes = 32;

// Why a request failed on the server, so the client can throw the same kind (Unavailable: exit 3).
enum class FailureKind : std::uint8_t { other = 0, unavailable = 1 };
// Why a handshake was refused. `token`: the client's proof was wrong (the refusal says nothing
// more); `transport`: told only to a client that proved the token.
enum class RefusalKind : std::uint8_t { token = 1, transport = 2, plan = 3 };

std::string seconds_text(milliseconds ms) { return fmt::format("{:g} s", static_cast<double>(ms.count()) / 1000.0); }

std::string effective_token(const std::string& token) { return token.empty() ? default_session_token() : token; }

// A handshake the server turned down (wrong token or transport); the client was told.
class HandshakeRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A control connection that has not authenticated yet: read side by side with the others.
struct PendingHandshake {
  std::unique_ptr<ControlChannel> channel;
  Deadline deadline;
  std::optional<AuthServer> auth;  // once its hello came and the challenge went out
};

struct ServedRegion {
  std::unique_ptr<ExposedMemory> memory;
  std::unique_ptr<LocalRegion> registration;  // declared after: released before the memory
  RegionPlace place = RegionPlace::host;      // where the client asked for it
  // What peers see: `registration`, or the memory's own (memory the transport allocated).
  const LocalRegion* exposed() const { return registration ? registration.get() : memory->registration(); }
};

std::string describe(const TransportInfo& info, const std::string& job_description) {
  std::string text = fmt::format("{} {}", info.name, info.version);
  if (!info.lanes.empty()) text += fmt::format(" lanes={}", info.lanes);
  if (!info.settings.empty()) text += fmt::format(" ({})", info.settings);
  if (!job_description.empty()) text += "; " + job_description;
  return text;
}

}  // namespace

const char* to_string(RegionPlace place) {
  switch (place) {
    case RegionPlace::host: return "host";
    case RegionPlace::device: return "device";
    case RegionPlace::null: return "null";
  }
  return "unknown";
}

const char* to_string(StageDirection direction) {
  return direction == StageDirection::to_memory ? "window to memory" : "memory to window";
}

void ExposedMemory::stage(StageDirection direction, std::uint64_t /*offset*/, std::uint64_t /*bytes*/) {
  throw std::logic_error(fmt::format("stage {}: {} is not staged", to_string(direction), description()));
}

std::string environment_token() {
  const char* env = std::getenv("XFERBENCH_TOKEN");
  if (env != nullptr && *env != '\0') return env;
  const char* file = std::getenv("XFERBENCH_TOKEN_FILE");
  if (file != nullptr && *file != '\0') return read_token_file(file, "XFERBENCH_TOKEN_FILE");
  return {};
}

std::string default_session_token() {
  if (std::string token = environment_token(); !token.empty()) return token;
  return "xferbench-default-token";
}

std::string given_session_token(std::string_view flag_value) {
  if (!flag_value.empty()) return std::string(flag_value);
  return environment_token();
}

bool is_loopback_host(std::string_view host) {
  in_addr v4{};
  if (inet_pton(AF_INET, std::string(host).c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, std::string(host).c_str(), &v6) != 1) return false;
  if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
  return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
}

std::string server_session_token(std::string_view given, std::string_view host, std::string_view flag,
                                 std::string_view flag_for_token) {
  if (std::string token = given_session_token(given); !token.empty()) return token;
  if (is_loopback_host(host)) return default_session_token();
  throw UsageError(fmt::format(
      "{} {}: a server others can reach needs a token of its own ({}set XFERBENCH_TOKEN or XFERBENCH_TOKEN_FILE on both sides); "
      "the built-in one is public and serves loopback only",
      flag, host, flag_for_token.empty() ? "" : fmt::format("give {} or ", flag_for_token)));
}

// ---------------------------------------------------------------------------------------------
// Server

struct SessionServer::State {
  Transport& transport;
  SessionOptions options;
  ExposedMemoryFactory factory;
  std::ostream& log;
  UniqueFd control_fd;
  SocketAddress control_address;
  // Handshakes read side by side: kMaxPendingHandshakes alone, 1 beside other servers.
  std::size_t max_pending = kMaxPendingHandshakes;
  std::unique_ptr<Listener> data_listener;
  std::string job_description;

  // Takes one message of a pending handshake; the session once the client proved the token and
  // was welcomed. Throws (HandshakeRefused, ProtocolError, ...) when the connection must go.
  std::optional<AuthSession> step(PendingHandshake& pending, const ControlMessage& message);
  SessionReport run(ControlChannel& channel, const AuthSession& session);
  // Answers one request; false once the client said finish.
  bool answer(ControlChannel& channel, const ControlMessage& request, std::vector<ServedRegion>& regions,
              Endpoint& endpoint, SessionReport& report);
  // A ping-pong request (`answer`): answers the client's rounds until it ends them.
  void answer_rounds(ControlChannel& channel, PayloadReader& reader, std::vector<ServedRegion>& regions,
                     Endpoint& endpoint);
  ServedRegion* find(std::vector<ServedRegion>& regions, std::uint32_t id, std::uint64_t offset,
                     std::uint64_t bytes, std::string& why);
  Deadline reply_deadline() const { return deadline_after(options.wait); }
};

namespace {

void check_token_size(const SessionOptions& options) {
  if (options.token.size() > kMaxTokenBytes) {
    throw UsageError(fmt::format("--token: {} bytes, at most {}", options.token.size(), kMaxTokenBytes));
  }
}

}  // namespace

SharedControlListener::SharedControlListener(const SocketAddress& control)
    : fd_(listen_tcp(control, 64)), address_(local_address(fd_.get())) {}

SessionServer::SessionServer(Transport& transport, const SocketAddress& control, const SocketAddress& data,
                             SessionOptions options, ExposedMemoryFactory factory, std::ostream& log) {
  options.token = effective_token(options.token);
  check_token_size(options);
  UniqueFd fd = listen_tcp(control, 64);  // room for a burst of connections besides the real one
  SocketAddress bound = local_address(fd.get());
  auto listener = transport.listen(data);
  state_ = std::unique_ptr<State>(new State{transport, std::move(options), std::move(factory), log, std::move(fd),
                                            std::move(bound), kMaxPendingHandshakes, std::move(listener), {}});
}

SessionServer::SessionServer(Transport& transport, const SharedControlListener& shared, const SocketAddress& data,
                             SessionOptions options, ExposedMemoryFactory factory, std::ostream& log) {
  options.token = effective_token(options.token);
  check_token_size(options);
  // A descriptor of its own for the one listening socket: accept() hands each connection to one.
  UniqueFd fd(::fcntl(shared.fd(), F_DUPFD_CLOEXEC, 0));
  if (!fd.valid()) throw_errno(fmt::format("dup(the control listener on {})", shared.address().to_string()));
  auto listener = transport.listen(data);
  state_ = std::unique_ptr<State>(new State{transport, std::move(options), std::move(factory), log, std::move(fd),
                                            shared.address(), 1, std::move(listener), {}});
}

SessionServer::~SessionServer() = default;

SocketAddress SessionServer::control_address() const { return state_->control_address; }
SocketAddress SessionServer::data_address() const { return state_->data_listener->address(); }
void SessionServer::set_description(std::string job_description) { state_->job_description = std::move(job_description); }

SessionReport SessionServer::serve_one() {
  State& s = *state_;
  const Deadline deadline = deadline_after(s.options.wait);
  std::vector<PendingHandshake> pending;
  std::size_t failed = 0;
  auto drop = [&](std::vector<PendingHandshake>::iterator it, const std::string& why) {
    // Anything a connection does wrong before it is authenticated costs that connection only.
    s.log << fmt::format("xferbench: closed control connection from {}: {}\n", it->channel->peer(), why) << std::flush;
    ++failed;
    return pending.erase(it);
  };
  for (;;) {
    stop_here_if_asked(s.options.stop);
    // Past its wait the server takes no new connection and finishes no handshake.
    if (Clock::now() >= deadline) {
      throw TransportError(fmt::format("no xferbench client came to {} within {}{}", s.control_address.to_string(),
                                       seconds_text(s.options.wait),
                                       failed == 0 ? "" : fmt::format(" ({} connections failed the handshake)", failed)));
    }
    // Alone, a server reads up to kMaxPendingHandshakes handshakes (the oldest goes past that);
    // beside other servers it holds one, and leaves new connections to the others meanwhile.
    const auto takes_more = [&] { return s.max_pending == kMaxPendingHandshakes || pending.size() < s.max_pending; };
    while (takes_more()) {
      UniqueFd fd = accept_tcp(s.control_fd.get());
      if (!fd.valid()) break;
      if (pending.size() >= kMaxPendingHandshakes) drop(pending.begin(), "too many handshakes at once; the oldest goes");
      const std::string client = peer_address(fd.get()).to_string();
      pending.push_back(PendingHandshake{std::make_unique<ControlChannel>(std::move(fd), client),
                                         deadline_after(handshake_timeout(s.options.wait)), std::nullopt});
    }
    for (auto it = pending.begin(); it != pending.end();) {
      if (Clock::now() >= it->deadline) {
        const char* what = it->channel->inside_message() ? "the peer stopped in the middle of a message"
                           : it->auth                     ? "the peer sent no proof in time"
                                                          : "the peer sent nothing in time";
        it = drop(it, fmt::format("{} (a handshake gets {})", what, seconds_text(handshake_timeout(s.options.wait))));
        continue;
      }
      std::optional<AuthSession> session;
      try {
        while (!session) {
          auto message = it->channel->receive_available();
          if (!message) break;
          session = s.step(*it, *message);
        }
      } catch (const std::exception& e) {
        it = drop(it, e.what());
        continue;
      }
      if (session) {
        std::unique_ptr<ControlChannel> channel = std::move(it->channel);
        pending.clear();  // the other pending handshakes are closed unanswered
        return s.run(*channel, *session);
      }
      ++it;
    }
    // Sleep until a connection, a message of a pending handshake, or the nearest deadline.
    Deadline wake = s.options.stop.stop_possible() ? std::min(deadline, deadline_after(kStopSlice)) : deadline;
    std::vector<pollfd> fds;
    if (takes_more()) fds.push_back({s.control_fd.get(), POLLIN, 0});
    for (const PendingHandshake& p : pending) {
      fds.push_back({p.channel->fd(), POLLIN, 0});
      wake = std::min(wake, p.deadline);
    }
    if (::poll(fds.data(), fds.size(), poll_timeout_ms(wake)) < 0 && errno != EINTR) throw_errno("poll(control connections)");
  }
}

std::optional<AuthSession> SessionServer::State::step(PendingHandshake& pending, const ControlMessage& message) {
  ControlChannel& channel = *pending.channel;
  PayloadReader reader(message);
  if (!pending.auth) {
    if (message.type != ControlType::hello) {
      throw ProtocolError(fmt::format("got '{}' before the handshake", to_string(message.type)));
    }
    const std::vector<std::uint8_t> nonce = reader.bytes();
    reader.end();
    if (!AuthServer::valid_nonce(nonce)) throw ProtocolError(fmt::format("a hello with a {}-byte nonce", nonce.size()));
    pending.auth.emplace(options.token, kControlAuthPurpose, nonce);
    channel.send(ControlType::challenge, PayloadWriter().bytes(pending.auth->nonce()).bytes(pending.auth->proof()).take(),
                 pending.deadline);
    return std::nullopt;
  }
  if (message.type != ControlType::proof) {
    throw ProtocolError(fmt::format("got '{}' instead of the client's proof", to_string(message.type)));
  }
  const std::vector<std::uint8_t> proof = reader.bytes();
  const std::string transport_name = reader.text();
  const std::string client_plan = reader.text();
  reader.end();
  auto refuse = [&](RefusalKind kind, const std::string& told, const std::string& logged) {
    try {
      channel.send(ControlType::refused, PayloadWriter().u8(static_cast<std::uint8_t>(kind)).text(told).take(),
                   pending.deadline);
    } catch (const std::exception&) {
      // The client may already be gone; the refusal is logged either way.
    }
    throw HandshakeRefused(logged);
  };
  // A wrong proof is told nothing but "refused": not which transport, address or state is here.
  if (!pending.auth->client_proved(proof)) refuse(RefusalKind::token, "", "wrong token (its proof did not match)");
  if (transport_name != transport.name()) {
    refuse(RefusalKind::transport, fmt::format("this server uses transport {}", transport.name()),
           fmt::format("the client uses transport {}, this server {}", transport_name, transport.name()));
  }
  if (!options.plan.empty() && client_plan != options.plan) {
    refuse(RefusalKind::plan, fmt::format("this server runs {}; this client asked for {}", options.plan, client_plan),
           fmt::format("the client asked for {}, this server runs {}", client_plan, options.plan));
  }
  // Only now, with the token proved, does the client learn where the data goes.
  const SocketAddress data = announce_address(data_listener->address(), channel.fd());
  channel.send(ControlType::welcome, PayloadWriter().text(data.host).u32(data.port).take(), pending.deadline);
  return pending.auth->session();
}

SessionReport SessionServer::State::run(ControlChannel& channel, const AuthSession& session) {
  const std::string& client = channel.peer();
  SessionReport report;
  report.client = client;
  std::vector<ServedRegion> regions;
  std::unique_ptr<Endpoint> endpoint;  // declared after the regions: closed before they go
  try {
    try {
      // Only the connection that presents this session's ticket is its data connection.
      endpoint = data_listener->accept(options.wait, session.data_ticket());
    } catch (const TransportError& e) {
      throw TransportError(fmt::format("client {} did not open its data connection: {}", client, e.what()));
    }
    channel.send(ControlType::ready, PayloadWriter().text(describe(transport.info(), job_description)).take(),
                 reply_deadline());
    auto last_activity = Clock::now();
    for (;;) {
      stop_here_if_asked(options.stop);
      // Serve the passive side of the client's puts and gets, then look at the control socket;
      // when neither has work, sleep in the transport's wait (its sockets or event fd).
      const bool moved = transport.progress();
      if (moved) last_activity = Clock::now();
      if (channel.readable()) {
        const ControlMessage request = channel.receive(reply_deadline());
        last_activity = Clock::now();
        if (!answer(channel, request, regions, *endpoint, report)) return report;
        continue;
      }
      if (moved) continue;
      if (Clock::now() - last_activity > options.wait) {
        throw TransportError(fmt::format("client {} idle for more than {}; session closed", client,
                                         seconds_text(options.wait)));
      }
      transport.wait(kServeSlice);
    }
  } catch (const ChannelClosed&) {
    throw TransportError(fmt::format("client {} closed the control connection in the middle of the session", client));
  } catch (const ProtocolError& e) {
    throw TransportError(fmt::format("client {} broke the control protocol: {}", client, e.what()));
  } catch (const ChannelTimeout& e) {
    throw TransportError(fmt::format("client {}: {}", client, e.what()));
  } catch (const TransportError& e) {
    const std::string what = e.what();
    if (what.find(client) != std::string::npos) throw;
    throw TransportError(fmt::format("session with client {}: {}", client, what));
  }
}

ServedRegion* SessionServer::State::find(std::vector<ServedRegion>& regions, std::uint32_t id, std::uint64_t offset,
                                         std::uint64_t bytes, std::string& why) {
  if (id == 0 || id > regions.size()) {
    why = fmt::format("no region {}", id);
    return nullptr;
  }
  ServedRegion& region = regions[id - 1];
  const std::uint64_t size = region.memory->size();
  if (!range_inside(offset, bytes, size)) {
    why = fmt::format("{} bytes at offset {} are outside region {} ({} bytes)", bytes, offset, id, size);
    return nullptr;
  }
  return &region;
}

bool SessionServer::State::answer(ControlChannel& channel, const ControlMessage& request,
                                  std::vector<ServedRegion>& regions, Endpoint& endpoint, SessionReport& report) {
  PayloadReader reader(request);
  auto failed = [&](FailureKind kind, const std::string& why) {
    channel.send(ControlType::failed, PayloadWriter().u8(static_cast<std::uint8_t>(kind)).text(why).take(),
                 reply_deadline());
  };
  switch (request.type) {
    case ControlType::expose: {
      const std::uint64_t bytes = reader.u64();
      const std::uint8_t place = reader.u8();
      reader.end();
      if (place > static_cast<std::uint8_t>(RegionPlace::null)) throw ProtocolError(fmt::format("unknown place {}", place));
      const SessionCaps& caps = options.caps;
      const auto origin = [&caps](const char* flag) { return caps.origin.empty() ? std::string(flag) : caps.origin; };
      if (regions.size() >= caps.max_regions) {
        failed(FailureKind::other, fmt::format("this server lets a session hold at most {} regions ({})",
                                               caps.max_regions, origin("--max-regions")));
        return true;
      }
      // (A region may come out larger than asked, so what is exposed can pass the cap by that much.)
      if (report.exposed_bytes >= caps.max_exposed_bytes || bytes > caps.max_exposed_bytes - report.exposed_bytes) {
        failed(FailureKind::other,
               fmt::format("this server exposes at most {} bytes a session ({}); {} are exposed, {} more asked",
                           caps.max_exposed_bytes, origin("--max-exposed"), report.exposed_bytes, bytes));
        return true;
      }
      ServedRegion region;
      region.place = static_cast<RegionPlace>(place);
      try {
        region.memory = factory(bytes, region.place);
        if (region.memory->size() < bytes) {
          throw std::runtime_error(fmt::format("got {} bytes of the {} asked", region.memory->size(), bytes));
        }
        if (region.memory->registration() == nullptr) {
          region.registration = transport.register_memory(region.memory->data(), region.memory->size());
        }
      } catch (const Unavailable& e) {
        failed(FailureKind::unavailable, e.what());
        return true;
      } catch (const TransportError&) {
        throw;
      } catch (const std::exception& e) {
        failed(FailureKind::other, e.what());
        return true;
      }
      const RegionDescriptor descriptor = region.exposed()->describe();
      const std::string description = region.memory->description();
      regions.push_back(std::move(region));
      report.regions = regions.size();
      report.exposed_bytes += descriptor.bytes;
      channel.send(ControlType::exposed,
                   PayloadWriter()
                       .u32(static_cast<std::uint32_t>(regions.size()))
                       .u64(descriptor.address)
                       .u64(descriptor.bytes)
                       .bytes(descriptor.key)
                       .text(description)
                       .u8(regions.back().memory->staged() ? 1 : 0)
                       .take(),
                   reply_deadline());
      return true;
    }
    case ControlType::fill:
    case ControlType::verify: {
      const std::uint32_t id = reader.u32();
      const std::uint64_t offset = reader.u64();
      const std::uint64_t bytes = reader.u64();
      const std::uint64_t seed = reader.u64();
      reader.end();
      std::string why;
      ServedRegion* region = find(regions, id, offset, bytes, why);
      if (region == nullptr) {
        failed(FailureKind::other, why);
        return true;
      }
      try {
        if (request.type == ControlType::fill) {
          region->memory->fill(offset, bytes, seed);
          channel.send(ControlType::done, {}, reply_deadline());
        } else {
          const auto mismatch = region->memory->verify(offset, bytes, seed);
          channel.send(ControlType::verified, PayloadWriter().u8(mismatch ? 1 : 0).u64(mismatch.value_or(0)).take(),
                       reply_deadline());
        }
      } catch (const ChannelTimeout&) {
        throw;
      } catch (const ChannelClosed&) {
        throw;
      } catch (const std::exception& e) {
        failed(FailureKind::other, e.what());
      }
      return true;
    }
    case ControlType::stage: {
      const std::uint32_t id = reader.u32();
      const std::uint64_t offset = reader.u64();
      const std::uint64_t bytes = reader.u64();
      const std::uint8_t direction = reader.u8();
      reader.end();
      if (direction > static_cast<std::uint8_t>(StageDirection::to_window)) {
        throw ProtocolError(fmt::format("unknown stage direction {}", direction));
      }
      std::string why;
      ServedRegion* region = find(regions, id, offset, bytes, why);
      if (region != nullptr && !region->memory->staged()) why = fmt::format("region {} is not staged", id);
      if (!why.empty()) {
        failed(FailureKind::other, why);
        return true;
      }
      try {
        region->memory->stage(static_cast<StageDirection>(direction), offset, bytes);
        channel.send(ControlType::done, {}, reply_deadline());
      } catch (const ChannelTimeout&) {
        throw;
      } catch (const ChannelClosed&) {
        throw;
      } catch (const std::exception& e) {
        failed(FailureKind::other, e.what());
      }
      return true;
    }
    case ControlType::answer:
      answer_rounds(channel, reader, regions, endpoint);
      return true;
    case ControlType::finish:
      reader.end();
      channel.send(ControlType::finished, {}, reply_deadline());
      return false;
    default:
      throw ProtocolError(fmt::format("got '{}', which is not a client request", to_string(request.type)));
  }
}

void SessionServer::State::answer_rounds(ControlChannel& channel, PayloadReader& reader,
                                         std::vector<ServedRegion>& regions, Endpoint& endpoint) {
  const std::uint32_t id = reader.u32();
  const std::uint64_t bytes = reader.u64();
  RegionDescriptor client_region;
  client_region.address = reader.u64();
  client_region.bytes = reader.u64();
  client_region.key = reader.bytes();
  reader.end();
  std::string why;
  ServedRegion* region = find(regions, id, 0, bytes, why);
  // Its CPU watches the last byte: memory it reaches as it is, which staged and null memory are not.
  if (region != nullptr && (region->place != RegionPlace::host || region->memory->staged())) {
    why = fmt::format("region {} is {} memory; a ping-pong is answered from host memory only", id,
                      to_string(region->place));
  }
  if (bytes == 0) why = "a ping-pong message has at least 1 byte";
  if (why.empty() && client_region.bytes < bytes) {
    why = fmt::format("the client's region holds {} bytes, less than the {} of a round", client_region.bytes, bytes);
  }
  if (!why.empty()) {
    channel.send(ControlType::failed,
                 PayloadWriter().u8(static_cast<std::uint8_t>(FailureKind::other)).text(why).take(), reply_deadline());
    return;
  }
  // The answers come from a buffer of this side's own, not from the region the client's puts land
  // in: reading all of that back would move every line of it from the client's cache first, work
  // the round trip of ucx_perftest's put_lat does not have.
  // Memory the transport allocates where it can, as the client's is (UCX: a segment of its own).
  std::vector<std::byte> answer_memory;
  std::unique_ptr<LocalRegion> answer_region = transport.allocate_memory(bytes);
  if (!answer_region) {
    answer_memory.resize(bytes);
    answer_region = transport.register_memory(answer_memory.data(), answer_memory.size());
  }
  const std::unique_ptr<RemoteRegion> reply = endpoint.attach(client_region);
  const LocalRegion& mine = *region->exposed();
  write_last_byte(mine.data(), bytes, 0);  // no byte of before reads as round 0's
  channel.send(ControlType::done, {}, reply_deadline());
  const ControlMessage end = answer_pingpong(transport, endpoint, mine, *answer_region, *reply, bytes, channel,
                                             options.wait, options.stop);
  if (end.type != ControlType::answer_end) {
    throw ProtocolError(fmt::format("got '{}' while answering a ping-pong", to_string(end.type)));
  }
  PayloadReader(end).end();
  endpoint.flush(options.wait);
  channel.send(ControlType::done, {}, reply_deadline());
}

// ---------------------------------------------------------------------------------------------
// Client

struct ClientSession::State {
  Transport& transport;
  SessionOptions options;
  std::string server;  // the control address, for messages
  std::unique_ptr<ControlChannel> channel;
  std::unique_ptr<Endpoint> endpoint;
  std::string description;

  // Sends a request and returns the reply, which must be `expected` or `failed` (thrown). With
  // `progress`, this side's transport makes progress while the reply is awaited: the server's
  // answer may wait on this side (a flush of its puts into this side's memory over TCP).
  ControlMessage call(ControlType type, const std::vector<std::byte>& payload, ControlType expected,
                      const std::string& what, bool progress = false);
  ControlMessage receive_progressing(Deadline deadline);
};

ClientSession::ClientSession(Transport& transport, const SocketAddress& control, SessionOptions options) {
  options.token = effective_token(options.token);
  if (options.token.size() > kMaxTokenBytes) {
    throw UsageError(fmt::format("--token: {} bytes, at most {}", options.token.size(), kMaxTokenBytes));
  }
  const std::string server = control.to_string();
  const Deadline deadline = deadline_after(options.wait);
  std::string last_error;
  auto fd = connect_tcp(control, deadline, last_error, options.stop);
  if (!fd) {
    throw TransportError(fmt::format("no xferbench server at {} after {} ({})", server, seconds_text(options.wait),
                                     last_error));
  }
  auto channel = std::make_unique<ControlChannel>(std::move(*fd), server);
  AuthClient auth(options.token, kControlAuthPurpose);
  ControlMessage reply;
  try {
    channel->send(ControlType::hello, PayloadWriter().bytes(auth.nonce()).take(), deadline);
    const ControlMessage challenge = channel->receive(deadline);
    if (challenge.type != ControlType::challenge) {
      throw ProtocolError(fmt::format("a {} message instead of the server's challenge", to_string(challenge.type)));
    }
    PayloadReader challenge_reader(challenge);
    const std::vector<std::uint8_t> server_nonce = challenge_reader.bytes();
    const std::vector<std::uint8_t> server_proof = challenge_reader.bytes();
    challenge_reader.end();
    // The server proves the token first: a server without it gets no proof from this client.
    if (!auth.server_proved(server_nonce, server_proof)) {
      throw TransportError(fmt::format("the xferbench server at {} could not prove it holds the token (both sides need "
                                       "the same --token or XFERBENCH_TOKEN); nothing more was sent to it",
                                       server));
    }
    channel->send(ControlType::proof,
                  PayloadWriter().bytes(auth.proof()).text(std::string(transport.name())).text(options.plan).take(),
                  deadline);
    reply = channel->receive(deadline);
  } catch (const ChannelClosed&) {
    throw TransportError(fmt::format("xferbench server at {} closed the control connection during the handshake", server));
  } catch (const ChannelTimeout&) {
    throw TransportError(fmt::format("xferbench server at {} did not answer the handshake within {}", server,
                                     seconds_text(options.wait)));
  } catch (const ProtocolError& e) {
    throw TransportError(fmt::format("{} is not an xferbench server: {}", server, e.what()));
  }
  PayloadReader reader(reply);
  try {
    if (reply.type == ControlType::refused) {
      const auto kind = static_cast<RefusalKind>(reader.u8());
      const std::string why = reader.text();
      if (kind == RefusalKind::token) {
        throw TransportError(fmt::format("token refused by the xferbench server at {} (both sides need the same "
                                         "--token or XFERBENCH_TOKEN)", server));
      }
      throw TransportError(fmt::format("the xferbench server at {} refused this client: {}", server, why));
    }
    if (reply.type != ControlType::welcome) {
      throw ProtocolError(fmt::format("a {} message instead of welcome", to_string(reply.type)));
    }
    SocketAddress data;
    data.host = reader.text();
    const std::uint32_t port = reader.u32();
    reader.end();
    if (port == 0 || port > 65535) throw ProtocolError(fmt::format("announced data port {}", port));
    data.port = static_cast<std::uint16_t>(port);
    state_ = std::unique_ptr<State>(new State{transport, options, server, std::move(channel), nullptr, {}});
    state_->endpoint = transport.connect(data, options.wait, auth.session().data_ticket());
    const ControlMessage ready = state_->channel->receive(deadline_after(options.wait));
    if (ready.type != ControlType::ready) {
      throw ProtocolError(fmt::format("a {} message instead of ready", to_string(ready.type)));
    }
    PayloadReader ready_reader(ready);
    state_->description = ready_reader.text();
    ready_reader.end();
  } catch (const ProtocolError& e) {
    throw TransportError(fmt::format("xferbench server at {} broke the control protocol: {}", server, e.what()));
  } catch (const ChannelClosed&) {
    throw TransportError(fmt::format("xferbench server at {} closed the control connection", server));
  } catch (const ChannelTimeout&) {
    throw TransportError(fmt::format("xferbench server at {} did not confirm the data connection within {}", server,
                                     seconds_text(options.wait)));
  }
}

ClientSession::~ClientSession() = default;

Endpoint& ClientSession::endpoint() { return *state_->endpoint; }
const std::string& ClientSession::server_description() const { return state_->description; }

ControlMessage ClientSession::State::receive_progressing(Deadline deadline) {
  for (;;) {
    if (auto message = channel->receive_available()) return std::move(*message);
    transport.progress();
    if (std::chrono::steady_clock::now() > deadline) throw ChannelTimeout("no reply in time");
  }
}

ControlMessage ClientSession::State::call(ControlType type, const std::vector<std::byte>& payload, ControlType expected,
                                          const std::string& what, bool progress) {
  try {
    channel->send(type, payload, deadline_after(options.wait));
    const Deadline deadline = deadline_after(options.wait);
    ControlMessage reply = progress ? receive_progressing(deadline) : channel->receive(deadline);
    if (reply.type == ControlType::failed) {
      PayloadReader reader(reply);
      const auto kind = static_cast<FailureKind>(reader.u8());
      const std::string why = reader.text();
      reader.end();
      const std::string message = fmt::format("xferbench server at {} could not {}: {}", server, what, why);
      if (kind == FailureKind::unavailable) throw Unavailable(message);
      throw TransportError(message);
    }
    if (reply.type != expected) {
      throw ProtocolError(fmt::format("a {} message in reply to {}", to_string(reply.type), to_string(type)));
    }
    return reply;
  } catch (const ProtocolError& e) {
    throw TransportError(fmt::format("xferbench server at {} broke the control protocol: {}", server, e.what()));
  } catch (const ChannelClosed&) {
    throw TransportError(fmt::format("xferbench server at {} closed the control connection", server));
  } catch (const ChannelTimeout&) {
    throw TransportError(fmt::format("xferbench server at {} did not answer ({}) within {}", server, what,
                                     seconds_text(options.wait)));
  }
}

PeerRegion ClientSession::expose(std::uint64_t bytes, RegionPlace place) {
  State& s = *state_;
  const ControlMessage reply =
      s.call(ControlType::expose, PayloadWriter().u64(bytes).u8(static_cast<std::uint8_t>(place)).take(),
             ControlType::exposed, fmt::format("expose {} bytes of {} memory", bytes, to_string(place)));
  PeerRegion region;
  RegionDescriptor descriptor;
  try {
    PayloadReader reader(reply);
    region.id = reader.u32();
    descriptor.address = reader.u64();
    descriptor.bytes = reader.u64();
    descriptor.key = reader.bytes();
    region.description = reader.text();
    region.staged = reader.u8() != 0;
    reader.end();
  } catch (const ProtocolError& e) {
    throw TransportError(fmt::format("xferbench server at {} broke the control protocol: {}", s.server, e.what()));
  }
  if (descriptor.bytes < bytes) {
    throw TransportError(fmt::format("xferbench server at {} exposed {} bytes of the {} asked", s.server,
                                     descriptor.bytes, bytes));
  }
  region.remote = s.endpoint->attach(descriptor);
  return region;
}

namespace {
void check_region_range(const char* call, const PeerRegion& region, std::uint64_t offset, std::uint64_t bytes) {
  const std::uint64_t size = region.remote ? region.remote->size() : 0;
  if (!range_inside(offset, bytes, size)) {
    throw std::out_of_range(fmt::format("{}: {} bytes at offset {} are outside region {} ({} bytes)", call, bytes,
                                        offset, region.id, size));
  }
}
}  // namespace

void ClientSession::fill(const PeerRegion& region, std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) {
  check_region_range("fill", region, offset, bytes);
  state_->call(ControlType::fill, PayloadWriter().u32(region.id).u64(offset).u64(bytes).u64(seed).take(),
               ControlType::done, fmt::format("fill region {}", region.id));
}

std::optional<std::uint64_t> ClientSession::verify(const PeerRegion& region, std::uint64_t offset,
                                                   std::uint64_t bytes, std::uint64_t seed) {
  check_region_range("verify", region, offset, bytes);
  const ControlMessage reply =
      state_->call(ControlType::verify, PayloadWriter().u32(region.id).u64(offset).u64(bytes).u64(seed).take(),
                   ControlType::verified, fmt::format("verify region {}", region.id));
  try {
    PayloadReader reader(reply);
    const bool mismatch = reader.u8() != 0;
    const std::uint64_t at = reader.u64();
    reader.end();
    if (!mismatch) return std::nullopt;
    return at;
  } catch (const ProtocolError& e) {
    throw TransportError(fmt::format("xferbench server at {} broke the control protocol: {}", state_->server, e.what()));
  }
}

void ClientSession::stage(const PeerRegion& region, StageDirection direction, std::uint64_t offset,
                          std::uint64_t bytes) {
  check_region_range("stage", region, offset, bytes);
  state_->call(ControlType::stage,
               PayloadWriter().u32(region.id).u64(offset).u64(bytes).u8(static_cast<std::uint8_t>(direction)).take(),
               ControlType::done, fmt::format("stage region {} {}", region.id, to_string(direction)));
}

void ClientSession::start_answering(const PeerRegion& region, const LocalRegion& reply, std::uint64_t bytes) {
  check_region_range("answer", region, 0, bytes);
  const RegionDescriptor mine = reply.describe();
  state_->call(ControlType::answer,
               PayloadWriter().u32(region.id).u64(bytes).u64(mine.address).u64(mine.bytes).bytes(mine.key).take(),
               ControlType::done, fmt::format("answer puts into region {}", region.id));
}

void ClientSession::end_answering() {
  state_->call(ControlType::answer_end, {}, ControlType::done, "end the ping-pong", true);
}

void ClientSession::finish() {
  state_->call(ControlType::finish, {}, ControlType::finished, "finish the session");
}

}  // namespace xb
