#pragma once
// Endpoint memory in a device's own memory: allocated by the device, never dereferenced by the CPU.
// Internal to src/jobs/endpoint (EndpointMemory::make is the way in).
#include <memory>
#include <string>
#include <string_view>

#include "jobs/endpoint/endpoint_memory.hpp"

namespace xb {

// `engine`: the copy engine of the stream that stages fill/verify/copy_in/copy_out (the backend's
// default); `description`: "cpu::device::0".
std::unique_ptr<EndpointMemory> make_device_endpoint_memory(Device& device, std::uint64_t bytes,
                                                            std::string_view engine, std::string description);

}  // namespace xb
