#include "runtime/mpi/mpi_runtime.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <thread>

#include "runtime/mpi/mpi_collectives.hpp"

namespace xb {
namespace {

// Waits for a nonblocking collective. MPI_Barrier and MPI_Allreduce busy-poll while they wait; a rank
// of a p2p or fleet run waits in them while its own server thread (or another rank's process, on a
// machine with fewer cores than ranks) moves the data, and a spinning waiter takes that CPU away.
// So: MPI_Test in a tight loop for the first 100 us (ranks that arrive together leave together, as
// with the blocking call), then with a 50 us sleep between tests. The waits are outside every timed
// region.
void wait_politely(MPI_Request& request, const char* call) {
  using namespace std::chrono_literals;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    int done = 0;
    check_mpi(MPI_Test(&request, &done, MPI_STATUS_IGNORE), call);
    if (done != 0) return;
    if (std::chrono::steady_clock::now() - start > 100us) std::this_thread::sleep_for(50us);
  }
}

int checked_length(std::size_t n) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::length_error(fmt::format("an MPI message of {} bytes is beyond MPI's int counts", n));
  }
  return static_cast<int>(n);
}

// Where each rank's bytes start in a gathered buffer (MPI's displacements), and its size.
struct GatherLayout {
  std::vector<int> offsets;
  std::size_t total = 0;
};

GatherLayout layout_of(const std::vector<int>& lengths) {
  GatherLayout g;
  g.offsets.resize(lengths.size());
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    g.offsets[r] = checked_length(g.total);
    g.total += static_cast<std::size_t>(lengths[r]);
  }
  return g;
}

// A gathered buffer cut back into each rank's string.
std::vector<std::string> split_by(const std::string& all, const std::vector<int>& offsets,
                                  const std::vector<int>& lengths) {
  std::vector<std::string> out;
  out.reserve(lengths.size());
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
  }
  return out;
}

}  // namespace

void check_mpi(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(rc, text, &length);
  throw std::runtime_error(fmt::format("{} failed: {}", call, std::string(text, static_cast<std::size_t>(length))));
}

MpiRuntime::MpiRuntime(MpiThreads threads) {
  int provided = 0;
  check_mpi(MPI_Init_thread(nullptr, nullptr, threads == MpiThreads::single ? MPI_THREAD_SINGLE : MPI_THREAD_FUNNELED,
                            &provided),
            "MPI_Init_thread");
  // Errors come back as codes (and become exceptions with their text) instead of aborting inside MPI.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
}

MpiRuntime::~MpiRuntime() { MPI_Finalize(); }

void MpiRuntime::abort(int code) noexcept {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; should it, this process still ends
}

std::unique_ptr<CollectiveGroup> MpiRuntime::collective_group(const GroupLayout& layout, HostAllocation allocation) {
  return std::make_unique<MpiCollectiveGroup>(layout, allocation);
}

void MpiRuntime::barrier() {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
  wait_politely(request, "MPI_Ibarrier");
}

std::vector<std::string> allgather_strings(MPI_Comm comm, const std::string& mine) {
  int length = checked_length(mine.size());
  int size = 0;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  std::vector<int> lengths(static_cast<std::size_t>(size));
  check_mpi(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm), "MPI_Allgather");
  const GatherLayout layout = layout_of(lengths);
  std::string all(layout.total, '\0');
  check_mpi(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), layout.offsets.data(), MPI_CHAR,
                           comm),
            "MPI_Allgatherv");
  return split_by(all, layout.offsets, lengths);
}

std::vector<std::string> MpiRuntime::allgather(const std::string& mine) {
  return allgather_strings(MPI_COMM_WORLD, mine);
}

std::vector<std::string> MpiRuntime::gather(const std::string& mine, int root) {
  int length = checked_length(mine.size());
  std::vector<int> lengths(rank_ == root ? static_cast<std::size_t>(size_) : 0);
  check_mpi(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Gather");
  const GatherLayout layout = layout_of(lengths);
  std::string all(layout.total, '\0');
  check_mpi(MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), layout.offsets.data(), MPI_CHAR, root,
                    MPI_COMM_WORLD),
        "MPI_Gatherv");
  return split_by(all, layout.offsets, lengths);
}

std::string MpiRuntime::broadcast(const std::string& text, int root) {
  int length = rank_ == root ? checked_length(text.size()) : 0;
  check_mpi(MPI_Bcast(&length, 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Bcast");
  std::string out = rank_ == root ? text : std::string(static_cast<std::size_t>(length), '\0');
  check_mpi(MPI_Bcast(out.data(), length, MPI_CHAR, root, MPI_COMM_WORLD), "MPI_Bcast");
  return out;
}

double MpiRuntime::max(double mine) {
  double out = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Iallreduce(&mine, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &request), "MPI_Iallreduce");
  wait_politely(request, "MPI_Iallreduce");
  return out;
}

std::string MpiRuntime::node() const {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, static_cast<std::size_t>(length));
}

}  // namespace xb
