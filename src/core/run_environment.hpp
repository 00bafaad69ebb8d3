#pragma once
// The environment variables that change what a run does, as the run saw them. Every result
// document records them, so two runs that differ only by environment say so (a UCX_TLS, an
// XFERBENCH_CUDA_BATCH). Recorded: every XFERBENCH_* and UCX_* variable, and the device and path
// switches CUDA_VISIBLE_DEVICES, ASCEND_RT_VISIBLE_DEVICES, ASCEND_VISIBLE_DEVICES and
// HCCL_INTRA_ROCE_ENABLE. A secret (XFERBENCH_TOKEN) is recorded as set, never with its value.
#include <string>
#include <utility>
#include <vector>

namespace xb {

// What a secret's value is recorded as.
inline constexpr const char* kSecretNotRecorded = "(set; a secret, not recorded)";

// The recorded variables of `env` (a NULL-terminated "NAME=value" array, as environ), sorted by name.
std::vector<std::pair<std::string, std::string>> run_environment(const char* const* env);
// The same for this process's environment.
std::vector<std::pair<std::string, std::string>> run_environment();

}  // namespace xb
