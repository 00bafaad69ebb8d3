#include "memory/host_buffer.hpp"

#include <array>

#include "memory/kinds.hpp"

namespace xb {
namespace {

constexpr std::array<std::pair<HostMemoryKind, std::string_view>, 5> kNames{{
    {HostMemoryKind::pageable, "pageable"},
    {HostMemoryKind::pinned, "pinned"},
    {HostMemoryKind::shm, "shm"},
    {HostMemoryKind::odirect, "odirect"},
    {HostMemoryKind::hugepage, "hugepage"},
}};

}  // namespace

std::string_view to_string(HostMemoryKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<HostMemoryKind> host_memory_kind_from(std::string_view name) {
  for (const auto& [k, n] : kNames) {
    if (n == name) return k;
  }
  return std::nullopt;
}

std::vector<std::string> host_memory_kind_names() {
  std::vector<std::string> out;
  for (const auto& [k, n] : kNames) out.emplace_back(n);
  return out;
}

std::unique_ptr<HostBuffer> make_host_buffer(HostMemoryKind kind, std::size_t bytes,
                                             const HostBufferOptions& options) {
  switch (kind) {
    case HostMemoryKind::pageable: return make_pageable_buffer(bytes);
    case HostMemoryKind::pinned: return make_pinned_buffer(bytes);
    case HostMemoryKind::shm: return make_shm_buffer(bytes);
    case HostMemoryKind::odirect: return make_odirect_buffer(bytes, options.odirect_dir, options.odirect_seed);
    case HostMemoryKind::hugepage: return make_hugepage_buffer(bytes);
  }
  return nullptr;
}

}  // namespace xb
