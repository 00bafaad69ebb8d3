#include "ucx/ucx_test_support.hpp"

#include <sys/mman.h>

#include <chrono>
#include <cstdlib>
#include <span>
#include <stdexcept>

#include "core/pattern.hpp"

namespace xb::test {

ScopedEnv::ScopedEnv(std::string name, std::optional<std::string> value) : name_(std::move(name)) {
  if (const char* old = std::getenv(name_.c_str())) old_ = old;
  if (value) {
    ::setenv(name_.c_str(), value->c_str(), 1);
  } else {
    ::unsetenv(name_.c_str());
  }
}

ScopedEnv::~ScopedEnv() {
  if (old_) {
    ::setenv(name_.c_str(), old_->c_str(), 1);
  } else {
    ::unsetenv(name_.c_str());
  }
}

PatternBuffer::PatternBuffer(std::size_t bytes, std::uint64_t seed) : bytes_(bytes), seed_(seed) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("mmap of a test buffer failed");
  data_ = static_cast<std::byte*>(p);
  fill_pattern(std::span<std::byte>(data_, bytes_), seed_, 0);
}

PatternBuffer::~PatternBuffer() { ::munmap(data_, bytes_); }

std::uint8_t PatternBuffer::expected(std::size_t offset) const { return pattern_byte(seed_, offset); }

ServingThread::ServingThread(std::unique_ptr<Transport> transport, std::size_t bytes, std::uint64_t seed)
    : transport_(std::move(transport)), memory_(bytes, seed) {
  // Registered and listening before the thread starts, so the address and key are known now.
  region_ = transport_->register_memory(memory_.data(), memory_.size());
  descriptor_ = region_->describe();
  listener_ = transport_->listen(SocketAddress{"127.0.0.1", 0});
  address_ = listener_->address();
  thread_ = std::thread([this] { run(); });
}

ServingThread::~ServingThread() {
  if (thread_.joinable()) {
    stop_ = true;
    thread_.join();
  }
}

void ServingThread::run() {
  try {
    std::unique_ptr<Endpoint> endpoint;
    while (!stop_) {
      if (!endpoint) {
        try {
          endpoint = listener_->accept(std::chrono::milliseconds(100));
        } catch (const TransportError&) {
          continue;  // nobody yet: look at the stop flag again
        }
      }
      if (!transport_->progress()) transport_->wait(std::chrono::milliseconds(20));
    }
    info_ = transport_->info();
    endpoint.reset();
    listener_.reset();
    region_.reset();
  } catch (...) {
    error_ = std::current_exception();
  }
}

void ServingThread::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace xb::test
