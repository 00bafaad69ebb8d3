#pragma once
// Device memory a transport cannot reach (device_path.hpp), exposed by a server all the same through
// a host window of its size, pinned by the device's runtime and registered with the transport; the
// stream copies the window in after the client wrote it and out before it reads (ExposedMemory::stage,
// around each pass). A client then measures the transfer and the copy with a control round trip
// between: the description says "staged" (docs/xfer.md, "Device memory on the server").
#include <cstdint>
#include <memory>

#include "backends/device.hpp"
#include "transport/session.hpp"

namespace xb {

// `device` must outlive the memory. Throws as EndpointMemory::make does, naming the place.
std::unique_ptr<ExposedMemory> make_staged_device_memory(Backend& backend, Device& device, std::uint64_t bytes);

}  // namespace xb
