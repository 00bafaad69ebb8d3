// The TCP transport's put stream on loopback, for comparison with iperf3 -P1 (tcp_transport_bench.sh
// runs both). A passive peer on its own thread serves one region; the active side puts blocks of
// --block bytes into it back to back for --seconds (cycling through --region bytes, default one
// block), flushing every --flush-every bytes, and prints
// one line of figures: Gbit/s as iperf3 counts them (10^9 bits per second of payload).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.hpp"
#include "transport/tcp/tcp_transport.hpp"

namespace {

using namespace xb;
using std::chrono::milliseconds;

struct Options {
  std::uint64_t block = 1 << 20;
  double seconds = 5;
  std::uint64_t flush_every = 64 << 20;
  // Bytes of memory on each side the blocks cycle through. Default: one block, reused, as iperf3
  // reuses its one buffer (so neither side gains from caches the other does not have).
  std::uint64_t region = 0;
};

std::uint64_t number(const char* text) { return std::strtoull(text, nullptr, 10); }

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--block") o.block = number(argv[i + 1]);
    else if (flag == "--seconds") o.seconds = std::atof(argv[i + 1]);
    else if (flag == "--flush-every") o.flush_every = number(argv[i + 1]);
    else if (flag == "--region") o.region = number(argv[i + 1]);
    else throw std::invalid_argument("unknown flag " + flag);
  }
  if (o.block == 0) throw std::invalid_argument("--block must be at least 1");
  o.region = std::max(o.region, o.block);
  return o;
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  std::vector<std::byte> remote_memory(o.region);
  std::vector<std::byte> local_memory(o.region, std::byte{0x5a});
  std::memset(remote_memory.data(), 0, remote_memory.size());  // touched before timing, as iperf3's buffers

  std::promise<std::pair<SocketAddress, RegionDescriptor>> ready;
  auto published = ready.get_future();
  std::atomic<bool> stop{false};
  std::thread passive([&] {
    auto transport = make_tcp_transport();
    auto region = transport->register_memory(remote_memory.data(), remote_memory.size());
    auto listener = transport->listen(SocketAddress{"127.0.0.1", 0});
    ready.set_value({listener->address(), region->describe()});
    auto endpoint = listener->accept(milliseconds(10000));
    while (!stop.load(std::memory_order_relaxed)) {
      if (!transport->progress()) transport->wait(milliseconds(5));
    }
  });
  const auto [address, descriptor] = published.get();

  auto transport = make_tcp_transport();
  auto endpoint = transport->connect(address, milliseconds(10000));
  auto remote = endpoint->attach(descriptor);
  auto local = transport->register_memory(local_memory.data(), local_memory.size());

  const std::uint64_t blocks_in_region = o.region / o.block;
  const std::uint64_t blocks_per_flush = std::max<std::uint64_t>(1, o.flush_every / o.block);
  const std::uint64_t start = now_ns();
  const auto limit = static_cast<std::uint64_t>(o.seconds * 1e9);
  std::uint64_t blocks = 0;
  while (now_ns() - start < limit) {
    for (std::uint64_t i = 0; i < blocks_per_flush; ++i, ++blocks) {
      const std::uint64_t offset = (blocks % blocks_in_region) * o.block;
      endpoint->put(*local, offset, *remote, offset, o.block);
    }
    endpoint->flush(milliseconds(60000));
  }
  const double seconds = static_cast<double>(now_ns() - start) / 1e9;
  endpoint.reset();
  stop = true;
  passive.join();
  const double bytes = static_cast<double>(blocks * o.block);
  fmt::print("block={} bytes={:.0f} seconds={:.3f} gbit_per_s={:.3f}\n", o.block, bytes, seconds,
             bytes * 8 / seconds / 1e9);
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "tcp_transport_bench: {}\n", e.what());
  return 1;
}
