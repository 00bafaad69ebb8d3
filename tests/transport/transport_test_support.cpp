#include "transport_test_support.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sched.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <span>
#include <stdexcept>

#include "core/error.hpp"
#include "core/pattern.hpp"
#include "transport/tcp/tcp_transport.hpp"

namespace xb::test {

void HostExposedMemory::fill(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) {
  fill_pattern(std::span(data_.data() + offset, bytes), seed, offset);
}

std::optional<std::uint64_t> HostExposedMemory::verify(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) {
  return find_pattern_mismatch(std::span<const std::byte>(data_.data() + offset, bytes), seed, offset);
}

SessionOptions session_options(std::string token, std::chrono::milliseconds wait) {
  SessionOptions o;
  o.token = std::move(token);
  o.wait = wait;
  return o;
}

ExposedMemoryFactory host_memory_factory() {
  return [](std::uint64_t bytes, RegionPlace place) -> std::unique_ptr<ExposedMemory> {
    if (place == RegionPlace::device) throw Unavailable("no device memory on this test server");
    return std::make_unique<HostExposedMemory>(bytes, place);
  };
}

PassivePeer::PassivePeer(std::size_t bytes, std::uint64_t seed, bool serve) : memory_(bytes + 2 * kGuard, kGuardByte) {
  std::promise<void> ready;
  auto started = ready.get_future();
  thread_ = std::thread(&PassivePeer::run, this, bytes, seed, serve, std::move(ready));
  started.get();  // rethrows what setting up threw
}

PassivePeer::~PassivePeer() { stop(); }

void PassivePeer::run(std::size_t bytes, std::uint64_t seed, bool serve, std::promise<void> ready) {
  try {
    auto transport = make_tcp_transport();
    std::byte* region_memory = memory_.data() + kGuard;
    fill_pattern(std::span(region_memory, bytes), seed, 0);
    auto region = transport->register_memory(region_memory, bytes);
    auto listener = transport->listen(SocketAddress{"127.0.0.1", 0});
    address_ = listener->address();
    descriptor_ = region->describe();
    ready.set_value();
    std::unique_ptr<Endpoint> endpoint;
    while (!stop_.load() && !endpoint) {
      try {
        endpoint = listener->accept(std::chrono::milliseconds(20));
      } catch (const TransportError&) {
      }
    }
    while (!stop_.load()) {
      if (serve) {
        try {
          if (!transport->progress()) transport->wait(std::chrono::milliseconds(5));
        } catch (const std::exception& e) {
          if (error_.empty()) error_ = e.what();
        }
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
  } catch (...) {
    const auto error = std::current_exception();
    try {
      ready.set_exception(error);
    } catch (const std::future_error&) {  // already running: the error ended serving
      error_ = error_text(error);
    }
  }
}

std::string PassivePeer::stop() {
  if (!stopped_) {
    stop_ = true;
    thread_.join();
    stopped_ = true;
  }
  return error_;
}

std::vector<std::byte> PassivePeer::region() const {
  return std::vector<std::byte>(memory_.begin() + kGuard, memory_.end() - kGuard);
}

bool PassivePeer::guards_intact() const {
  for (std::size_t i = 0; i < kGuard; ++i) {
    if (memory_[i] != kGuardByte || memory_[memory_.size() - 1 - i] != kGuardByte) return false;
  }
  return true;
}

void enter_netns(const std::string& name) {
  const std::string path = "/run/netns/" + name;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_errno("open(" + path + ")");
  const int rc = ::setns(fd, CLONE_NEWNET);
  const int error = errno;
  ::close(fd);
  if (rc != 0) throw SystemError("setns(" + path + ")", error);
}

ServerThread::ServerThread(SessionOptions options, int clients, std::string data_host, std::string control_host,
                           std::string netns, ExposedMemoryFactory factory) {
  if (!factory) factory = host_memory_factory();
  std::promise<SocketAddress> ready;
  auto started = ready.get_future();
  thread_ = std::thread([this, options, clients, data_host, control_host, netns, factory = std::move(factory),
                         ready = std::move(ready)]() mutable {
    std::ostringstream log;
    try {
      if (!netns.empty()) enter_netns(netns);
      auto transport = make_tcp_transport();
      SessionServer server(*transport, SocketAddress{control_host, 0}, SocketAddress{data_host, 0}, options,
                           std::move(factory), log);
      server.set_description("test server");
      ready.set_value(server.control_address());
      for (int i = 0; i < clients; ++i) outcome_.reports.push_back(server.serve_one());
    } catch (...) {
      const auto error = std::current_exception();
      try {
        ready.set_exception(error);
      } catch (const std::future_error&) {  // already serving: the error ended it
        outcome_.error = error_text(error);
      }
    }
    outcome_.log = log.str();
  });
  control_ = started.get();
}

ServerThread::~ServerThread() { join(); }

ServerThread::Outcome ServerThread::join() {
  if (!joined_) {
    thread_.join();
    joined_ = true;
  }
  return outcome_;
}

int raw_connect(const SocketAddress& address) {
  sockaddr_storage storage;
  const socklen_t length = address.to_sockaddr(storage);
  const int fd = ::socket(storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw_errno("socket");
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&storage), length) != 0) {
    ::close(fd);
    throw_errno("connect");
  }
  return fd;
}

void raw_send(int fd, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::send(fd, p, bytes, MSG_NOSIGNAL);
    if (n <= 0) throw_errno("send");
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

std::vector<std::byte> raw_read_all(int fd, int timeout_ms) {
  std::vector<std::byte> got;
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return got;
    std::byte buffer[4096];
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return got;
    got.insert(got.end(), buffer, buffer + n);
  }
}

}  // namespace xb::test
