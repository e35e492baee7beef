# Install rules, and the CMake and pkg-config packages of the libraries this build made. Layout
# under the prefix (README, "Install"); both vendors' builds of one version install side by side:
#   include/hipsoftmax/*.h                                       headers, shared by both vendors
#   lib/libhipsoftmax_<vendor>.so.X.Y.Z, .so.X (SONAME), .so     each vendor's library
#   lib/cmake/hipsoftmax/hipsoftmax-config.cmake, -config-version.cmake   the package (both vendors)
#   lib/cmake/hipsoftmax/hipsoftmax-<vendor>-targets*.cmake, -deps.cmake  a vendor's part of it
#   lib/pkgconfig/hipsoftmax.pc (headers), hipsoftmax-<vendor>.pc (library and vendor runtime)
#   bin/hipsoftmax-occupancy, bin/hipsoftmax-plan-<vendor>, bin/hipsoftmax-bench-<vendor>
# Each file belongs to one install component, which is one package (cmake/HsmPackage.cmake):
#   headers, occupancy (shared by both vendors); <vendor>, <vendor>_dev, <vendor>_tools.
include(CMakePackageConfigHelpers)

set(HSM_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hipsoftmax)
set(HSM_PC_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# .pc files find their prefix from their own folder, so an unpacked archive works where it lies.
file(RELATIVE_PATH HSM_PC_TO_PREFIX /prefix/${HSM_PC_INSTALL_DIR} /prefix)
string(REGEX REPLACE "/$" "" HSM_PC_TO_PREFIX "${HSM_PC_TO_PREFIX}")

# A sanitized build's libraries call into the ASan/UBSan runtimes, which only its own executables
# carry: refused at install time (cpack runs the same rules, so it refuses too).
if(HIPSOFTMAX_SANITIZE)
  install(CODE "message(FATAL_ERROR \"This build is instrumented with ASan/UBSan (HIPSOFTMAX_SANITIZE=ON, as the \"
                \"all-targets preset is): its libraries are not for installing. Install a vendor build: \"
                \"cmake --workflow --preset nvidia (or amd), then cmake --install build/nvidia.\")"
          ALL_COMPONENTS)
endif()

# hsm_install_program(<target> <vendor>): a tool linked against the <vendor> library, installed in
# bin/ with the library's folder in its RUNPATH, so it runs from any prefix.
function(hsm_install_program tgt vendor)
  file(RELATIVE_PATH rel /prefix/${CMAKE_INSTALL_BINDIR} /prefix/${CMAKE_INSTALL_LIBDIR})
  set_target_properties(${tgt} PROPERTIES INSTALL_RPATH "$ORIGIN/${rel}")
  install(TARGETS ${tgt} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT ${vendor}_tools)
endfunction()

# hsm_install_library(<vendor>): the library, its exported targets, its part of the CMake package
# (the vendor runtime it needs, recorded from this build) and its pkg-config module.
function(hsm_install_library vendor)
  set(tgt hipsoftmax_${vendor})
  if(vendor STREQUAL "amd")
    set(HSM_PACKAGE_TARGETS "${HSM_AMD_TARGETS}")
    set(HSM_PC_VENDOR_NAME AMD)
    get_filename_component(hip_libdir ${HSM_AMDHIP64} DIRECTORY)
    set(HSM_PC_RUNTIME "ROCm HIP runtime ${HSM_AMDHIP64_SONAME}")
    set(HSM_PC_RUNTIME_LIBS "-L${hip_libdir} -lamdhip64")
    set(HSM_PC_RUNTIME_CFLAGS "-I${HSM_HIP_INCLUDE_DIR} -D__HIP_PLATFORM_AMD__=1")
  else()
    set(HSM_PACKAGE_TARGETS "${HSM_NVIDIA_TARGETS}")
    set(HSM_PC_VENDOR_NAME NVIDIA)
    get_filename_component(HSM_CUDA_ROOT ${CUDAToolkit_BIN_DIR} DIRECTORY)
    set(HSM_PC_RUNTIME "CUDA ${CUDAToolkit_VERSION} runtime, libcudart.so.${CUDAToolkit_VERSION_MAJOR}")
    set(HSM_PC_RUNTIME_LIBS "-L${CUDAToolkit_LIBRARY_DIR} -lcudart")
    list(TRANSFORM CUDAToolkit_INCLUDE_DIRS PREPEND "-I" OUTPUT_VARIABLE incs)
    string(JOIN " " incs ${incs})
    set(HSM_PC_RUNTIME_CFLAGS "${incs}")
  endif()
  string(REPLACE ";" " " HSM_PACKAGE_TARGETS "${HSM_PACKAGE_TARGETS}")
  set(HSM_PC_VENDOR ${vendor})

  install(TARGETS ${tgt} EXPORT hipsoftmax-${vendor}-targets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT ${vendor} NAMELINK_COMPONENT ${vendor}_dev)
  install(EXPORT hipsoftmax-${vendor}-targets NAMESPACE hipsoftmax:: DESTINATION ${HSM_CMAKE_INSTALL_DIR}
          COMPONENT ${vendor}_dev)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/package/hipsoftmax-${vendor}-deps.cmake.in
                 ${PROJECT_BINARY_DIR}/package/hipsoftmax-${vendor}-deps.cmake @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/package/hipsoftmax-${vendor}-deps.cmake DESTINATION ${HSM_CMAKE_INSTALL_DIR}
          COMPONENT ${vendor}_dev)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/package/hipsoftmax-vendor.pc.in
                 ${PROJECT_BINARY_DIR}/package/hipsoftmax-${vendor}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/package/hipsoftmax-${vendor}.pc DESTINATION ${HSM_PC_INSTALL_DIR}
          COMPONENT ${vendor}_dev)
endfunction()

# What both vendors share: headers, the package's entry point and version file, the headers' .pc.
function(hsm_install_common)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hipsoftmax DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          COMPONENT headers FILES_MATCHING PATTERN "*.h")
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/package/hipsoftmax-config.cmake.in
                                ${PROJECT_BINARY_DIR}/package/hipsoftmax-config.cmake
                                INSTALL_DESTINATION ${HSM_CMAKE_INSTALL_DIR})
  # SameMajorVersion: the SONAME carries the major version, and within it the structs are versioned
  # by struct_size, so any 0.y >= the one asked for serves.
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/hipsoftmax-config-version.cmake
                                   VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/package/hipsoftmax-config.cmake
                ${PROJECT_BINARY_DIR}/package/hipsoftmax-config-version.cmake
          DESTINATION ${HSM_CMAKE_INSTALL_DIR} COMPONENT headers)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/package/hipsoftmax.pc.in ${PROJECT_BINARY_DIR}/package/hipsoftmax.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/package/hipsoftmax.pc DESTINATION ${HSM_PC_INSTALL_DIR} COMPONENT headers)
endfunction()
