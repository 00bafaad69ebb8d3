# The UCX transport module (libxferbench-transport-ucx.so), when UCX is found (pkg-config ucx). Loaded
# at run time (transport/transport_registry.cpp), never linked into the binary: xferbench starts
# where libucp.so.0 is missing or another UCX is installed, and only `--transport ucx` says why not.
# xferbench_ucx holds the transport's code for the module, the UCX tests and ucx_transport_bench.
# XB_HAVE_UCX tells the tests that this build has the module.
pkg_check_modules(UCX IMPORTED_TARGET ucx)
if(UCX_FOUND)
  add_library(xferbench_ucx STATIC
    transport/ucx/ucx_status.cpp transport/ucx/ucx_sockaddr.cpp transport/ucx/ucx_bootstrap.cpp transport/ucx/ucx_worker.cpp
    transport/ucx/ucx_am.cpp transport/ucx/ucx_lanes.cpp transport/ucx/ucx_region.cpp
    transport/ucx/ucx_endpoint.cpp transport/ucx/ucx_listener.cpp transport/ucx/ucx_transport.cpp
    transport/ucx/ucx_inventory.cpp)
  target_link_libraries(xferbench_ucx PUBLIC xferbench_lib PkgConfig::UCX)
  add_library(xferbench_transport_ucx MODULE transport/ucx/ucx_module_entry.cpp)
  target_link_libraries(xferbench_transport_ucx PRIVATE xferbench_ucx)
  set_target_properties(xferbench_transport_ucx PROPERTIES
    OUTPUT_NAME xferbench-transport-ucx PREFIX "lib" SUFFIX ".so"
    # <dir of the binary>/modules is one of the places modules are looked for (core/shared_module.hpp).
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/modules)
  target_compile_definitions(xferbench_lib PUBLIC XB_HAVE_UCX=1)
else()
  message(STATUS "UCX not found (pkg-config ucx): building without the UCX transport module")
endif()

# The UCX transport side by side with ucx_perftest (bench/xfer_bench.sh).
if(UCX_FOUND AND XB_BUILD_BENCH)
  add_executable(ucx_transport_bench ${PROJECT_SOURCE_DIR}/bench/ucx_transport_bench.cpp)
  target_link_libraries(ucx_transport_bench PRIVATE xferbench_ucx)
  set_target_properties(ucx_transport_bench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)
endif()
