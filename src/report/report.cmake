# `xferbench report` (HTML) and `xferbench compare`.
target_sources(xferbench_lib PRIVATE cli/compare_command.cpp cli/report_command.cpp
  report/result_files.cpp report/html_escape.cpp
  report/plot_axis.cpp report/svg_plot.cpp report/report_model.cpp report/html_report.cpp
  report/compare.cpp report/compare_render.cpp)
