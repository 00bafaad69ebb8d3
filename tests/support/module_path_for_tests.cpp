// Compiled into every test program (tests/CMakeLists.txt): code under test that opens modules in
// the test's own process (make_transport("ucx") opens the UCX transport module) looks for them
// next to the executable, and a test program is not next to the build's modules. This points
// XFERBENCH_MODULE_PATH at them before main, unless the test's environment already names a place.
// The xferbench binary a test runs finds its modules by itself (run_binary clears the variable).
#include <cstdlib>

namespace {
[[maybe_unused]] const bool kModulePathSet = [] { return setenv("XFERBENCH_MODULE_PATH", XB_BUILD_MODULE_DIR, 0) == 0; }();
}  // namespace
