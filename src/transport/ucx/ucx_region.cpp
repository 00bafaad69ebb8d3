#include "transport/ucx/ucx_region.hpp"

#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "transport/ucx/ucx_status.hpp"

namespace xb::ucx {
namespace {

// Which allocator UCX used for memory it allocated, read from this process's mappings (UCX 1.13's
// ucp_mem_query does not say): "sysv" (a System V segment: /SYSV…), "posix" (a shm file or memfd),
// "heap", "mmap" (anonymous: UCX's huge/thp/mmap methods), else the mapping's path. For the
// description of endpoint memory: only sysv and posix segments are what a peer maps directly.
std::string mapping_kind(const void* address) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream fields(line);
    std::string range, perms, offset, dev, inode, path;
    fields >> range >> perms >> offset >> dev >> inode;
    std::getline(fields >> std::ws, path);
    const auto dash = range.find('-');
    if (dash == std::string::npos) continue;
    const std::uintptr_t begin = std::stoull(range.substr(0, dash), nullptr, 16);
    const std::uintptr_t end = std::stoull(range.substr(dash + 1), nullptr, 16);
    if (at < begin || at >= end) continue;
    if (path.find("SYSV") != std::string::npos) return "sysv";
    if (path.find("posix") != std::string::npos || path.rfind("/dev/shm/", 0) == 0 || path.rfind("/memfd:", 0) == 0) {
      return "posix";
    }
    if (path == "[heap]") return "heap";
    return path.empty() ? "mmap" : path;
  }
  return "memory";
}

}  // namespace

UcxLocalRegion::UcxLocalRegion(std::shared_ptr<Worker> worker, void* data, std::size_t bytes)
    : worker_(std::move(worker)), data_(data), bytes_(bytes) {
  ucp_mem_map_params_t params{};
  params.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
  params.address = data;
  params.length = bytes;
  check(ucp_mem_map(worker_->context(), &params, &memh_), fmt::format("ucp_mem_map({} bytes at {})", bytes, data));
  publish();
}

UcxLocalRegion::UcxLocalRegion(std::shared_ptr<Worker> worker, std::size_t bytes, Allocate)
    : worker_(std::move(worker)), bytes_(bytes) {
  ucp_mem_map_params_t params{};
  params.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_FLAGS;
  params.address = nullptr;
  params.length = bytes;
  params.flags = UCP_MEM_MAP_ALLOCATE;
  check(ucp_mem_map(worker_->context(), &params, &memh_),
        fmt::format("ucp_mem_map(allocate {} bytes)", bytes));
  ucp_mem_attr_t attr{};
  attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS | UCP_MEM_ATTR_FIELD_LENGTH;
  const ucs_status_t status = ucp_mem_query(memh_, &attr);
  if (status != UCS_OK || attr.length < bytes) {
    ucp_mem_unmap(worker_->context(), memh_);
    if (status != UCS_OK) fail(fmt::format("ucp_mem_query(allocated {} bytes)", bytes), status);
    throw TransportError(fmt::format("ucx: ucp_mem_map allocated {} bytes of the {} asked", attr.length, bytes));
  }
  data_ = attr.address;
  origin_ = "ucx " + mapping_kind(data_);
  publish();
}

void UcxLocalRegion::publish() {
  void* packed = nullptr;
  std::size_t packed_size = 0;
  const ucs_status_t status = ucp_rkey_pack(worker_->context(), memh_, &packed, &packed_size);
  if (status != UCS_OK) {
    ucp_mem_unmap(worker_->context(), memh_);
    fail(fmt::format("ucp_rkey_pack({} bytes at {})", bytes_, data_), status);
  }
  id_ = worker_->add_region(static_cast<std::byte*>(data_), bytes_, memh_,
                            origin_ == "ucx sysv" || origin_ == "ucx posix");
  descriptor_.address = reinterpret_cast<std::uintptr_t>(data_);
  descriptor_.bytes = bytes_;
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
