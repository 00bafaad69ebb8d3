#pragma once
// Device memory a transport cannot reach (an NPU's or a GPU's over TCP, or wherever the transport
// has no memory domain for it: device_path.hpp), exposed by a server all the same: through a host
// window of the same size, pinned by the device's runtime and registered with the transport. The
// device's stream copies the window into the device memory after the client wrote it, and out of
// it before the client reads (ExposedMemory::stage, on the client's word around each pass). What a
// client measures is then the transfer and the server's copy one after the other, with a control
// round trip between: the server's description says "staged", and the client's result says how
// (docs/xfer.md, "Device memory on the server").
#include <cstdint>
#include <memory>

#include "backends/device.hpp"
#include "transport/session.hpp"

namespace xb {

// `device` must outlive the memory. Throws as EndpointMemory::make does, naming the place.
std::unique_ptr<ExposedMemory> make_staged_device_memory(Backend& backend, Device& device, std::uint64_t bytes);

}  // namespace xb
