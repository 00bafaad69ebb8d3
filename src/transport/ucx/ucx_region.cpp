#include "transport/ucx/ucx_region.hpp"

#include <cstring>
#include <fmt/format.h>

#include "transport/ucx/ucx_status.hpp"

namespace xb::ucx {

UcxLocalRegion::UcxLocalRegion(std::shared_ptr<Worker> worker, void* data, std::size_t bytes)
    : worker_(std::move(worker)), data_(data), bytes_(bytes) {
  ucp_mem_map_params_t params{};
  params.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
  params.address = data;
  params.length = bytes;
  check(ucp_mem_map(worker_->context(), &params, &memh_), fmt::format("ucp_mem_map({} bytes at {})", bytes, data));

  void* packed = nullptr;
  std::size_t packed_size = 0;
  const ucs_status_t status = ucp_rkey_pack(worker_->context(), memh_, &packed, &packed_size);
  if (status != UCS_OK) {
    ucp_mem_unmap(worker_->context(), memh_);
    fail(fmt::format("ucp_rkey_pack({} bytes at {})", bytes, data), status);
  }
  id_ = worker_->add_region(static_cast<std::byte*>(data), bytes, memh_);
  descriptor_.address = reinterpret_cast<std::uintptr_t>(data);
  descriptor_.bytes = bytes;
  descriptor_.key.resize(sizeof id_ + packed_size);
  std::memcpy(descriptor_.key.data(), &id_, sizeof id_);
  std::memcpy(descriptor_.key.data() + sizeof id_, packed, packed_size);
  ucp_rkey_buffer_release(packed);
}

UcxLocalRegion::~UcxLocalRegion() { worker_->close_region(id_); }

UcxRemoteRegion::UcxRemoteRegion(std::shared_ptr<Worker> worker, ucp_ep_h ep, std::uint64_t peer_id,
                                 const std::string& peer_name, const RegionDescriptor& remote)
    : worker_(std::move(worker)), peer_id_(peer_id), address_(remote.address), bytes_(remote.bytes) {
  if (remote.key.size() <= sizeof region_id_) {
    throw TransportError(fmt::format("ucx: the remote key from peer {} is {} bytes, too short to be a UCX key",
                                     peer_name, remote.key.size()));
  }
  std::memcpy(&region_id_, remote.key.data(), sizeof region_id_);
  check(ucp_ep_rkey_unpack(ep, remote.key.data() + sizeof region_id_, &rkey_),
        fmt::format("ucp_ep_rkey_unpack(peer {})", peer_name));
}

UcxRemoteRegion::~UcxRemoteRegion() { ucp_rkey_destroy(rkey_); }

}  // namespace xb::ucx
