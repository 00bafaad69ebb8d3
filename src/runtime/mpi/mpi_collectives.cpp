#include "runtime/mpi/mpi_collectives.hpp"

#include <fmt/format.h>
#include <mpi.h>
#include <sys/mman.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "memory/kinds.hpp"
#include "runtime/mpi/mpi_runtime.hpp"

namespace xb {
namespace {

MPI_Datatype mpi_type(ElementType t) {
  switch (t) {
    case ElementType::int8: return MPI_INT8_T;
    case ElementType::int16: return MPI_INT16_T;
    case ElementType::int32: return MPI_INT32_T;
    case ElementType::int64: return MPI_INT64_T;
    case ElementType::float32: return MPI_FLOAT;
    case ElementType::float64: return MPI_DOUBLE;
  }
  return MPI_BYTE;
}

// Calls `f` with a typed pointer of the element type: the one place the element types become C++ types.
template <typename F>
decltype(auto) with_type(ElementType t, std::byte* data, F&& f) {
  switch (t) {
    case ElementType::int8: return f(reinterpret_cast<std::int8_t*>(data));
    case ElementType::int16: return f(reinterpret_cast<std::int16_t*>(data));
    case ElementType::int32: return f(reinterpret_cast<std::int32_t*>(data));
    case ElementType::int64: return f(reinterpret_cast<std::int64_t*>(data));
    case ElementType::float32: return f(reinterpret_cast<float*>(data));
    case ElementType::float64: return f(reinterpret_cast<double*>(data));
  }
  throw std::logic_error("an element type without a C++ type");
}

void fill(ElementType t, std::byte* data, std::size_t count, long value) {
  with_type(t, data, [&](auto* p) {
    using T = std::remove_pointer_t<decltype(p)>;
    for (std::size_t i = 0; i < count; ++i) p[i] = static_cast<T>(value);
  });
}

// The first element of `count` that is not `value` (as the element type holds it), or count.
std::size_t first_other(ElementType t, std::byte* data, std::size_t count, long value) {
  return with_type(t, data, [&](auto* p) {
    using T = std::remove_pointer_t<decltype(p)>;
    const T expected = static_cast<T>(value);
    for (std::size_t i = 0; i < count; ++i) {
      if (!(p[i] == expected)) return i;
    }
    return count;
  });
}

int checked_count(std::size_t count, Collective op) {
  if (count > static_cast<std::size_t>(INT_MAX)) {
    throw std::length_error(fmt::format("{} of {} elements: beyond MPI's int counts", to_string(op), count));
  }
  return static_cast<int>(count);
}

// This rank's index among the ranks of its node (MPI_Comm_split_type, shared memory).
int node_local_rank() {
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)");
  int rank = 0;
  const int rc = MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  check_mpi(rc, "MPI_Comm_rank(node)");
  return rank;
}

MPI_Comm make_communicator(const GroupLayout& layout) {
  int rank = 0, size = 1;
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
  MPI_Comm comm = MPI_COMM_NULL;
  using K = GroupLayout::Kind;
  const auto split = [&](int colour, int key, const char* what) {
    check_mpi(MPI_Comm_split(MPI_COMM_WORLD, colour, key, &comm), what);
  };
  switch (layout.kind) {
    case K::world: return MPI_COMM_WORLD;
    case K::world_dup: check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &comm), "MPI_Comm_dup"); break;
    case K::world_rev: split(0, size - rank, "MPI_Comm_split(world-rev)"); break;
    case K::split: split(rank % layout.parts, rank, "MPI_Comm_split(split)"); break;
    case K::split_rev: split(rank % layout.parts, size - rank, "MPI_Comm_split(split-rev)"); break;
    case K::half: split(rank < size / 2 ? 1 : 0, rank, "MPI_Comm_split(half)"); break;
    case K::ppn_comm:
    case K::ppn_jobs: split(node_local_rank(), rank, "MPI_Comm_split(ppn)"); break;
  }
  check_mpi(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  return comm;
}

}  // namespace

struct MpiCollectiveGroup::State {
  MPI_Comm comm = MPI_COMM_NULL;
  HostAllocation allocation = HostAllocation::malloc;
  CollectiveShape shape;
  std::unique_ptr<HostBuffer> send, recv;
  std::vector<MPI_Request> requests;

  std::size_t block_bytes() const { return shape.count * element_size(shape.type); }

  // A buffer of at least `bytes` (reused when the one held is large enough).
  void ensure(std::unique_ptr<HostBuffer>& buffer, std::size_t bytes) const {
    if (buffer && buffer->size() >= bytes) return;
    buffer.reset();  // the old one goes first: the two never need to fit at once
    const std::size_t n = bytes == 0 ? 1 : bytes;
    if (allocation == HostAllocation::hugetlb) {
      buffer = make_host_buffer(HostMemoryKind::hugepage, n);
    } else {
      buffer = make_host_buffer(HostMemoryKind::pageable, n);
      // Transparent huge pages asked for the range; khugepaged backs it with huge pages as it can.
      if (allocation == HostAllocation::hugethp) (void)madvise(buffer->data(), buffer->size(), MADV_HUGEPAGE);
    }
  }
};

MpiCollectiveGroup::MpiCollectiveGroup(const GroupLayout& layout, HostAllocation allocation)
    : state_(std::make_unique<State>()) {
  state_->comm = make_communicator(layout);
  state_->allocation = allocation;
  check_mpi(MPI_Comm_rank(state_->comm, &rank_), "MPI_Comm_rank(group)");
  check_mpi(MPI_Comm_size(state_->comm, &size_), "MPI_Comm_size(group)");
}

MpiCollectiveGroup::~MpiCollectiveGroup() {
  if (state_->comm != MPI_COMM_WORLD && state_->comm != MPI_COMM_NULL) MPI_Comm_free(&state_->comm);
}

void MpiCollectiveGroup::prepare(const CollectiveShape& shape) {
  State& s = *state_;
  s.shape = shape;
  const std::size_t block = s.block_bytes();
  const auto n = static_cast<std::size_t>(size_);
  const std::size_t k = shape.outstanding == 0 ? 1 : shape.outstanding;
  std::size_t send = block, recv = block;
  switch (shape.op) {
    case Collective::iallreduce: send = recv = k * block; break;
    case Collective::reduce_scatter: send = n * block; break;
    case Collective::allgather: recv = n * block; break;
    case Collective::barrier: send = recv = 0; break;
    default: break;
  }
  checked_count(send / element_size(shape.type), shape.op);
  checked_count(recv / element_size(shape.type), shape.op);
  s.ensure(s.send, send);
  s.ensure(s.recv, recv);
  s.requests.assign(shape.op == Collective::iallreduce ? k : 0, MPI_REQUEST_NULL);
  const std::size_t elements = send / element_size(shape.type);
  switch (shape.op) {
    case Collective::bcast: fill(shape.type, s.send->data(), elements, rank_ == shape.root ? shape.root + 1 : 0); break;
    case Collective::allgather: fill(shape.type, s.send->data(), elements, rank_ + 1); break;
    default: fill(shape.type, s.send->data(), elements, 1); break;
  }
}

void MpiCollectiveGroup::run_once() {
  State& s = *state_;
  const CollectiveShape& sh = s.shape;
  const MPI_Datatype type = mpi_type(sh.type);
  const int count = checked_count(sh.count, sh.op);
  std::byte* send = s.send->data();
  std::byte* recv = s.recv->data();
  switch (sh.op) {
    case Collective::allreduce:
      check_mpi(MPI_Allreduce(send, recv, count, type, MPI_SUM, s.comm), "MPI_Allreduce");
      break;
    case Collective::iallreduce: {
      const std::size_t block = s.block_bytes();
      for (std::size_t i = 0; i < s.requests.size(); ++i) {
        check_mpi(MPI_Iallreduce(send + i * block, recv + i * block, count, type, MPI_SUM, s.comm, &s.requests[i]),
                  "MPI_Iallreduce");
      }
      check_mpi(MPI_Waitall(static_cast<int>(s.requests.size()), s.requests.data(), MPI_STATUSES_IGNORE),
                "MPI_Waitall(MPI_Iallreduce)");
      break;
    }
    case Collective::reduce:
      check_mpi(MPI_Reduce(send, recv, count, type, MPI_SUM, sh.root, s.comm), "MPI_Reduce");
      break;
    case Collective::barrier: check_mpi(MPI_Barrier(s.comm), "MPI_Barrier"); break;
    case Collective::bcast: check_mpi(MPI_Bcast(send, count, type, sh.root, s.comm), "MPI_Bcast"); break;
    case Collective::reduce_scatter:
      check_mpi(MPI_Reduce_scatter_block(send, recv, count, type, MPI_SUM, s.comm), "MPI_Reduce_scatter_block");
      break;
    case Collective::allgather:
      check_mpi(MPI_Allgather(send, count, type, recv, count, type, s.comm), "MPI_Allgather");
      break;
  }
}

void MpiCollectiveGroup::barrier() {
  State& s = *state_;
  if (s.shape.op == Collective::iallreduce) {
    MPI_Request request = MPI_REQUEST_NULL;
    check_mpi(MPI_Ibarrier(s.comm, &request), "MPI_Ibarrier");
    check_mpi(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait(MPI_Ibarrier)");
    return;
  }
  check_mpi(MPI_Barrier(s.comm), "MPI_Barrier");
}

std::string MpiCollectiveGroup::check() {
  State& s = *state_;
  const CollectiveShape& sh = s.shape;
  if (sh.op == Collective::barrier) return {};
  const std::size_t count = sh.count;
  const std::size_t k = s.requests.empty() ? 1 : s.requests.size();
  const auto n = static_cast<std::size_t>(size_);
  // What this rank must hold afterwards, block by block: (first byte of the block, value).
  std::vector<std::pair<std::byte*, long>> expected;
  switch (sh.op) {
    case Collective::allreduce:
    case Collective::iallreduce:
      for (std::size_t i = 0; i < k; ++i) expected.emplace_back(s.recv->data() + i * s.block_bytes(), size_);
      break;
    case Collective::reduce:
      if (rank_ == sh.root) expected.emplace_back(s.recv->data(), size_);
      break;
    case Collective::bcast:
      expected.emplace_back(s.send->data(), sh.root + 1);
      break;
    case Collective::reduce_scatter: expected.emplace_back(s.recv->data(), size_); break;
    case Collective::allgather:
      for (std::size_t r = 0; r < n; ++r) expected.emplace_back(s.recv->data() + r * s.block_bytes(), static_cast<long>(r) + 1);
      break;
    case Collective::barrier: break;
  }
  // Cleared first, so the values seen were written by this run.
  if (sh.op == Collective::bcast) {
    if (rank_ != sh.root) fill(sh.type, s.send->data(), count, 0);
  } else {
    std::memset(s.recv->data(), 0, s.recv->size());
  }
  run_once();
  std::string wrong;
  for (std::size_t b = 0; b < expected.size(); ++b) {
    const auto& [data, value] = expected[b];
    const std::size_t at = first_other(sh.type, data, count, value);
    if (at < count && wrong.empty()) {
      wrong = fmt::format("{} of {} {} elements: block {} element {} is not {} at rank {} of the group",
                          to_string(sh.op), count, to_string(sh.type), b, at, value, rank_);
    }
  }
  return wrong;
}

std::vector<std::string> MpiCollectiveGroup::allgather(const std::string& mine) {
  return allgather_strings(state_->comm, mine);
}

double MpiCollectiveGroup::sum(double mine) {
  double out = 0;
  check_mpi(MPI_Allreduce(&mine, &out, 1, MPI_DOUBLE, MPI_SUM, state_->comm), "MPI_Allreduce(MPI_SUM)");
  return out;
}

double MpiCollectiveGroup::min(double mine) {
  double out = 0;
  check_mpi(MPI_Allreduce(&mine, &out, 1, MPI_DOUBLE, MPI_MIN, state_->comm), "MPI_Allreduce(MPI_MIN)");
  return out;
}

double MpiCollectiveGroup::max(double mine) {
  double out = 0;
  check_mpi(MPI_Allreduce(&mine, &out, 1, MPI_DOUBLE, MPI_MAX, state_->comm), "MPI_Allreduce(MPI_MAX)");
  return out;
}

}  // namespace xb
