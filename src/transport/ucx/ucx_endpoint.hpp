#pragma once
// A connection to one peer over a UCP endpoint. put/get go out as one-sided operations
// (ucp_put_nbx/ucp_get_nbx) where UCX has native RMA lanes, or as active messages (ucx_am.hpp)
// where it would emulate them over tcp; the choice is made once the endpoint's lanes are known
// (first put/get/flush) unless XFERBENCH_UCX_PROTOCOL forces it.
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/unique_fd.hpp"
#include "transport/transport.hpp"
#include "transport/ucx/ucx_lanes.hpp"
#include "transport/ucx/ucx_worker.hpp"

namespace xb::ucx {

class UcxEndpoint final : public Endpoint {
 public:
  // ucp_ep_create to the peer's worker address (peer-failure detection on). `bootstrap` is the TCP
  // connection the addresses came over: kept open, its closing says the peer process is gone
  // even where UCX cannot tell (shared memory has no connection to break).
  static std::unique_ptr<UcxEndpoint> create(std::shared_ptr<Worker> worker, const std::vector<std::uint8_t>& address,
                                             std::string name, UniqueFd bootstrap, std::optional<Protocol> forced);
  UcxEndpoint(std::shared_ptr<Worker> worker, Peer& peer, UniqueFd bootstrap, std::optional<Protocol> forced);
  // Waits (bounded) for operations in flight, then closes the endpoint (ucp_ep_close_nbx).
  ~UcxEndpoint() override;
  UcxEndpoint(const UcxEndpoint&) = delete;
  UcxEndpoint& operator=(const UcxEndpoint&) = delete;

  std::unique_ptr<RemoteRegion> attach(const RegionDescriptor& remote) override;
  void put(const LocalRegion& src, std::size_t src_offset, RemoteRegion& dst, std::size_t dst_offset,
           std::size_t bytes) override;
  void get(LocalRegion& dst, std::size_t dst_offset, RemoteRegion& src, std::size_t src_offset,
           std::size_t bytes) override;
  void flush(std::chrono::milliseconds timeout) override;
  std::string peer() const override { return peer_.name; }

  // A round trip of the active-message flush: true once the peer answered (both sides' endpoints
  // wired up), false when it failed or `deadline` passed (`why` says which).
  bool handshake(std::chrono::steady_clock::time_point deadline, std::string& why);
  Protocol protocol();

 private:
  struct InFlight {
    void* request;
    std::shared_ptr<const void> keep;  // an active message's header, read by UCX until completion
    const char* what;                  // "put", "get", "flush"
  };
  void require_usable(std::string_view op) const;
  void keep_request(void* request, std::shared_ptr<const void> keep, const char* what);
  // Frees the completed requests at the front; true when none is left.
  bool reap();
  [[noreturn]] void throw_failed() const;
  void throw_operation_error();
  bool wait_until(const std::function<bool()>& done, std::chrono::steady_clock::time_point deadline);
  // Marks the peer failed when its bootstrap connection closed (rate-limited: see flush()).
  void check_bootstrap();

  std::shared_ptr<Worker> worker_;
  Peer& peer_;
  UniqueFd bootstrap_;
  std::optional<Protocol> forced_;
  std::optional<Protocol> protocol_;
  std::deque<InFlight> in_flight_;
  std::string operation_error_;  // the first put/get whose request completed with an error
  std::chrono::steady_clock::time_point bootstrap_checked_{};
};

}  // namespace xb::ucx
