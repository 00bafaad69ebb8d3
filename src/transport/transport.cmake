# Transport layer: addresses, the control session, the registry and the plain TCP transport.
target_sources(xferbench_lib PRIVATE
  transport/address.cpp transport/socket_ops.cpp transport/transport_registry.cpp transport/net_devices.cpp
  transport/auth.cpp transport/ticket_gate.cpp transport/token_file.cpp transport/control_messages.cpp transport/control_channel.cpp transport/session.cpp transport/pingpong.cpp
  transport/tcp/tcp_regions.cpp transport/tcp/tcp_connection.cpp transport/tcp/tcp_transport.cpp
)
target_link_libraries(xferbench_lib PUBLIC OpenSSL::Crypto)

# The TCP transport's put stream against iperf3 (bench/tcp_transport_bench.sh); built beside
# copy_bench in <build>/bench. Listed here so the transport area owns its bench.
if(XB_BUILD_BENCH)
  add_executable(tcp_transport_bench ${PROJECT_SOURCE_DIR}/bench/tcp_transport_bench.cpp)
  target_link_libraries(tcp_transport_bench PRIVATE xferbench_lib)
  set_target_properties(tcp_transport_bench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)
endif()
