# `xferbench survey` (also `xferbench` with no arguments) and `xferbench devices`.
target_sources(xferbench_lib PRIVATE cli/survey_command.cpp)
