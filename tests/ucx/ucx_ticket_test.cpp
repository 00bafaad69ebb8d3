// The UCX data listener's gate (transport/ticket_gate.hpp): whoever reaches the port first hears
// nothing, not even the worker address, unless it presents the session's ticket; a connection
// with the wrong ticket is closed and the listener goes on to the real one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <atomic>
#include <future>
#include <thread>

#include "transport/auth.hpp"
#include "transport/socket_ops.hpp"
#include "transport/ucx/ucx_transport.hpp"
#include "ucx/ucx_test_support.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;
using test::ScopedEnv;
using ::testing::HasSubstr;

// Everything `fd` receives within `ms` of silence (or until it is closed).
std::size_t bytes_heard(int fd, int ms) {
  std::size_t total = 0;
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, ms) <= 0) return total;
    char buffer[4096];
    const ssize_t r = ::recv(fd, buffer, sizeof buffer, 0);
    if (r <= 0) return total;
    total += static_cast<std::size_t>(r);
  }
}

int raw_connect(const SocketAddress& address) {
  std::string why;
  auto fd = connect_tcp(address, deadline_after(5s), why);
  if (!fd) throw std::runtime_error(why);
  return fd->release();
}

// A UCX listener on a thread of its own (a Transport belongs to one thread) on 127.0.0.1: accepts one
// connection presenting `ticket` within `timeout`, then keeps progressing until finish() (the
// connector's endpoint handshake needs this side's progress). finish() returns the accepted peer,
// or the error that ended the accept.
class ListenerThread {
 public:
  ListenerThread(AuthBytes ticket, std::chrono::milliseconds timeout) {
    std::promise<SocketAddress> bound;
    auto address = bound.get_future();
    thread_ = std::thread([this, ticket, timeout, &bound] {
      bool listening = false;  // `bound` is the constructor's: touched only until it is set
      try {
        auto transport = make_ucx_transport();
        auto listener = transport->listen(SocketAddress{"127.0.0.1", 0});
        listening = true;
        bound.set_value(listener->address());
        auto endpoint = listener->accept(timeout, ticket);
        outcome_ = endpoint->peer();
        const auto until = std::chrono::steady_clock::now() + 20s;
        while (!released_ && std::chrono::steady_clock::now() < until) {
          if (!transport->progress()) transport->wait(2ms);
        }
      } catch (const std::exception& e) {
        outcome_ = std::string("error: ") + e.what();
        if (!listening) bound.set_exception(std::current_exception());
      }
    });
    try {
      address_ = address.get();
    } catch (...) {
      thread_.join();
      throw;
    }
  }
  ~ListenerThread() { finish(); }
  ListenerThread(const ListenerThread&) = delete;
  ListenerThread& operator=(const ListenerThread&) = delete;

  const SocketAddress& address() const { return address_; }
  std::string finish() {
    released_ = true;
    if (thread_.joinable()) thread_.join();
    return outcome_;
  }

 private:
  SocketAddress address_;
  std::string outcome_;
  std::atomic<bool> released_{false};
  std::thread thread_;
};

TEST(UcxTicket, StrangersOnTheDataPortHearNothingAndTheTicketHolderConnects) {
  ScopedEnv tls("UCX_TLS", "tcp");
  const AuthBytes ticket = AuthSession{random_bytes(32)}.data_ticket();
  ListenerThread server(ticket, 20s);
  const SocketAddress at = server.address();
  // A stranger that says nothing, and one with a wrong ticket: neither hears the worker address.
  const int silent = raw_connect(at);
  const int wrong = raw_connect(at);
  const AuthBytes other = AuthSession{random_bytes(32)}.data_ticket();
  EXPECT_EQ(::send(wrong, other.data(), other.size(), MSG_NOSIGNAL), static_cast<ssize_t>(other.size())) << errno;
  EXPECT_EQ(bytes_heard(wrong, 1000), 0u);
  EXPECT_EQ(bytes_heard(silent, 300), 0u);
  // The ticket holder is admitted while the silent stranger still holds its connection open.
  auto transport = make_ucx_transport();
  try {
    auto endpoint = transport->connect(at, 20s, ticket);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
  EXPECT_THAT(server.finish(), ::testing::Not(HasSubstr("error")));
  ::close(silent);
  ::close(wrong);
}

TEST(UcxTicket, AConnectorWithTheWrongTicketIsRefused) {
  ScopedEnv tls("UCX_TLS", "tcp");
  const AuthBytes ticket = AuthSession{random_bytes(32)}.data_ticket();
  ListenerThread server(ticket, 2s);
  auto transport = make_ucx_transport();
  const AuthBytes other = AuthSession{random_bytes(32)}.data_ticket();
  EXPECT_THROW(transport->connect(server.address(), 3s, other), TransportError);
  EXPECT_THAT(server.finish(), HasSubstr("without the session's ticket turned away"));
}

}  // namespace
}  // namespace xb
