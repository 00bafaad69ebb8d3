// A module built against another device interface version: the registry must refuse it without
// calling create.
#include <cstdlib>

#include "backends/module_abi.hpp"

namespace {

xb::Backend* create_backend() { std::abort(); }  // never called: the version is checked first

const XbBackendModule kModule{xb::kDeviceInterfaceVersion + 1, "testbadversion", create_backend};

}  // namespace

extern "C" const XbBackendModule* xferbench_backend_module() { return &kModule; }
