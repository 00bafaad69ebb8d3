#include "runtime/collectives.hpp"

#include <array>
#include <utility>

namespace xb {
namespace {

constexpr std::array<std::pair<Collective, std::string_view>, 7> kCollectiveNames{{
    {Collective::allreduce, "allreduce"},
    {Collective::iallreduce, "iallreduce"},
    {Collective::reduce, "reduce"},
    {Collective::barrier, "barrier"},
    {Collective::bcast, "bcast"},
    {Collective::reduce_scatter, "reduce_scatter"},
    {Collective::allgather, "allgather"},
}};

}  // namespace

std::string_view to_string(Collective c) {
  for (const auto& [value, name] : kCollectiveNames) {
    if (value == c) return name;
  }
  return "?";
}

std::optional<Collective> collective_from(std::string_view name) {
  for (const auto& [value, n] : kCollectiveNames) {
    if (n == name) return value;
  }
  return std::nullopt;
}

std::string_view to_string(ElementType t) {
  switch (t) {
    case ElementType::int8: return "int8";
    case ElementType::int16: return "int16";
    case ElementType::int32: return "int32";
    case ElementType::int64: return "int64";
    case ElementType::float32: return "float32";
    case ElementType::float64: return "float64";
  }
  return "?";
}

std::size_t element_size(ElementType t) {
  switch (t) {
    case ElementType::int8: return 1;
    case ElementType::int16: return 2;
    case ElementType::int32:
    case ElementType::float32: return 4;
    case ElementType::int64:
    case ElementType::float64: return 8;
  }
  return 1;
}

std::string_view to_string(HostAllocation a) {
  switch (a) {
    case HostAllocation::malloc: return "malloc";
    case HostAllocation::hugetlb: return "hugetlb";
    case HostAllocation::hugethp: return "hugethp";
  }
  return "?";
}

}  // namespace xb
