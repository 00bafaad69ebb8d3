#include "support/mpi_run.hpp"

#include <cstdlib>
#include <filesystem>

namespace xb::test {

bool have_mpirun() { return std::filesystem::exists(kMpirun); }

namespace {

std::vector<std::string> mpirun_args(const std::vector<std::string>& args) {
  std::vector<std::string> a = {"--allow-run-as-root", "--oversubscribe"};
  a.insert(a.end(), args.begin(), args.end());
  return a;
}

}  // namespace

xbtest::RunOptions mpi_options() {
  xbtest::RunOptions o = xbtest::default_options();
  const char* lsan = std::getenv("LSAN_OPTIONS");
  o.env.push_back(std::string("LSAN_OPTIONS=") + (lsan ? std::string(lsan) + ":" : "") +
                  "suppressions=" XB_LSAN_MPI_SUPP ":fast_unwind_on_malloc=0");
  return o;
}

xbtest::RunResult run_mpirun(const std::vector<std::string>& args, std::chrono::milliseconds timeout) {
  xbtest::RunOptions o = mpi_options();
  o.timeout = timeout;
  return xbtest::run_binary(kMpirun, mpirun_args(args), o);
}

xbtest::Process start_mpirun(const std::vector<std::string>& args) {
  return xbtest::start_binary(kMpirun, mpirun_args(args), mpi_options());
}

}  // namespace xb::test
