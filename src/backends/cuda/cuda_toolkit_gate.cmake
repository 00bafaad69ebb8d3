# Whether the toolkit of `nvcc` can build the CUDA module: CUDA 12.0 or newer (the module's runtime
# calls and the batch API's version guards cover 12.0 to 13.x). Sets `version_var` to its release
# ("12.4", "" when nvcc does not say) and `why_var` to why it cannot ("" when it can, or when the
# release is unknown and CMake's own CUDA check is left to decide).
function(xb_cuda_toolkit_gate nvcc version_var why_var)
  execute_process(COMMAND "${nvcc}" --version OUTPUT_VARIABLE out ERROR_QUIET RESULT_VARIABLE rc)
  set(release "")
  if(rc EQUAL 0 AND out MATCHES "release ([0-9]+\\.[0-9]+)")
    set(release "${CMAKE_MATCH_1}")
  endif()
  set(why "")
  if(NOT release STREQUAL "" AND release VERSION_LESS 12.0)
    set(why "CUDA toolkit ${release} (${nvcc}) is older than 12.0, the oldest the CUDA backend module builds with")
  endif()
  set(${version_var} "${release}" PARENT_SCOPE)
  set(${why_var} "${why}" PARENT_SCOPE)
endfunction()
