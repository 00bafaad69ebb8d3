#pragma once
// What the transport tests share: host memory that serves as the session server's ExposedMemory,
// a passive TCP transport peer on its own thread, and a session server on its own thread (each
// Transport belongs to one thread).
#include <atomic>
#include <chrono>
#include <cstddef>
#include <future>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb::test {

// Plain host memory with the verification pattern; counts what was made for the tests' checks.
class HostExposedMemory final : public ExposedMemory {
 public:
  explicit HostExposedMemory(std::uint64_t bytes, RegionPlace place) : bytes_(bytes), place_(place), data_(bytes) {}
  void* data() const override { return const_cast<std::byte*>(data_.data()); }
  std::size_t size() const override { return bytes_; }
  void fill(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override;
  std::optional<std::uint64_t> verify(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override;
  std::string description() const override { return std::string("test host memory (") + to_string(place_) + ")"; }

 private:
  std::uint64_t bytes_;
  RegionPlace place_;
  std::vector<std::byte> data_;
};

// Session options with `token` and `wait` (the caps at their defaults).
SessionOptions session_options(std::string token, std::chrono::milliseconds wait);

// A factory of HostExposedMemory; `device` places are refused with Unavailable (no device here),
// as the real EndpointMemory does on a machine without one.
ExposedMemoryFactory host_memory_factory();

// A TCP transport on its own thread: one region of `bytes` (filled with pattern `seed`) between
// two guard areas, a listener on 127.0.0.1, one accepted endpoint served by progress()/wait()
// until stop(). Its memory is read only after stop() (no race with the serving thread).
class PassivePeer {
 public:
  static constexpr std::size_t kGuard = 4096;
  static constexpr std::byte kGuardByte{0xA5};
  // serve = false: accept, then never progress (a peer that hangs).
  PassivePeer(std::size_t bytes, std::uint64_t seed, bool serve = true);
  ~PassivePeer();
  const SocketAddress& address() const { return address_; }
  const RegionDescriptor& descriptor() const { return descriptor_; }
  // Stops serving and closes the endpoint and the transport; returns the error progress() threw,
  // empty when none.
  std::string stop();
  // After stop(): the region and the guards around it.
  std::vector<std::byte> region() const;
  bool guards_intact() const;

 private:
  void run(std::size_t bytes, std::uint64_t seed, bool serve, std::promise<void> ready);
  std::vector<std::byte> memory_;
  SocketAddress address_;
  RegionDescriptor descriptor_;
  std::atomic<bool> stop_{false};
  std::string error_;
  std::thread thread_;
  bool stopped_ = false;
};

// Moves the calling thread into the network namespace /run/netns/NAME (sockets it makes then
// belong there; other threads stay where they are). Throws with the reason.
void enter_netns(const std::string& name);

// A session server on its own thread serving `clients` sessions one after another with a TCP
// transport (ports chosen by the kernel), in the namespace `netns` when one is named.
class ServerThread {
 public:
  // `factory`: the server's memory (empty: host_memory_factory()).
  ServerThread(SessionOptions options, int clients = 1, std::string data_host = "127.0.0.1",
               std::string control_host = "127.0.0.1", std::string netns = "", ExposedMemoryFactory factory = {});
  ~ServerThread();
  const SocketAddress& control() const { return control_; }
  // Joins; the reports of the sessions served and the error that ended serving, if any.
  struct Outcome {
    std::vector<SessionReport> reports;
    std::string error;
    std::string log;
  };
  Outcome join();

 private:
  SocketAddress control_;
  Outcome outcome_;
  std::thread thread_;
  bool joined_ = false;
};

// A raw TCP connection for sending what no xferbench peer would.
int raw_connect(const SocketAddress& address);
void raw_send(int fd, const void* data, std::size_t bytes);
// Everything the peer sends until it closes (or `timeout_ms` of silence).
std::vector<std::byte> raw_read_all(int fd, int timeout_ms);

}  // namespace xb::test
