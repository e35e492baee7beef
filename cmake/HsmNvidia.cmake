# The NVIDIA toolchain: nvcc and the CUDA runtime, nothing from ROCm.
enable_language(CXX)
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(FATAL_ERROR "NVIDIA targets (${HSM_NVIDIA_TARGETS}) need nvcc. Pass -DCMAKE_CUDA_COMPILER=<path to nvcc> "
                      "(usually /usr/local/cuda/bin/nvcc).")
endif()
# SASS for every target, and the PTX of the newest one: on a GPU newer than all of them the driver
# compiles that PTX when the library loads, and the library takes its kernels' registers and shared
# memory from the runtime instead of its code objects (src/kernels.c).
set(nums)
foreach(t IN LISTS HSM_NVIDIA_TARGETS)
  string(REGEX REPLACE "^sm_" "" num ${t})
  list(APPEND nums ${num})
endforeach()
list(SORT nums COMPARE NATURAL)
list(GET nums -1 newest)
set(archs)
foreach(num IN LISTS nums)
  if(num STREQUAL newest)
    list(APPEND archs ${num}-real ${num}-virtual)
  else()
    list(APPEND archs ${num}-real)
  endif()
endforeach()
set(CMAKE_CUDA_ARCHITECTURES ${archs})
# One shared CUDA runtime for the library and its callers (see hsm_nvidia_kernel_flags).
set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)

function(hsm_nvidia_kernel_flags tgt sources targets)
  # Uncompressed fat binary: the library reads its own kernels' registers and shared memory from it.
  # No -O here: nvcc's -O is host-side (set by the build type); device code is always optimised by ptxas.
  set_source_files_properties(${sources} PROPERTIES LANGUAGE CUDA
    COMPILE_OPTIONS "--no-compress;-std=c++17;-Xcompiler=-Wall,-Wextra;-Werror=all-warnings")
  target_compile_definitions(${tgt} PRIVATE __HIP_PLATFORM_NVIDIA__)
  # ptxas's report of every kernel, <object>.ptxas beside each kernel object, from the library's own
  # compile (cmake/ptxas-report.cmake says why); a launcher the user set still runs, after it.
  set(launcher ${CMAKE_COMMAND} -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ptxas-report.cmake -- ${CMAKE_CUDA_COMPILER_LAUNCHER})
  set_target_properties(${tgt} PROPERTIES CUDA_COMPILER_LAUNCHER "${launcher}")
  # The shared runtime: an application, its tests and this library must share one runtime instance,
  # or kernel handles registered by the library are unknown to the application's calls. PUBLIC, so
  # that a caller links the same runtime (the installed package finds it with find_package(CUDAToolkit)).
  target_link_libraries(${tgt} PUBLIC CUDA::cudart)
endfunction()
