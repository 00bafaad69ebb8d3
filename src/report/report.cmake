# `xferbench report` (HTML) and `xferbench compare`.
target_sources(xferbench_lib PRIVATE cli/compare_command.cpp cli/report_command.cpp)
