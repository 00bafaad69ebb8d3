// A module built against another device interface version: the registry must refuse it without
// calling create.
#include <cstdlib>

#include "backends/module_abi.hpp"

namespace {

xb::Backend* create_backend() { std::abort(); }  // never called: the version is checked first

const XbBackendOps kOps{create_backend};
const XbModule kModule{xb::kModuleInterfaceVersion + 1, kXbBackendKind, "testbadversion", &kOps};

}  // namespace

extern "C" const XbModule* xferbench_module() { return &kModule; }
