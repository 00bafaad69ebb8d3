#pragma once
// A backend module's operations: what its entry (core/module_entry.hpp, kind "backend") points at.
// The registry opens every libxferbench-backend-*.so it finds and makes the backend with `create`.
#include "backends/device.hpp"
#include "core/module_entry.hpp"

extern "C" {

struct XbBackendOps {
  // Creates the backend; the registry owns the result and deletes it before the module closes.
  xb::Backend* (*create)();
};
}

inline constexpr const char* kXbBackendKind = "backend";
