#pragma once
// Pageable host memory as a device's Allocation: the same plain host memory on every backend
// (memory/host_buffer), whatever runtime the device has.
#include <cstddef>
#include <memory>

#include "backends/device.hpp"

namespace xb {

std::unique_ptr<Allocation> make_pageable_allocation(std::size_t bytes);

}  // namespace xb
