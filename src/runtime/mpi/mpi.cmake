# The MPI runtime module (libxferbench-runtime-mpi.so): MPI_COMM_WORLD as a Runtime and the MPI
# collectives of the coll job. Loaded at run time (runtime/mpi_library.cpp), never linked into the
# binary: xferbench starts where there is no libmpi.so.40, and only the commands that need MPI say
# it is missing. Built against Debian's Open MPI (libopenmpi-dev: scripts/setup.sh); a cluster with
# another MPI rebuilds this one module against it.
# The project's language is C++ only: MPI's CXX component, its deprecated C++ bindings left out.
set(MPI_CXX_SKIP_MPICXX ON)
find_package(MPI REQUIRED COMPONENTS CXX)
add_library(xferbench_runtime_mpi MODULE
  runtime/mpi/mpi_runtime.cpp runtime/mpi/mpi_collectives.cpp runtime/mpi/mpi_module_entry.cpp)
target_link_libraries(xferbench_runtime_mpi PRIVATE xferbench_lib MPI::MPI_CXX)
set_target_properties(xferbench_runtime_mpi PROPERTIES
  OUTPUT_NAME xferbench-runtime-mpi PREFIX "lib" SUFFIX ".so"
  # <dir of the binary>/modules is one of the places modules are looked for (core/shared_module.hpp).
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/modules)
# Built with the binary, so `xferbench` finds it next to itself.
add_dependencies(xferbench xferbench_runtime_mpi)
