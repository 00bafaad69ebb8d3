#pragma once
// The entry point a backend module (a shared library loaded at run time) exports. The registry
// dlopen()s the module, calls xferbench_backend_module(), and refuses it unless interface_version
// equals the kDeviceInterfaceVersion this binary was built with.
#include <cstdint>

#include "backends/device.hpp"

extern "C" {

struct XbBackendModule {
  std::uint32_t interface_version;
  const char* name;
  // Creates the backend; the registry owns the result and deletes it before dlclose().
  xb::Backend* (*create)();
};

// Each module defines this symbol.
const XbBackendModule* xferbench_backend_module();
}

// The symbol name, for dlsym.
inline constexpr const char* kXbBackendModuleSymbol = "xferbench_backend_module";
