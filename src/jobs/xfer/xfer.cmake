# xfer job, `xferbench xfer`, and the HIXL dialect.
target_sources(xferbench_lib PRIVATE cli/xfer_command.cpp dialects/hixl_command.cpp)
