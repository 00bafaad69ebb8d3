#include <fmt/format.h>
#include <sys/mman.h>

#include "core/error.hpp"
#include "core/size.hpp"
#include "memory/kinds.hpp"

namespace xb {

std::size_t round_up(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

namespace {

std::byte* map_anonymous(std::size_t bytes, int extra_flags, HostMemoryKind kind) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | extra_flags,
                 -1, 0);
  if (p == MAP_FAILED) {
    throw_errno(fmt::format("mmap of {} {} host memory", format_bytes_human(bytes), to_string(kind)));
  }
  return static_cast<std::byte*>(p);
}

}  // namespace

MappedBuffer::MappedBuffer(HostMemoryKind kind, std::size_t bytes, int extra_flags)
    : HostBuffer(kind, nullptr, bytes), mapped_(round_up(bytes == 0 ? 1 : bytes, kHostAlignment)) {
  data_ = map_anonymous(mapped_, extra_flags, kind);
}

MappedBuffer::~MappedBuffer() { munmap(data_, mapped_); }

std::unique_ptr<HostBuffer> make_pageable_buffer(std::size_t bytes) {
  return std::make_unique<MappedBuffer>(HostMemoryKind::pageable, bytes);
}

}  // namespace xb
