#pragma once
// Registered memory (ucp_mem_map + a packed rkey) and a peer's region attached to one endpoint
// (an unpacked rkey). RegionDescriptor::key is the region's id at its owner (8 bytes, which the
// active-message path names) followed by the packed rkey (which the one-sided path unpacks).
#include <ucp/api/ucp.h>

#include <cstdint>
#include <memory>

#include "transport/transport.hpp"
#include "transport/ucx/ucx_worker.hpp"

namespace xb::ucx {

class UcxLocalRegion final : public LocalRegion {
 public:
  // Registers memory the caller owns (ucp_mem_map of an address).
  UcxLocalRegion(std::shared_ptr<Worker> worker, void* data, std::size_t bytes);
  // Allocates `bytes` through UCX (ucp_mem_map with UCP_MEM_MAP_ALLOCATE and no address: a sysv or
  // posix segment a shared-memory peer maps, per UCX_ALLOC_PRIO), registered by the same call;
  // the rkey is packed from that memh. Freed by ucp_mem_unmap when the region goes.
  struct Allocate {};
  UcxLocalRegion(std::shared_ptr<Worker> worker, std::size_t bytes, Allocate);
  ~UcxLocalRegion() override;  // refused to peers, then ucp_mem_unmap
  UcxLocalRegion(const UcxLocalRegion&) = delete;
  UcxLocalRegion& operator=(const UcxLocalRegion&) = delete;

  void* data() const override { return data_; }
  std::size_t size() const override { return bytes_; }
  RegionDescriptor describe() const override { return descriptor_; }
  std::string origin() const override { return origin_; }
  ucp_mem_h memh() const { return memh_; }

 private:
  // Packs the rkey of memh_ and enters the region in the worker's table (unmaps on failure).
  void publish();

  std::shared_ptr<Worker> worker_;
  std::string origin_;
  void* data_;
  std::size_t bytes_;
  ucp_mem_h memh_ = nullptr;
  std::uint64_t id_ = 0;
  RegionDescriptor descriptor_;
};

class UcxRemoteRegion final : public RemoteRegion {
 public:
  // Unpacks the descriptor's rkey on `ep` (the endpoint of peer `peer_id`).
  UcxRemoteRegion(std::shared_ptr<Worker> worker, ucp_ep_h ep, std::uint64_t peer_id, const std::string& peer_name,
                  const RegionDescriptor& remote);
  ~UcxRemoteRegion() override;  // ucp_rkey_destroy
  UcxRemoteRegion(const UcxRemoteRegion&) = delete;
  UcxRemoteRegion& operator=(const UcxRemoteRegion&) = delete;

  std::uint64_t address() const override { return address_; }
  std::size_t size() const override { return bytes_; }
  ucp_rkey_h rkey() const { return rkey_; }
  std::uint64_t region_id() const { return region_id_; }
  std::uint64_t peer_id() const { return peer_id_; }

 private:
  std::shared_ptr<Worker> worker_;
  std::uint64_t peer_id_;
  std::uint64_t address_;
  std::size_t bytes_;
  std::uint64_t region_id_ = 0;
  ucp_rkey_h rkey_ = nullptr;
};

}  // namespace xb::ucx
