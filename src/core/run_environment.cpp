#include "core/run_environment.hpp"

#include <unistd.h>

#include <algorithm>
#include <string_view>

namespace xb {
namespace {

constexpr std::string_view kPrefixes[] = {"XFERBENCH_", "UCX_"};
// Besides the prefixes: the devices a run sees, the HIXL dialect's RoCE switch, where the CANN
// runtime and every other shared library are looked for (which runtime a run measures through), and
// cuFile's compatibility switch. Not recorded: the MPI launcher's variables (OMPI_*, PMI_*, PMIX_*):
// the ranks they announce are in the result already.
constexpr std::string_view kNames[] = {"CUDA_VISIBLE_DEVICES",     "ASCEND_RT_VISIBLE_DEVICES",
                                       "ASCEND_VISIBLE_DEVICES",   "HCCL_INTRA_ROCE_ENABLE",
                                       "ASCEND_HOME_PATH",         "ASCEND_TOOLKIT_HOME",
                                       "LD_LIBRARY_PATH",          "CUFILE_FORCE_COMPAT_MODE",
                                       "CUFILE_ENV_PATH_JSON"};
// Values that must never reach a result file (a document is shared; a token opens servers).
constexpr std::string_view kSecrets[] = {"XFERBENCH_TOKEN"};

bool recorded(std::string_view name) {
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes), [&](std::string_view p) { return name.starts_with(p); }) ||
         std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> run_environment(const char* const* env) {
  std::vector<std::pair<std::string, std::string>> out;
  for (; env != nullptr && *env != nullptr; ++env) {
    const std::string_view entry(*env);
    const auto eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    const std::string_view name = entry.substr(0, eq);
    if (!recorded(name)) continue;
    const bool secret = std::find(std::begin(kSecrets), std::end(kSecrets), name) != std::end(kSecrets);
    out.emplace_back(std::string(name), secret ? std::string(kSecretNotRecorded) : std::string(entry.substr(eq + 1)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<std::string, std::string>> run_environment() { return run_environment(environ); }

}  // namespace xb
