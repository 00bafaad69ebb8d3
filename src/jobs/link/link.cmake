# link job, `xferbench link`, and the sharp_coll_test dialect.
target_sources(xferbench_lib PRIVATE cli/link_command.cpp dialects/sharp_coll_test_command.cpp)
