// The UCX transport's put/get bandwidth between two processes on loopback, the way ucx_perftest's
// ucp_put_bw / ucp_get measure it: one buffer of SIZE bytes on each side reused by every transfer,
// WARMUP transfers first, then ITERS transfers timed, completed by a flush every WINDOW transfers
// and one at the end. The server is a forked child (its own UCX context, like perftest's server
// process); both read UCX_TLS / XFERBENCH_UCX_PROTOCOL from the environment.
// Both buffers come from Transport::allocate_memory, as perftest's come from
// ucp_mem_map(ALLOCATE) and as xfer and link allocate host memory: over shared memory that is a
// segment the peer maps, so put/get are one copy. MEMORY=registered measures memory the program
// mmaps and registers instead (UCX 1.13 reaches it over shared memory only by its emulation).
//
//   [MEMORY=allocated|registered] ucx_transport_bench put|get SIZE ITERS [WARMUP] [WINDOW]
// prints one line: "<op> <size> B x <iters>: <MiB/s> MiB/s memory=<…> lanes=<…> settings=<…>".
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "transport/transport.hpp"
#include "transport/ucx/ucx_transport.hpp"

namespace {

using namespace std::chrono_literals;

struct Mapping {
  explicit Mapping(std::size_t n) : bytes(n) {
    void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
    data = p;
    std::memset(data, 0x5a, n);  // touched, as perftest's buffers are
  }
  ~Mapping() { ::munmap(data, bytes); }
  void* data;
  std::size_t bytes;
};

void write_all(int fd, const void* p, std::size_t n) {
  const auto* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t w = ::write(fd, c, n);
    if (w <= 0) throw std::runtime_error("pipe write failed");
    c += w;
    n -= static_cast<std::size_t>(w);
  }
}

void read_all(int fd, void* p, std::size_t n) {
  auto* c = static_cast<char*>(p);
  while (n > 0) {
    const ssize_t r = ::read(fd, c, n);
    if (r <= 0) throw std::runtime_error("the bench server did not start");
    c += r;
    n -= static_cast<std::size_t>(r);
  }
}

// One side's buffer: allocated and registered by the transport (the default), or mmapped here
// and registered (MEMORY=registered).
class Buffer {
 public:
  Buffer(xb::Transport& transport, std::size_t size, bool allocated) {
    if (allocated) {
      region_ = transport.allocate_memory(size);
      if (!region_) throw std::runtime_error("the transport cannot allocate memory (MEMORY=registered?)");
      std::memset(region_->data(), 0x5a, size);  // touched, as perftest's buffers are
    } else {
      mapping_ = std::make_unique<Mapping>(size);
      region_ = transport.register_memory(mapping_->data, mapping_->bytes);
    }
  }
  xb::LocalRegion& region() { return *region_; }
  std::string origin() const { return region_->origin().empty() ? "registered mmap" : region_->origin(); }

 private:
  std::unique_ptr<Mapping> mapping_;  // declared first: the region goes before the memory it covers
  std::unique_ptr<xb::LocalRegion> region_;
};

// The server: a region, a listener, progress until the parent closes `stop_fd`.
[[noreturn]] void serve(std::size_t size, bool allocated, int report_fd, int stop_fd) {
  try {
    auto transport = xb::make_ucx_transport();
    Buffer memory(*transport, size, allocated);
    auto& region = memory.region();
    auto listener = transport->listen(xb::SocketAddress{"127.0.0.1", 0});
    const xb::RegionDescriptor d = region.describe();
    const std::uint16_t port = listener->address().port;
    const std::uint64_t key_bytes = d.key.size();
    write_all(report_fd, &port, sizeof port);
    write_all(report_fd, &d.address, sizeof d.address);
    write_all(report_fd, &d.bytes, sizeof d.bytes);
    write_all(report_fd, &key_bytes, sizeof key_bytes);
    write_all(report_fd, d.key.data(), d.key.size());
    ::close(report_fd);
    auto endpoint = listener->accept(60s);
    for (unsigned round = 0;; ++round) {
      if (!transport->progress()) transport->wait(10ms);
      if (round % 1024 == 0) {
        pollfd p{stop_fd, POLLIN, 0};
        if (::poll(&p, 1, 0) > 0) break;  // the parent closed its end: done
      }
    }
    endpoint.reset();
    _exit(0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench server: %s\n", e.what());
    _exit(1);
  }
}

int run(bool put, bool allocated, std::size_t size, std::size_t iters, std::size_t warmup, std::size_t window) {
  int report[2], stop[2];
  if (::pipe(report) != 0 || ::pipe(stop) != 0) throw std::runtime_error("pipe failed");
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    ::close(report[0]);
    ::close(stop[1]);
    serve(size, allocated, report[1], stop[0]);
  }
  ::close(report[1]);
  ::close(stop[0]);
  std::uint16_t port = 0;
  std::uint64_t key_bytes = 0;
  xb::RegionDescriptor remote_descriptor;
  read_all(report[0], &port, sizeof port);
  read_all(report[0], &remote_descriptor.address, sizeof remote_descriptor.address);
  read_all(report[0], &remote_descriptor.bytes, sizeof remote_descriptor.bytes);
  read_all(report[0], &key_bytes, sizeof key_bytes);
  remote_descriptor.key.resize(key_bytes);
  read_all(report[0], remote_descriptor.key.data(), key_bytes);
  ::close(report[0]);

  double mib_per_s = 0;
  xb::TransportInfo info;
  std::string origin;
  {
    auto transport = xb::make_ucx_transport();
    Buffer memory(*transport, size, allocated);
    auto& region = memory.region();
    origin = memory.origin();
    auto endpoint = transport->connect(xb::SocketAddress{"127.0.0.1", port}, 20s);
    auto remote = endpoint->attach(remote_descriptor);
    auto transfer = [&] {
      if (put) {
        endpoint->put(region, 0, *remote, 0, size);
      } else {
        endpoint->get(region, 0, *remote, 0, size);
      }
    };
    for (std::size_t i = 0; i < warmup; ++i) transfer();
    endpoint->flush(60s);
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < iters; ++i) {
      transfer();
      if ((i + 1) % window == 0) endpoint->flush(60s);
    }
    endpoint->flush(60s);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    mib_per_s = static_cast<double>(size) * static_cast<double>(iters) / seconds / (1024.0 * 1024.0);
    info = transport->info();
    remote.reset();
    endpoint.reset();
  }
  ::close(stop[1]);
  int status = 0;
  ::waitpid(child, &status, 0);
  std::printf("%s %zu B x %zu: %.2f MiB/s memory=%s lanes=%s settings=%s\n", put ? "put" : "get", size, iters,
              mib_per_s, origin.c_str(), info.lanes.c_str(), info.settings.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || (std::strcmp(argv[1], "put") != 0 && std::strcmp(argv[1], "get") != 0)) {
    std::fprintf(stderr, "usage: [MEMORY=allocated|registered] %s put|get SIZE ITERS [WARMUP] [WINDOW]\n", argv[0]);
    return 2;
  }
  const char* memory = std::getenv("MEMORY");
  const std::string kind = memory != nullptr ? memory : "allocated";
  if (kind != "allocated" && kind != "registered") {
    std::fprintf(stderr, "ucx_transport_bench: MEMORY=%s: expected allocated or registered\n", kind.c_str());
    return 2;
  }
  try {
    const std::size_t size = std::stoull(argv[2]);
    const std::size_t iters = std::stoull(argv[3]);
    const std::size_t warmup = argc > 4 ? std::stoull(argv[4]) : iters / 10;
    const std::size_t window = argc > 5 ? std::max<std::size_t>(1, std::stoull(argv[5])) : 64;
    return run(std::strcmp(argv[1], "put") == 0, kind == "allocated", size, iters, warmup, window);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ucx_transport_bench: %s\n", e.what());
    return 1;
  }
}
