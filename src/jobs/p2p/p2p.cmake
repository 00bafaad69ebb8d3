# p2p job, `xferbench p2p`, `xferbench fleet`, and the ascend-dmi dialect.
target_sources(xferbench_lib PRIVATE cli/p2p_command.cpp cli/fleet_command.cpp dialects/ascend_dmi_command.cpp)
