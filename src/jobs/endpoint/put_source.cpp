#include "jobs/endpoint/put_source.hpp"

#include "jobs/endpoint/device_path.hpp"

namespace xb {

PutSource::PutSource(Backend& backend, int device, std::uint64_t bytes, const std::string& transport)
    : transport_(make_transport(transport)) {
  require_registrable_device_memory(backend, *transport_);
  device_ = backend.open_device(device);
  memory_ = EndpointMemory::make(backend, *device_, RegionPlace::device, bytes, *transport_);
  local_ = &transport_registration(*memory_, *transport_, own_registration_);
}

PutSource::~PutSource() = default;

}  // namespace xb
