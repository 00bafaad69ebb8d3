#pragma once
// What the UCX tests share: an environment variable set for one test (UCX reads UCX_* when a
// transport is made), a UCX transport serving on its own thread, and pattern buffers.
#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "transport/transport.hpp"

namespace xb::test {

// Sets (or unsets, with nullopt) an environment variable and restores it. Use before the
// transports are made and before any thread starts.
class ScopedEnv {
 public:
  ScopedEnv(std::string name, std::optional<std::string> value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// Page-aligned memory filled with the verification pattern of `seed`.
class PatternBuffer {
 public:
  PatternBuffer(std::size_t bytes, std::uint64_t seed);
  ~PatternBuffer();
  PatternBuffer(const PatternBuffer&) = delete;
  PatternBuffer& operator=(const PatternBuffer&) = delete;
  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  std::uint64_t seed() const { return seed_; }
  // The byte the pattern has at `offset`.
  std::uint8_t expected(std::size_t offset) const;

 private:
  std::byte* data_;
  std::size_t bytes_;
  std::uint64_t seed_;
};

// A transport serving one region on 127.0.0.1 from its own thread: it registers the region,
// listens, accepts one endpoint and makes progress (progress + wait) until stopped. The
// transport is made by the caller (on its thread, with its environment) and handed over.
class ServingThread {
 public:
  ServingThread(std::unique_ptr<Transport> transport, std::size_t bytes, std::uint64_t seed);
  ~ServingThread();  // stops and joins
  ServingThread(const ServingThread&) = delete;
  ServingThread& operator=(const ServingThread&) = delete;

  SocketAddress address() const { return address_; }
  const RegionDescriptor& region() const { return descriptor_; }
  PatternBuffer& memory() { return memory_; }
  // The server's info() once its endpoint exists (read after stop()).
  TransportInfo info() const { return info_; }
  // Stops the loop and joins; rethrows what the thread threw (other than the stop).
  void stop();

 private:
  void run();

  std::unique_ptr<Transport> transport_;
  PatternBuffer memory_;
  SocketAddress address_;
  RegionDescriptor descriptor_;
  TransportInfo info_;
  std::atomic<bool> ready_{false};
  std::atomic<bool> stop_{false};
  std::exception_ptr error_;
  std::unique_ptr<LocalRegion> region_;
  std::unique_ptr<Listener> listener_;
  std::thread thread_;
};

}  // namespace xb::test
