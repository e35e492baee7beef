# CPack: DEB packages and a TGZ archive of this build (README, "Install"). Run by the package presets
# (cmake --workflow --preset nvidia, or amd, rocm) or cpack in the build folder.
#
# DEB, one package per install component (cmake/HsmInstall.cmake), named the Debian way so that both
# vendors' packages of one version install side by side in /usr:
#   libhipsoftmax-<vendor>0      lib/libhipsoftmax_<vendor>.so.0*                  (component <vendor>)
#   libhipsoftmax-<vendor>-dev   .so link, CMake targets and deps, hipsoftmax-<vendor>.pc (<vendor>_dev)
#   hipsoftmax-<vendor>-tools    bin/hipsoftmax-plan-<vendor>, bin/hipsoftmax-bench-<vendor> (<vendor>_tools)
#   libhipsoftmax-dev            headers, the CMake package's entry point, hipsoftmax.pc (headers)
#   hipsoftmax-occupancy         bin/hipsoftmax-occupancy (occupancy)
# The last two are the same whichever vendor's build makes them. TGZ: one archive with everything,
# hipsoftmax-<version>-<vendors>-<targets>-Linux-<arch>.tar.gz, usable where it is unpacked.
get_property(hsm_libs GLOBAL PROPERTY HSM_LIBRARIES)
set(hsm_vendors)
foreach(lib IN LISTS hsm_libs)
  string(REPLACE "hipsoftmax_" "" v ${lib})
  list(APPEND hsm_vendors ${v})
endforeach()
string(REPLACE ";" "-" hsm_vendor_tag "${hsm_vendors}")
string(REPLACE ";" "-" hsm_target_tag "${HSM_AMD_TARGETS};${HSM_NVIDIA_TARGETS}")
string(REGEX REPLACE "^-|-$" "" hsm_target_tag "${hsm_target_tag}")

set(CPACK_PACKAGE_NAME hipsoftmax)
set(CPACK_PACKAGE_VENDOR "hipsoftmax")
set(CPACK_PACKAGE_CONTACT "hipsoftmax developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_FILE_NAME "hipsoftmax-${PROJECT_VERSION}-${hsm_vendor_tag}-${hsm_target_tag}-${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_GENERATOR DEB TGZ)
# DEBs install into /usr; the archive's top folder is the prefix itself (cmake/HsmCPackOptions.cmake.in).
configure_file(${PROJECT_SOURCE_DIR}/cmake/package/HsmCPackOptions.cmake.in ${PROJECT_BINARY_DIR}/HsmCPackOptions.cmake
               @ONLY)
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_BINARY_DIR}/HsmCPackOptions.cmake)
# The archive holds every component under one top folder; the DEBs are one package per component.
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)

# The vendor runtime's package, when dpkg installed it (Debian's libamdhip64-5, NVIDIA's cuda-cudart-*):
# "<package> (>= <upstream version>)", else empty (a runtime from a tarball or .run installer).
function(hsm_deb_runtime_dep out lib)
  set(${out} "" PARENT_SCOPE)
  find_program(HSM_DPKG_QUERY dpkg-query)
  if(NOT HSM_DPKG_QUERY OR NOT lib)
    return()
  endif()
  get_filename_component(real ${lib} REALPATH)
  execute_process(COMMAND ${HSM_DPKG_QUERY} -S ${real} OUTPUT_VARIABLE owner RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0 OR NOT owner MATCHES "^([^:, ]+)(:[a-z0-9]+)?: ")
    return()
  endif()
  set(pkg ${CMAKE_MATCH_1})
  execute_process(COMMAND ${HSM_DPKG_QUERY} -W -f=\${Version} ${pkg} OUTPUT_VARIABLE ver ERROR_QUIET)
  string(REGEX REPLACE "^[0-9]+:" "" ver "${ver}")
  string(REGEX REPLACE "-[^-]*$" "" ver "${ver}")
  set(${out} "${pkg} (>= ${ver})" PARENT_SCOPE)
endfunction()

set(hsm_components headers occupancy)
set(CPACK_DEBIAN_HEADERS_PACKAGE_NAME libhipsoftmax-dev)
set(CPACK_DEBIAN_HEADERS_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_HEADERS_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_HEADERS_DESCRIPTION
    "hipsoftmax headers and CMake/pkg-config entry points\n Shared by the AMD and NVIDIA builds; install libhipsoftmax-amd-dev or libhipsoftmax-nvidia-dev to link.")
set(CPACK_DEBIAN_OCCUPANCY_PACKAGE_NAME hipsoftmax-occupancy)
set(CPACK_DEBIAN_OCCUPANCY_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_OCCUPANCY_PACKAGE_DEPENDS "libc6")
set(CPACK_DEBIAN_OCCUPANCY_DESCRIPTION
    "hipsoftmax-occupancy: occupancy report for any AMD or NVIDIA code object\n Reads kernels' registers and shared memory from code objects, fat binaries and libraries, and models occupancy with the Triton tutorial's formula and each vendor's exact rules. No GPU needed.")

foreach(v IN LISTS hsm_vendors)
  string(TOUPPER ${v} V)
  if(v STREQUAL "amd")
    set(name AMD)
    set(targets "${HSM_AMD_TARGETS}")
    hsm_deb_runtime_dep(rt "${HSM_AMDHIP64}")
    set(rt_text "the ROCm HIP runtime (${HSM_AMDHIP64_SONAME})")
  else()
    set(name NVIDIA)
    set(targets "${HSM_NVIDIA_TARGETS}")
    find_library(HSM_CUDART_SO NAMES cudart HINTS ${CUDAToolkit_LIBRARY_DIR} NO_DEFAULT_PATH)
    hsm_deb_runtime_dep(rt "${HSM_CUDART_SO}")
    set(rt_text "the CUDA ${CUDAToolkit_VERSION_MAJOR} runtime (libcudart.so.${CUDAToolkit_VERSION_MAJOR})")
  endif()
  string(REPLACE ";" " " targets "${targets}")
  list(APPEND hsm_components ${v} ${v}_dev ${v}_tools)
  set(lib_pkg libhipsoftmax-${v}${PROJECT_VERSION_MAJOR})
  set(deps "libc6, libstdc++6")
  if(rt)
    string(APPEND deps ", ${rt}")
  endif()
  set(CPACK_DEBIAN_${V}_PACKAGE_NAME ${lib_pkg})
  set(CPACK_DEBIAN_${V}_PACKAGE_DEPENDS "${deps}")
  set(CPACK_DEBIAN_${V}_DESCRIPTION
      "hipsoftmax for ${name} GPUs (${targets})\n Fused softmax kernels with a C API; needs ${rt_text}.")
  set(CPACK_DEBIAN_${V}_DEV_PACKAGE_NAME libhipsoftmax-${v}-dev)
  set(CPACK_DEBIAN_${V}_DEV_PACKAGE_SECTION libdevel)
  set(CPACK_DEBIAN_${V}_DEV_PACKAGE_DEPENDS
      "${lib_pkg} (= ${PROJECT_VERSION}), libhipsoftmax-dev (= ${PROJECT_VERSION})")
  set(CPACK_DEBIAN_${V}_DEV_DESCRIPTION
      "hipsoftmax for ${name} GPUs (${targets}): development files\n find_package(hipsoftmax COMPONENTS ${v}) or pkg-config hipsoftmax-${v}.")
  set(CPACK_DEBIAN_${V}_TOOLS_PACKAGE_NAME hipsoftmax-${v}-tools)
  set(CPACK_DEBIAN_${V}_TOOLS_PACKAGE_SECTION devel)
  set(CPACK_DEBIAN_${V}_TOOLS_PACKAGE_DEPENDS "${lib_pkg} (= ${PROJECT_VERSION})")
  set(CPACK_DEBIAN_${V}_TOOLS_DESCRIPTION
      "hipsoftmax for ${name} GPUs (${targets}): plan report and benchmark\n hipsoftmax-plan-${v} prints the library's plans without a GPU; hipsoftmax-bench-${v} measures it on one.")
endforeach()
set(CPACK_COMPONENTS_ALL ${hsm_components})
include(CPack)
