# hsm_add_library(<vendor> <kernel sources>): the shared library hipsoftmax_<vendor>, file name
# libhipsoftmax_<vendor>.so in <build>/<vendor>/. Host C sources and the public headers are the
# same for both vendors; the vendor modules set the kernel sources' language and offload flags.
# The file name carries the vendor so that both vendors' libraries can be installed side by side
# and a program names the one it links (README, "Install").
function(hsm_add_library vendor kernel_sources)
  set(tgt hipsoftmax_${vendor})
  add_library(${tgt} SHARED ${HSM_HOST_SOURCES} ${kernel_sources})
  target_include_directories(${tgt}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/hip)
  # Threads: the call log (src/log.c) reads its variables under pthread_once and writes under a mutex.
  find_package(Threads REQUIRED)
  target_link_libraries(${tgt} PRIVATE hipsoftmax_arch ${CMAKE_DL_LIBS} Threads::Threads)
  target_compile_definitions(${tgt} PRIVATE HIPSOFTMAX_BUILDING_LIBRARY)
  # The log's bench lines name the vendor's hipsoftmax-bench-<vendor> (host C only: src/log.c).
  target_compile_definitions(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:C>:HSM_LOG_VENDOR="${vendor}">)
  set_target_properties(${tgt} PROPERTIES
    OUTPUT_NAME hipsoftmax_${vendor}
    EXPORT_NAME ${vendor}
    # Both libraries define the same symbols: a program that links both would get one vendor's
    # functions at random. CMake refuses to generate a target whose dependencies disagree on
    # HIPSOFTMAX_VENDOR, so linking hipsoftmax::amd and hipsoftmax::nvidia together fails loudly.
    INTERFACE_HIPSOFTMAX_VENDOR ${vendor}
    COMPATIBLE_INTERFACE_STRING HIPSOFTMAX_VENDOR
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/${vendor}
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINKER_LANGUAGE CXX)
  hsm_host_warnings(${tgt})
  set_property(GLOBAL APPEND PROPERTY HSM_LIBRARIES ${tgt})
endfunction()

# hsm_use_vendor_runtime(<target> <vendor>): lets a program outside the library (tests, bench) call
# the vendor runtime through hip/hsm_vendor.h, linked against the same shared runtime as the library.
function(hsm_use_vendor_runtime tgt vendor)
  target_include_directories(${tgt} PRIVATE ${PROJECT_SOURCE_DIR}/hip)
  if(vendor STREQUAL "amd")
    target_compile_definitions(${tgt} PRIVATE __HIP_PLATFORM_AMD__)
    target_include_directories(${tgt} SYSTEM PRIVATE ${HSM_HIP_INCLUDE_DIR})
    target_link_libraries(${tgt} PRIVATE hipsoftmax_${vendor} ${HSM_AMDHIP64} m)
  else()
    target_compile_definitions(${tgt} PRIVATE __HIP_PLATFORM_NVIDIA__)
    target_link_libraries(${tgt} PRIVATE hipsoftmax_${vendor} CUDA::cudart m)
  endif()
endfunction()
