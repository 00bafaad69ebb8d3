// The plain TCP transport: the Transport/Listener/Endpoint/region classes over tcp::Connection
// (the per-socket protocol) and tcp::RegionTable (what peers may touch).
#include "transport/tcp/tcp_transport.hpp"

#include <fmt/format.h>
#include <poll.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "core/range.hpp"
#include "core/version.hpp"
#include "transport/socket_ops.hpp"
#include "transport/tcp/tcp_connection.hpp"
#include "transport/ticket_gate.hpp"
#include "transport/tcp/tcp_regions.hpp"

namespace xb {
namespace {

using tcp::Connection;
using tcp::RegionKey;

// What the transport's objects share: regions and the live connections, so progress() and wait()
// reach every endpoint. Held by shared_ptr so the objects may be destroyed in any order.
struct Context {
  tcp::RegionTable regions;
  std::vector<Connection*> connections;
  bool connected = false;  // an endpoint existed: info().lanes is meaningful
};

// Drives every connection once (the passive side of peers' requests); whether anything moved.
bool progress_all(Context& context) {
  bool moved = false;
  // drive() never adds or removes connections, so the list is stable while we walk it.
  for (Connection* connection : context.connections) moved |= connection->drive();
  return moved;
}

// Waits up to `timeout_ms` until a connection has something to do, or `extra_fd` (a listener,
// -1 for none) is readable; true when `extra_fd` is.
bool poll_all(const Context& context, int extra_fd, int timeout_ms) {
  std::vector<pollfd> fds;
  fds.reserve(context.connections.size() + 1);
  if (extra_fd >= 0) fds.push_back({extra_fd, POLLIN, 0});
  for (const Connection* connection : context.connections) {
    if (const short events = connection->poll_events(); events != 0) fds.push_back({connection->fd(), events, 0});
  }
  if (fds.empty()) {
    // Nothing to serve: sleep the time asked, as a poll on no descriptors would.
    std::this_thread::sleep_for(std::chrono::milliseconds(timeout_ms));
    return false;
  }
  if (::poll(fds.data(), fds.size(), timeout_ms) <= 0) return false;
  return extra_fd >= 0 && fds[0].revents != 0;
}

// Socket buffers are left to the kernel's autotuning: on loopback, fixed 4 MiB SO_SNDBUF/SO_RCVBUF
// (which switch autotuning off) made the put stream 2-3x slower (docs/transport.md).
void prepare_data_socket(int fd) { set_low_latency(fd); }

class TcpLocalRegion final : public LocalRegion {
 public:
  TcpLocalRegion(std::shared_ptr<Context> context, void* data, std::size_t bytes)
      : context_(std::move(context)), data_(data), bytes_(bytes), key_(context_->regions.add(data, bytes)) {}
  ~TcpLocalRegion() override { context_->regions.remove(key_.id); }
  void* data() const override { return data_; }
  std::size_t size() const override { return bytes_; }
  // The peer reaches the region by its key and an offset: our virtual address is not its business
  // (it would only help an attacker of this process), so the descriptor carries 0.
  RegionDescriptor describe() const override { return RegionDescriptor{0, bytes_, tcp::pack_key(key_)}; }
  std::uint32_t id() const { return key_.id; }

 private:
  std::shared_ptr<Context> context_;
  void* data_;
  std::size_t bytes_;
  RegionKey key_;
};

class TcpRemoteRegion final : public RemoteRegion {
 public:
  TcpRemoteRegion(const RegionDescriptor& descriptor, RegionKey key)
      : address_(descriptor.address), bytes_(descriptor.bytes), key_(key) {}
  std::uint64_t address() const override { return address_; }
  std::size_t size() const override { return bytes_; }
  const RegionKey& key() const { return key_; }

 private:
  std::uint64_t address_;
  std::size_t bytes_;
  RegionKey key_;
};

void check_range(const char* call, const char* which, std::uint64_t offset, std::uint64_t bytes,
                 std::uint64_t size) {
  if (!range_inside(offset, bytes, size)) {
    throw std::out_of_range(fmt::format("tcp {}: {} bytes at offset {} are outside the {} region ({} bytes)", call,
                                        bytes, offset, which, size));
  }
}

template <typename T, typename From>
T& tcp_object(From& object, const char* what) {
  auto* typed = dynamic_cast<T*>(&object);
  if (typed == nullptr) throw std::invalid_argument(fmt::format("tcp transport: the {} is not a tcp one", what));
  return *typed;
}

class TcpEndpoint final : public Endpoint {
 public:
  TcpEndpoint(std::shared_ptr<Context> context, UniqueFd fd)
      : context_(std::move(context)), peer_(peer_address(fd.get()).to_string()),
        connection_(std::move(fd), peer_, context_->regions) {
    context_->connections.push_back(&connection_);
    context_->connected = true;
  }
  ~TcpEndpoint() override { std::erase(context_->connections, &connection_); }

  std::unique_ptr<RemoteRegion> attach(const RegionDescriptor& remote) override {
    const auto key = tcp::unpack_key(remote.key);
    if (!key) {
      throw TransportError(fmt::format("tcp: a region key of {} bytes from peer {} is not a tcp transport key", 
                                       remote.key.size(), peer_));
    }
    return std::make_unique<TcpRemoteRegion>(remote, *key);
  }

  void put(const LocalRegion& src, std::size_t src_offset, RemoteRegion& dst, std::size_t dst_offset,
           std::size_t bytes) override {
    const auto& remote = tcp_object<TcpRemoteRegion>(dst, "destination region");
    check_range("put", "local", src_offset, bytes, src.size());
    check_range("put", "remote", dst_offset, bytes, remote.size());
    throw_if_failed();
    if (bytes == 0) return;
    connection_.queue_put(static_cast<const std::byte*>(src.data()) + src_offset, remote.key(), dst_offset, bytes);
    pending_ = true;
    connection_.drive();  // start sending now; flush() finishes
  }

  void get(LocalRegion& dst, std::size_t dst_offset, RemoteRegion& src, std::size_t src_offset,
           std::size_t bytes) override {
    const auto& remote = tcp_object<TcpRemoteRegion>(src, "source region");
    check_range("get", "local", dst_offset, bytes, dst.size());
    check_range("get", "remote", src_offset, bytes, remote.size());
    throw_if_failed();
    if (bytes == 0) return;
    connection_.queue_get(static_cast<std::byte*>(dst.data()) + dst_offset, remote.key(), src_offset, bytes);
    pending_ = true;
    connection_.drive();
  }

  void flush(std::chrono::milliseconds timeout) override {
    throw_if_failed();
    if (!pending_) return;
    const std::uint64_t sequence = connection_.queue_flush();
    const Deadline deadline = deadline_after(timeout);
    for (;;) {
      connection_.drive();
      if (connection_.flushed(sequence)) break;
      throw_if_failed();
      if (!wait_ready(connection_.fd(), connection_.poll_events(), deadline)) {
        throw TransportError(fmt::format("tcp: flush to peer {} timed out after {} ms ({} bytes not yet sent)",
                                         peer_, timeout.count(), connection_.unsent_bytes()));
      }
    }
    pending_ = false;
  }

  std::string peer() const override { return peer_; }

 private:
  void throw_if_failed() const {
    if (connection_.failure()) throw TransportError("tcp: " + *connection_.failure());
  }

  std::shared_ptr<Context> context_;
  std::string peer_;
  Connection connection_;
  bool pending_ = false;  // puts/gets queued since the last completed flush
};

class TcpListener final : public Listener {
 public:
  TcpListener(std::shared_ptr<Context> context, const SocketAddress& address)
      : context_(std::move(context)), fd_(listen_tcp(address, 64)) {
    address_ = local_address(fd_.get());
  }
  SocketAddress address() const override { return address_; }

  std::unique_ptr<Endpoint> accept(std::chrono::milliseconds timeout, ConnectionTicket ticket = {}) override {
    const Deadline deadline = deadline_after(timeout);
    TicketGate gate(ticket);
    for (;;) {
      if (UniqueFd fd = gate.admit(fd_.get()); fd.valid()) {
        prepare_data_socket(fd.get());
        return std::make_unique<TcpEndpoint>(context_, std::move(fd));
      }
      // Serve the endpoints that exist while waiting: a peer flushing on one of them must not wait
      // for this accept.
      if (progress_all(*context_)) continue;
      if (std::chrono::steady_clock::now() >= deadline) {
        throw TransportError(fmt::format("tcp: no peer connected to {} within {} ms{}", address_.to_string(),
                                         timeout.count(), turned_away_text(gate)));
      }
      // Connections still presenting their ticket do not wake a poll on the listener: look again soon.
      poll_all(*context_, fd_.get(), gate.reading() ? std::min(poll_timeout_ms(deadline), 10) : poll_timeout_ms(deadline));
    }
  }

 private:
  std::shared_ptr<Context> context_;
  UniqueFd fd_;
  SocketAddress address_;
};

class TcpTransport final : public Transport {
 public:
  TcpTransport() : context_(std::make_shared<Context>()) {}

  std::string_view name() const override { return "tcp"; }

  std::unique_ptr<LocalRegion> register_memory(void* data, std::size_t bytes) override {
    return std::make_unique<TcpLocalRegion>(context_, data, bytes);
  }

  std::unique_ptr<Listener> listen(const SocketAddress& address) override {
    return std::make_unique<TcpListener>(context_, address);
  }

  std::unique_ptr<Endpoint> connect(const SocketAddress& address, std::chrono::milliseconds timeout,
                                    ConnectionTicket ticket = {}) override {
    std::string last_error;
    const Deadline deadline = deadline_after(timeout);
    auto fd = connect_tcp(address, deadline, last_error);
    if (!fd) {
      throw TransportError(fmt::format("tcp: no peer at {} after {} ms ({})", address.to_string(), timeout.count(),
                                       last_error));
    }
    present_ticket(fd->get(), ticket, deadline, "tcp peer " + address.to_string());
    prepare_data_socket(fd->get());
    return std::make_unique<TcpEndpoint>(context_, std::move(*fd));
  }

  bool progress() override { return progress_all(*context_); }

  void wait(std::chrono::milliseconds timeout) override {
    poll_all(*context_, -1, static_cast<int>(std::min<std::chrono::milliseconds::rep>(timeout.count(), 1'000'000)));
  }

  TransportInfo info() const override {
    return TransportInfo{"tcp", program_version(), context_->connected ? "tcp" : "", ""};
  }

 private:
  std::shared_ptr<Context> context_;
};

}  // namespace

std::unique_ptr<Transport> make_tcp_transport() { return std::make_unique<TcpTransport>(); }

}  // namespace xb
