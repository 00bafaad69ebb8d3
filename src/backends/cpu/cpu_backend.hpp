#pragma once
// The built-in cpu backend: a "device" is a host memory arena (bound to a NUMA node where there are
// several) and a stream is a worker thread that performs copies in order. It runs every code path
// on any machine and measures real host memory bandwidth; its names say "cpu", never a GPU's.
#include <memory>

#include "backends/device.hpp"

namespace xb {

std::unique_ptr<Backend> make_cpu_backend();

}  // namespace xb
