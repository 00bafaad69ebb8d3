# Transport layer: addresses, the control session, the registry and the plain TCP transport.
target_sources(xferbench_lib PRIVATE)
