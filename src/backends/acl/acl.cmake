# The Ascend backend module, built on every machine: it declares the ACL API it calls
# (acl_api.hpp) and opens CANN's libascendcl.so at run time, so neither building nor running
# xferbench needs CANN. tests/acl builds a stand-in runtime to test it against.
# Finding and opening the library and the probe, also compiled into tests/acl.
add_library(xb_acl_probe STATIC backends/acl/acl_library.cpp backends/acl/acl_error.cpp backends/acl/acl_probe.cpp)
set_target_properties(xb_acl_probe PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_link_libraries(xb_acl_probe PUBLIC xferbench_lib ${CMAKE_DL_LIBS})
add_library(xferbench_backend_acl MODULE
  backends/acl/acl_backend.cpp backends/acl/acl_session.cpp backends/acl/acl_memory.cpp
  backends/acl/acl_stream.cpp)
target_link_libraries(xferbench_backend_acl PRIVATE xb_acl_probe xferbench_lib ${CMAKE_DL_LIBS})
set_target_properties(xferbench_backend_acl PROPERTIES
  OUTPUT_NAME xferbench-backend-acl PREFIX "lib" SUFFIX ".so"
  # <dir of the binary>/modules is one of the places the registry looks (registry.hpp).
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/modules)
add_dependencies(xferbench xferbench_backend_acl)
