#include "backends/pageable_allocation.hpp"

#include "memory/host_buffer.hpp"

namespace xb {
namespace {

class PageableAllocation final : public Allocation {
 public:
  explicit PageableAllocation(std::size_t bytes) : buffer_(make_host_buffer(HostMemoryKind::pageable, bytes)) {}
  void* data() const override { return buffer_->data(); }
  std::size_t size() const override { return buffer_->size(); }
  MemoryPlace place() const override { return MemoryPlace::host_pageable; }

 private:
  std::unique_ptr<HostBuffer> buffer_;
};

}  // namespace

std::unique_ptr<Allocation> make_pageable_allocation(std::size_t bytes) {
  return std::make_unique<PageableAllocation>(bytes);
}

}  // namespace xb
