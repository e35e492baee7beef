# The AMD toolchain: clang's HIP compiler (clang++ 17 or newer, for gfx942), the ROCm HIP runtime
# (libamdhip64 and its headers) and the AMD device bitcode libraries. scripts/install-deps.sh
# installs Debian's packages of all three.

enable_language(CXX)
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 17)
  message(FATAL_ERROR "AMD targets (${HSM_AMD_TARGETS}) need clang++ 17 or newer as the C++ compiler "
                      "(found ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}). Pass "
                      "-DCMAKE_CXX_COMPILER=clang++-19, or use a gfx* preset.")
endif()

# Everything AMD comes from one prefix, HIPSOFTMAX_ROCM_PATH, and nothing is searched outside it:
# headers and library from two ROCm releases would build and then fail at run time. Debian's
# packages: /usr (the default). A ROCm installation: $ROCM_PATH, usually /opt/rocm (the rocm
# preset's toolchain file, cmake/toolchains/rocm.cmake, sets it and ROCm's own clang).
set(HIPSOFTMAX_ROCM_PATH "/usr" CACHE PATH "Prefix of the ROCm HIP runtime (include/hip, lib/libamdhip64.so)")
set(hsm_rocm ${HIPSOFTMAX_ROCM_PATH})
find_path(HSM_HIP_INCLUDE_DIR hip/hip_runtime_api.h HINTS ${hsm_rocm}/include NO_DEFAULT_PATH)
find_library(HSM_AMDHIP64 NAMES amdhip64
             HINTS ${hsm_rocm}/lib ${hsm_rocm}/lib64 ${hsm_rocm}/lib/${CMAKE_LIBRARY_ARCHITECTURE} NO_DEFAULT_PATH)
# Device bitcode: ROCm before 6.2 and Debian keep it in amdgcn/bitcode, later ROCm beside its clang.
file(GLOB hsm_bitcode_in_llvm ${hsm_rocm}/lib/llvm/lib/clang/*/lib/amdgcn/bitcode
                              ${hsm_rocm}/llvm/lib/clang/*/lib/amdgcn/bitcode)
find_path(HIPSOFTMAX_ROCM_DEVICE_LIB_PATH ocml.bc
          HINTS ${hsm_rocm}/amdgcn/bitcode ${hsm_rocm}/lib/${CMAKE_LIBRARY_ARCHITECTURE}/amdgcn/bitcode
                ${hsm_bitcode_in_llvm}
          NO_DEFAULT_PATH
          DOC "Folder of the AMD device bitcode libraries (ocml.bc, oclc_isa_version_*.bc)")
if(NOT HSM_HIP_INCLUDE_DIR OR NOT HSM_AMDHIP64 OR NOT HIPSOFTMAX_ROCM_DEVICE_LIB_PATH)
  message(FATAL_ERROR "AMD targets need the ROCm HIP runtime and device libraries under "
                      "HIPSOFTMAX_ROCM_PATH='${hsm_rocm}' (headers include/hip: '${HSM_HIP_INCLUDE_DIR}', "
                      "lib/libamdhip64.so: '${HSM_AMDHIP64}', device bitcode: '${HIPSOFTMAX_ROCM_DEVICE_LIB_PATH}'). "
                      "Debian: run scripts/install-deps.sh. A ROCm installation: pass -DHIPSOFTMAX_ROCM_PATH=<its prefix> "
                      "(or use the rocm preset with ROCM_PATH set); device bitcode elsewhere: "
                      "-DHIPSOFTMAX_ROCM_DEVICE_LIB_PATH=<folder holding ocml.bc>.")
endif()

# The HIP runtime as an imported target: the library links it as an interface dependency, and the
# installed package defines the same name from the runtime it finds (cmake/hipsoftmax-amd-deps.cmake.in).
# The definitions are hip::host's, for callers that include <hip/hip_runtime.h> with a non-HIP compiler.
get_filename_component(hsm_amdhip64_real ${HSM_AMDHIP64} REALPATH)
add_library(hipsoftmax::amdhip64 SHARED IMPORTED)
set_target_properties(hipsoftmax::amdhip64 PROPERTIES
  IMPORTED_LOCATION ${hsm_amdhip64_real}
  INTERFACE_INCLUDE_DIRECTORIES ${HSM_HIP_INCLUDE_DIR}
  INTERFACE_COMPILE_DEFINITIONS __HIP_PLATFORM_AMD__=1)
# The runtime's SONAME (libamdhip64.so.5 for ROCm 5, .so.6 for ROCm 6): the package looks for
# exactly this one, so a consumer never pairs the library with another major release of the runtime.
set(hsm_objdump "")
if(CMAKE_OBJDUMP)
  execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${hsm_amdhip64_real} OUTPUT_VARIABLE hsm_objdump ERROR_QUIET)
endif()
get_filename_component(hsm_amdhip64_name ${hsm_amdhip64_real} NAME)
if(hsm_objdump MATCHES "SONAME +([^\n ]+)")
  set(HSM_AMDHIP64_SONAME ${CMAKE_MATCH_1})
elseif(hsm_amdhip64_name MATCHES "^(libamdhip64\\.so\\.[0-9]+)")
  set(HSM_AMDHIP64_SONAME ${CMAKE_MATCH_1})
else()
  set(HSM_AMDHIP64_SONAME ${hsm_amdhip64_name})
endif()
set_target_properties(hipsoftmax::amdhip64 PROPERTIES IMPORTED_SONAME ${HSM_AMDHIP64_SONAME})

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
  # The llvm-as beside the compiler's real file writes bitcode that compiler reads (an older clang
  # may not read a newer llvm-as's output).
  get_filename_component(cxx_real ${CMAKE_CXX_COMPILER} REALPATH)
  get_filename_component(cxx_dir ${cxx_real} DIRECTORY)
  find_program(HSM_LLVM_AS NAMES llvm-as HINTS ${cxx_dir} NO_DEFAULT_PATH
               DOC "llvm-as matching clang, to make missing ISA bitcode")
  string(REGEX MATCH "^[0-9]+" cxx_major ${CMAKE_CXX_COMPILER_VERSION})
  find_program(HSM_LLVM_AS NAMES llvm-as-${cxx_major} llvm-as
               DOC "llvm-as matching clang, to make missing ISA bitcode")
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
  # PUBLIC: a caller shares the library's runtime (its streams and memory are that runtime's).
  target_link_libraries(${tgt} PUBLIC hipsoftmax::amdhip64)
endfunction()
