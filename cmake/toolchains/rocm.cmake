# Toolchain of a ROCm installation (the rocm preset): ROCm's own clang for C, C++ and HIP; the HIP
# runtime, its headers and the device libraries come from the same prefix (cmake/HsmAmd.cmake).
# The prefix: -DHIPSOFTMAX_ROCM_PATH=<prefix>, else $ROCM_PATH, else /opt/rocm.
if(NOT HIPSOFTMAX_ROCM_PATH)
  if(NOT "$ENV{ROCM_PATH}" STREQUAL "")
    set(hsm_rocm_default "$ENV{ROCM_PATH}")
  else()
    set(hsm_rocm_default /opt/rocm)
  endif()
  set(HIPSOFTMAX_ROCM_PATH "${hsm_rocm_default}" CACHE PATH "Prefix of the ROCm installation (llvm/bin/clang++, include/hip, lib)")
endif()
# try_compile projects read this file again, without the cache: give them the same prefix.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES HIPSOFTMAX_ROCM_PATH)
if(NOT EXISTS "${HIPSOFTMAX_ROCM_PATH}/llvm/bin/clang++" OR NOT EXISTS "${HIPSOFTMAX_ROCM_PATH}/llvm/bin/clang")
  message(FATAL_ERROR "No ROCm clang at ${HIPSOFTMAX_ROCM_PATH}/llvm/bin/clang++: set ROCM_PATH to the ROCm "
                      "installation (default /opt/rocm), or pass -DHIPSOFTMAX_ROCM_PATH=<its prefix>.")
endif()
set(CMAKE_C_COMPILER "${HIPSOFTMAX_ROCM_PATH}/llvm/bin/clang")
set(CMAKE_CXX_COMPILER "${HIPSOFTMAX_ROCM_PATH}/llvm/bin/clang++")
