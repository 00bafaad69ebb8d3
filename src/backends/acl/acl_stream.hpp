#pragma once
// Copy queues of an Ascend device: ACL streams and events with time stamps on the device. Engine
// "ce" queues each copy with aclrtMemcpyAsync (dev-sandbox's --sdma false) and a list handed over at
// once (copy_batch: dev-sandbox's --sdma true, with -f fragments) as aclrtMemcpyBatchAsync
// submissions; engine "batch" also holds single copies until the stream is flushed, recorded,
// waited on or synchronised, and submits them together. Either goes one by one where the runtime
// lacks batch copies or refuses them, and the stream's submission() says why.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backends/acl/acl_session.hpp"
#include "backends/device.hpp"

namespace xb::acl {

inline const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names{"ce", "batch"};
  return names;
}

// Null for an engine the backend does not have.
std::unique_ptr<Stream> make_stream(std::shared_ptr<AclDeviceContext> device, std::string_view engine);
std::unique_ptr<Event> make_event(std::shared_ptr<AclDeviceContext> device);
// Between two completed events of this backend, from the device's time stamps (aclrtEventElapsedTime
// gives milliseconds as a float: converted to microseconds).
double elapsed_us(Event& start, Event& end);

}  // namespace xb::acl
