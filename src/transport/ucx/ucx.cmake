# The UCX transport, when UCX is found (pkg-config ucx); defines XB_HAVE_UCX for the registry.
pkg_check_modules(UCX IMPORTED_TARGET ucx)
if(UCX_FOUND)
  target_sources(xferbench_lib PRIVATE
    transport/ucx/ucx_status.cpp transport/ucx/ucx_sockaddr.cpp transport/ucx/ucx_bootstrap.cpp transport/ucx/ucx_worker.cpp
    transport/ucx/ucx_am.cpp transport/ucx/ucx_lanes.cpp transport/ucx/ucx_region.cpp
    transport/ucx/ucx_endpoint.cpp transport/ucx/ucx_listener.cpp transport/ucx/ucx_transport.cpp)
  target_link_libraries(xferbench_lib PUBLIC PkgConfig::UCX)
  target_compile_definitions(xferbench_lib PUBLIC XB_HAVE_UCX=1)
else()
  message(STATUS "UCX not found (pkg-config ucx): building without the UCX transport")
endif()

# The UCX transport side by side with ucx_perftest (bench/xfer_bench.sh).
if(UCX_FOUND)
  add_executable(ucx_transport_bench ${PROJECT_SOURCE_DIR}/bench/ucx_transport_bench.cpp)
  target_link_libraries(ucx_transport_bench PRIVATE xferbench_lib)
  set_target_properties(ucx_transport_bench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)
endif()
