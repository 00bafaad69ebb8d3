# Judgement: theoretical ceilings computed from the topology (PCIe links up to the root
# port, NIC ports, a disk's controller and SATA link); expectations in layers (built-in defaults
# and the SKU file compiled in from their YAML, a site file, command-line rules); later the
# verdicts that compare figures to them.
find_package(yaml-cpp REQUIRED)  # expectation files: YAML or JSON, with each node's line for errors
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/judge/builtin_expectations.yaml XB_BUILTIN_EXPECTATIONS)
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/judge/sku_expectations.yaml XB_SKU_EXPECTATIONS)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/judge/builtin_expectations.yaml ${CMAKE_CURRENT_SOURCE_DIR}/judge/sku_expectations.yaml)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/judge/embedded_expectations.cpp.in
  ${CMAKE_CURRENT_BINARY_DIR}/judge/embedded_expectations.cpp @ONLY)
target_sources(xferbench_lib PRIVATE
  judge/ceiling.cpp judge/pcie_rate.cpp judge/pcie_path.cpp judge/nic_ceiling.cpp judge/storage_ceiling.cpp
  judge/expectations.cpp ${CMAKE_CURRENT_BINARY_DIR}/judge/embedded_expectations.cpp
  judge/verdict.cpp judge/copy_figure.cpp judge/storage_figure.cpp
  judge/route_devices.cpp judge/network_figure.cpp judge/p2p_figure.cpp
  judge/case_figure.cpp judge/fleet_floor.cpp judge/memory_ceiling.cpp judge/coll_figure.cpp
  judge/peer_link_ceiling.cpp)
target_link_libraries(xferbench_lib PUBLIC yaml-cpp)
