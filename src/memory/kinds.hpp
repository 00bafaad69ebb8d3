#pragma once
// One factory per host memory kind (each in its own file); make_host_buffer() dispatches.
#include <filesystem>
#include <memory>

#include "memory/host_buffer.hpp"

namespace xb {

std::unique_ptr<HostBuffer> make_pageable_buffer(std::size_t bytes);
std::unique_ptr<HostBuffer> make_pinned_buffer(std::size_t bytes);
std::unique_ptr<HostBuffer> make_shm_buffer(std::size_t bytes);
std::unique_ptr<HostBuffer> make_odirect_buffer(std::size_t bytes, const std::filesystem::path& dir,
                                                std::uint64_t seed);
std::unique_ptr<HostBuffer> make_hugepage_buffer(std::size_t bytes);

// Anonymous private mapping, pre-faulted: the common base of pageable, pinned and odirect memory.
// mmap rather than malloc so that every kind is page-aligned and returned to the OS on free.
class MappedBuffer : public HostBuffer {
 public:
  MappedBuffer(HostMemoryKind kind, std::size_t bytes, int extra_flags = 0);
  ~MappedBuffer() override;
  MappedBuffer(const MappedBuffer&) = delete;
  MappedBuffer& operator=(const MappedBuffer&) = delete;

 private:
  std::size_t mapped_;
};

std::size_t round_up(std::size_t value, std::size_t multiple);

}  // namespace xb
