# The AMD toolchain: clang's HIP compiler (clang++ 17 or newer, for gfx942), the ROCm HIP runtime
# (libamdhip64 and its headers) and the AMD device bitcode libraries. scripts/install-amd-deps.sh
# installs Debian's packages of all three.

enable_language(CXX)
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 17)
  message(FATAL_ERROR "AMD targets (${HSM_AMD_TARGETS}) need clang++ 17 or newer as the C++ compiler "
                      "(found ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}). Pass "
                      "-DCMAKE_CXX_COMPILER=clang++-19, or use a gfx* preset.")
endif()

set(HIPSOFTMAX_ROCM_PATH "/usr" CACHE PATH "Prefix of the ROCm HIP runtime (headers in include/hip)")
find_path(HSM_HIP_INCLUDE_DIR hip/hip_runtime_api.h HINTS ${HIPSOFTMAX_ROCM_PATH}/include /opt/rocm/include)
find_library(HSM_AMDHIP64 NAMES amdhip64 HINTS ${HIPSOFTMAX_ROCM_PATH}/lib ${HIPSOFTMAX_ROCM_PATH}/lib/x86_64-linux-gnu
             /opt/rocm/lib)
find_path(HIPSOFTMAX_ROCM_DEVICE_LIB_PATH ocml.bc
          HINTS /usr/lib/x86_64-linux-gnu/amdgcn/bitcode ${HIPSOFTMAX_ROCM_PATH}/amdgcn/bitcode
                /opt/rocm/amdgcn/bitcode
          DOC "Folder of the AMD device bitcode libraries (ocml.bc, oclc_isa_version_*.bc)")
if(NOT HSM_HIP_INCLUDE_DIR OR NOT HSM_AMDHIP64 OR NOT HIPSOFTMAX_ROCM_DEVICE_LIB_PATH)
  message(FATAL_ERROR "AMD targets need the ROCm HIP runtime and device libraries "
                      "(headers: '${HSM_HIP_INCLUDE_DIR}', libamdhip64: '${HSM_AMDHIP64}', "
                      "device bitcode: '${HIPSOFTMAX_ROCM_DEVICE_LIB_PATH}'). Run scripts/install-amd-deps.sh, "
                      "or pass -DHIPSOFTMAX_ROCM_PATH=<prefix> and -DHIPSOFTMAX_ROCM_DEVICE_LIB_PATH=<folder>.")
endif()

# Debian's device libraries (ROCm 5.2) predate gfx942 and lack its ISA-version bitcode. clang only
# needs that file to say "9.4.2", so the build makes one and puts it in a folder beside links to
# all the others.
function(hsm_amd_device_libs out)
  set(src ${HIPSOFTMAX_ROCM_DEVICE_LIB_PATH})
  set(missing)
  foreach(t IN LISTS HSM_AMD_TARGETS)
    string(REGEX REPLACE "^gfx" "" num ${t})
    if(NOT EXISTS ${src}/oclc_isa_version_${num}.bc)
      list(APPEND missing ${num})
    endif()
  endforeach()
  if(NOT missing)
    set(${out} ${src} PARENT_SCOPE)
    return()
  endif()
  find_program(HSM_LLVM_AS NAMES llvm-as-19 llvm-as-18 llvm-as-17 llvm-as
               HINTS ${CMAKE_CXX_COMPILER_AR}/.. DOC "llvm-as matching clang, to make missing ISA bitcode")
  if(NOT HSM_LLVM_AS)
    message(FATAL_ERROR "The device libraries lack ISA bitcode for gfx${missing}; making it needs llvm-as "
                        "(Debian: llvm-19). Pass -DHSM_LLVM_AS=<path>.")
  endif()
  set(dir ${CMAKE_BINARY_DIR}/amdgcn-bitcode)
  file(MAKE_DIRECTORY ${dir})
  file(GLOB bcs ${src}/*.bc)
  foreach(bc IN LISTS bcs)
    get_filename_component(name ${bc} NAME)
    file(CREATE_LINK ${bc} ${dir}/${name} SYMBOLIC)
  endforeach()
  foreach(num IN LISTS missing)
    # ISA version number as the device libraries encode it: major*1000 + minor*100 + stepping,
    # the minor and stepping digits being hex (gfx90a -> 9010).
    string(SUBSTRING ${num} 0 1 major)
    string(SUBSTRING ${num} 1 1 minor)
    string(SUBSTRING ${num} 2 1 step)
    math(EXPR minor_v "0x${minor}")
    math(EXPR step_v "0x${step}")
    math(EXPR ver "${major} * 1000 + ${minor_v} * 100 + ${step_v}")
    file(WRITE ${dir}/oclc_isa_version_${num}.ll
         "target datalayout = \"e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9\"\n"
         "@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 ${ver}, align 4\n")
    execute_process(COMMAND ${HSM_LLVM_AS} ${dir}/oclc_isa_version_${num}.ll -o ${dir}/oclc_isa_version_${num}.bc
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "llvm-as failed to make oclc_isa_version_${num}.bc: ${err}")
    endif()
  endforeach()
  set(${out} ${dir} PARENT_SCOPE)
endfunction()

hsm_amd_device_libs(HSM_AMD_DEVICE_LIBS)

# Offload flags on the shared kernel list (their LANGUAGE is set in the calling directory only, so
# the NVIDIA library can compile the same files as CUDA).
function(hsm_amd_kernel_flags tgt sources targets)
  set(arch_flags)
  foreach(t IN LISTS targets)
    list(APPEND arch_flags --offload-arch=${t})
  endforeach()
  set_source_files_properties(${sources} PROPERTIES LANGUAGE CXX
    COMPILE_OPTIONS "-xhip;${arch_flags};--rocm-device-lib-path=${HSM_AMD_DEVICE_LIBS};--rocm-path=${HIPSOFTMAX_ROCM_PATH};-O3;-std=c++17;-Wall;-Wextra;-Werror")
  target_compile_definitions(${tgt} PRIVATE __HIP_PLATFORM_AMD__)
  target_include_directories(${tgt} SYSTEM PRIVATE ${HSM_HIP_INCLUDE_DIR})
  target_link_libraries(${tgt} PRIVATE ${HSM_AMDHIP64})
endfunction()
