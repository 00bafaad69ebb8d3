# The CUDA backend module, built when CMake finds a CUDA toolkit (nvcc) and loaded at run time: the
# xferbench binary itself never links CUDA, so it runs on machines without a GPU or driver. The
# module links the CUDA runtime statically and needs only the driver's libcuda.so.1 where it runs.
include(CheckLanguage)
include(${CMAKE_CURRENT_LIST_DIR}/cuda_toolkit_gate.cmake)
# The toolkit's default place, also when it is not on PATH.
if(NOT DEFINED ENV{CUDACXX} AND NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(ENV{CUDACXX} /usr/local/cuda/bin/nvcc)
endif()
# A toolkit older than 12.0 is skipped in one line before CMake tries it; the rest builds.
set(xb_cuda_too_old "")
if(NOT XB_NO_CUDA)
  set(xb_nvcc "${CMAKE_CUDA_COMPILER}")
  if(NOT xb_nvcc AND DEFINED ENV{CUDACXX})
    set(xb_nvcc "$ENV{CUDACXX}")
  endif()
  if(NOT xb_nvcc)
    find_program(xb_nvcc_on_path nvcc)
    if(xb_nvcc_on_path)
      set(xb_nvcc "${xb_nvcc_on_path}")
    endif()
  endif()
  if(xb_nvcc)
    xb_cuda_toolkit_gate("${xb_nvcc}" xb_cuda_release xb_cuda_too_old)
  endif()
endif()
if(xb_cuda_too_old)
  message(STATUS "xferbench: ${xb_cuda_too_old}; the CUDA backend module is not built")
else()
  check_language(CUDA)
endif()
if(CMAKE_CUDA_COMPILER AND NOT XB_NO_CUDA AND NOT xb_cuda_too_old)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    # Turing to Hopper as machine code, Hopper's PTX for anything newer (JIT-compiled there).
    set(CMAKE_CUDA_ARCHITECTURES 75-real 80-real 90)
  endif()
  set(CMAKE_CUDA_STANDARD 17)  # CMake 3.25 knows no CUDA20 for nvcc 13; the .cu needs none
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  # The host-side arithmetic and the NVLink reader (NVML through dlopen), without the CUDA runtime:
  # also compiled into tests/cuda.
  add_library(xb_cuda_plan STATIC backends/cuda/cuda_copy_plan.cpp backends/cuda/cuda_probe_format.cpp
    backends/cuda/cuda_cufile_format.cpp backends/cuda/cuda_nvlink.cpp backends/cuda/cuda_driver_version.cpp)
  target_include_directories(xb_cuda_plan PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(xb_cuda_plan PUBLIC fmt::fmt ${CMAKE_DL_LIBS})
  # Streams, memory, the gate and the kernels over the CUDA runtime: the module's parts that the GPU
  # tests (tests/cuda/cuda_gpu_tests) drive directly, compiled once for both.
  add_library(xb_cuda_runtime STATIC
    backends/cuda/cuda_error.cpp backends/cuda/cuda_memory.cpp backends/cuda/cuda_stream.cpp
    backends/cuda/cuda_batch_submitter.cpp backends/cuda/cuda_gate.cpp
    backends/cuda/cuda_sm_copy.cu backends/cuda/cuda_gate_kernel.cu)
  target_link_libraries(xb_cuda_runtime PUBLIC xb_cuda_plan xferbench_lib CUDA::cudart_static)
  add_library(xferbench_backend_cuda MODULE
    backends/cuda/cuda_backend.cpp backends/cuda/cuda_probe.cpp backends/cuda/cuda_cufile.cpp)
  target_link_libraries(xferbench_backend_cuda PRIVATE xb_cuda_runtime ${CMAKE_DL_LIBS})
  set_target_properties(xferbench_backend_cuda PROPERTIES
    OUTPUT_NAME xferbench-backend-cuda PREFIX "lib" SUFFIX ".so"
    # <dir of the binary>/modules is one of the places the registry looks (registry.hpp).
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/modules
    CUDA_SEPARABLE_COMPILATION OFF)
  # Built with the binary, so `xferbench` finds it next to itself.
  add_dependencies(xferbench xferbench_backend_cuda)
  message(STATUS "xferbench: CUDA backend module enabled (nvcc ${CMAKE_CUDA_COMPILER_VERSION})")
else()
  message(STATUS "xferbench: no CUDA toolkit found; the CUDA backend module is not built")
endif()
