#include "core/version.hpp"
namespace xb {
const char* program_version() { return XB_VERSION; }
}  // namespace xb
