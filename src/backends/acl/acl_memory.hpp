#pragma once
// Memory of an Ascend device process: device memory (aclrtMalloc, huge pages first), pinned host
// memory (aclrtMallocHost), pageable host memory, and existing host memory registered with the
// device (aclrtHostRegister), each released by its destructor.
#include <cstddef>
#include <memory>

#include "backends/acl/acl_session.hpp"
#include "backends/device.hpp"

namespace xb::acl {

std::unique_ptr<Allocation> allocate_device(std::shared_ptr<AclDeviceContext> device, std::size_t bytes);
std::unique_ptr<Allocation> allocate_host(std::shared_ptr<AclDeviceContext> device, std::size_t bytes, bool pinned);
// Throws Unavailable where the runtime has no aclrtHostRegister.
std::unique_ptr<Registration> register_host(std::shared_ptr<AclDeviceContext> device, void* data, std::size_t bytes);

}  // namespace xb::acl
