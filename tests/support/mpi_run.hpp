#pragma once
// mpirun as these tests run it: as root with more ranks than cores (--allow-run-as-root
// --oversubscribe), Open MPI's own leaks at MPI_Init suppressed for LSan in the sanitizer build
// (tests/support/lsan_mpi.supp; xferbench's own leaks are still reported). Open MPI's libraries have
// no frame pointers: only the slow unwinder (fast_unwind_on_malloc=0) sees the library in an
// allocation's stack, which the suppressions match on.
#include <chrono>
#include <string>
#include <vector>

#include "run_binary.hpp"

namespace xb::test {

inline constexpr const char* kMpirun = "/usr/bin/mpirun";

// Whether Open MPI's mpirun is installed (scripts/setup.sh installs openmpi-bin).
bool have_mpirun();

// The options of any run that starts Open MPI, under mpirun or as a singleton (a binary that calls
// MPI_Init without mpirun): Open MPI's own leaks suppressed for LSan, as above.
xbtest::RunOptions mpi_options();

// Runs `mpirun --allow-run-as-root --oversubscribe ARGS…` to completion.
xbtest::RunResult run_mpirun(const std::vector<std::string>& args,
                             std::chrono::milliseconds timeout = std::chrono::minutes(2));

// Starts the same in its own process group and returns at once (a test that signals the job).
xbtest::Process start_mpirun(const std::vector<std::string>& args);

}  // namespace xb::test
