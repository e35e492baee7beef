# Reader tests: arch/'s code-object readers against the toolchains' own reports (llvm-readelf --notes
# for AMDGPU, ptxas -v for NVIDIA) on stress kernels compiled at build time, on malformed inputs
# derived from the committed seed corpus, and on the library's own shared objects.

set(HSM_READER_OBJ_DIR ${CMAKE_CURRENT_BINARY_DIR}/reader-objects)
file(MAKE_DIRECTORY ${HSM_READER_OBJ_DIR})
set(HSM_CAPTURE ${CMAKE_CURRENT_SOURCE_DIR}/kernels/capture.cmake)
set(HSM_SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/../fuzz/corpus)

function(hsm_reader_executable name)
  add_executable(${name} ${CMAKE_CURRENT_SOURCE_DIR}/${name}.c)
  target_link_libraries(${name} PRIVATE hipsoftmax_arch)
  hsm_host_warnings(${name})
endfunction()

# Malformed inputs: named mutations of one valid file of each format (the committed seeds).
hsm_reader_executable(reader_malformed)
hsm_add_test(NAME arch.reader.malformed
             COMMAND reader_malformed ${HSM_SEEDS}/amdgpu/seed_gfx90a.co ${HSM_SEEDS}/cubin/seed_sm_90.cubin
                     ${HSM_SEEDS}/bundle/seed_gfx908_gfx90a_gfx942.bundle ${HSM_SEEDS}/fatbin/seed_sm_80_sm_90.fatbin
             LABELS arch)

# Work bounds: inputs that once made the readers run for minutes (tests/arch/gen_inputs.h),
# generated at test time, each parsed in under a second or refused as over the work budget. The
# CTest timeout only stops a regression from holding CI for minutes; the test's own limit is 1 s.
hsm_reader_executable(bounds)
set_target_properties(bounds PROPERTIES OUTPUT_NAME arch_bounds)
foreach(c cubin-sections cubin-records amdgpu-symbols bundle-shared-payload fatbin-ptx
          cubin-shared-info amdgpu-long-names amdgpu-note-copies bundle-payload-sizes)
  hsm_add_test(NAME arch.bounds.${c} COMMAND bounds ${c} LABELS arch bounds)
  set_tests_properties(arch.bounds.${c} PROPERTIES TIMEOUT 60)
endforeach()

# Lookups: every target spelling, the device rules and the index on the committed seeds.
hsm_reader_executable(reader_find)
hsm_add_test(NAME arch.reader.find
             COMMAND reader_find ${HSM_SEEDS}/fatbin/seed_sm_80_sm_90.fatbin
                     ${HSM_SEEDS}/bundle/seed_gfx908_gfx90a_gfx942.bundle
             LABELS arch)
set_tests_properties(arch.reader.find PROPERTIES TIMEOUT 60)

# Bounded file reads (arch_read_file, arch_read_fd): FIFOs, devices, directories, sparse files.
hsm_reader_executable(file_read)
hsm_add_test(NAME arch.file COMMAND file_read ${CMAKE_CURRENT_BINARY_DIR}/file-read-tmp LABELS arch)
set_tests_properties(arch.file PROPERTIES TIMEOUT 60)

# AMD: device code objects per target, the host object with .hip_fatbin, and the bundle alone.
find_program(HSM_CLANGXX_19 NAMES clang++-19)
find_program(HSM_LLVM_READELF NAMES llvm-readelf-19 llvm-readelf)
find_program(HSM_LLVM_OBJCOPY NAMES llvm-objcopy-19 llvm-objcopy)
set(HSM_READER_OBJECTS)
if(HSM_CLANGXX_19 AND HSM_LLVM_READELF AND HSM_LLVM_OBJCOPY)
  set(src ${CMAKE_CURRENT_SOURCE_DIR}/kernels/amd_stress.hip)
  set(flags -x hip -O3 -nogpulib -nogpuinc)
  set(amdgpu_args)
  set(notes)
  foreach(t gfx908 gfx90a gfx942)
    set(co ${HSM_READER_OBJ_DIR}/amd_${t}.co)
    add_custom_command(OUTPUT ${co} ${co}.notes
      COMMAND ${HSM_CLANGXX_19} ${flags} --offload-arch=${t} --offload-device-only --no-gpu-bundle-output ${src} -o ${co}
      COMMAND ${CMAKE_COMMAND} -DOUT=${co}.notes -P ${HSM_CAPTURE} -- ${HSM_LLVM_READELF} --notes ${co}
      DEPENDS ${src} ${HSM_CAPTURE} VERBATIM)
    list(APPEND amdgpu_args ${co} ${co}.notes)
    list(APPEND notes ${co}.notes)
    list(APPEND HSM_READER_OBJECTS ${co} ${co}.notes)
  endforeach()
  set(host ${HSM_READER_OBJ_DIR}/amd_stress.o)
  set(bundle ${HSM_READER_OBJ_DIR}/amd_stress.bundle)
  add_custom_command(OUTPUT ${host} ${bundle}
    COMMAND ${HSM_CLANGXX_19} ${flags} --offload-arch=gfx908 --offload-arch=gfx90a --offload-arch=gfx942 -c ${src} -o ${host}
    COMMAND ${HSM_LLVM_OBJCOPY} --dump-section=.hip_fatbin=${bundle} ${host} ${host}.copy
    DEPENDS ${src} VERBATIM)
  list(APPEND HSM_READER_OBJECTS ${host} ${bundle})
  hsm_reader_executable(reader_amdgpu)
  hsm_add_test(NAME arch.reader.amdgpu COMMAND reader_amdgpu ${amdgpu_args} LABELS arch amd)
  hsm_reader_executable(reader_bundle)
  hsm_add_test(NAME arch.reader.bundle COMMAND reader_bundle ${bundle} ${host} ${notes} LABELS arch amd)
else()
  message(STATUS "hipsoftmax: clang++-19, llvm-readelf or llvm-objcopy not found: arch.reader.amdgpu and "
                 "arch.reader.bundle are not added")
endif()

# NVIDIA: cubins per SM target, a fatbin and a host object with both, and an all-compressed fatbin.
find_program(HSM_NVCC NAMES nvcc HINTS ENV CUDA_PATH ENV CUDA_HOME PATH_SUFFIXES bin)
if(HSM_NVCC)
  set(src ${CMAKE_CURRENT_SOURCE_DIR}/kernels/nv_stress.cu)
  set(cubin_args)
  foreach(sm 80 90 100 120)
    set(cubin ${HSM_READER_OBJ_DIR}/nv_sm_${sm}.cubin)
    add_custom_command(OUTPUT ${cubin} ${cubin}.ptxas
      COMMAND ${CMAKE_COMMAND} -DOUT=${cubin}.ptxas -P ${HSM_CAPTURE} --
              ${HSM_NVCC} -cubin -arch=sm_${sm} -Xptxas -v ${src} -o ${cubin}
      DEPENDS ${src} ${HSM_CAPTURE} VERBATIM)
    list(APPEND cubin_args ${cubin} ${cubin}.ptxas)
    list(APPEND HSM_READER_OBJECTS ${cubin} ${cubin}.ptxas)
  endforeach()
  # --no-compress: CUDA 13 compresses PTX by default and cubins with -Xfatbin=-compress-all;
  # the reader reads uncompressed cubins only.
  set(gencode -gencode arch=compute_80,code=sm_80 "-gencode=arch=compute_90,code=[sm_90,compute_90]")
  set(fatbin ${HSM_READER_OBJ_DIR}/nv_stress.fatbin)
  set(host ${HSM_READER_OBJ_DIR}/nv_stress.o)
  set(packed ${HSM_READER_OBJ_DIR}/nv_stress_compressed.fatbin)
  add_custom_command(OUTPUT ${fatbin} ${fatbin}.ptxas ${host} ${packed}
    COMMAND ${CMAKE_COMMAND} -DOUT=${fatbin}.ptxas -P ${HSM_CAPTURE} --
            ${HSM_NVCC} -fatbin --no-compress ${gencode} -Xptxas -v ${src} -o ${fatbin}
    COMMAND ${HSM_NVCC} -c --no-compress ${gencode} ${src} -o ${host}
    COMMAND ${HSM_NVCC} -fatbin -Xfatbin=-compress-all ${gencode} ${src} -o ${packed}
    DEPENDS ${src} ${HSM_CAPTURE} VERBATIM)
  list(APPEND HSM_READER_OBJECTS ${fatbin} ${fatbin}.ptxas ${host} ${packed})
  hsm_reader_executable(reader_cubin)
  hsm_add_test(NAME arch.reader.cubin COMMAND reader_cubin ${cubin_args} LABELS arch nvidia)
  hsm_reader_executable(reader_fatbin)
  hsm_add_test(NAME arch.reader.fatbin COMMAND reader_fatbin ${fatbin} ${host} ${packed} ${fatbin}.ptxas
               LABELS arch nvidia)
else()
  message(STATUS "hipsoftmax: nvcc not found: arch.reader.cubin and arch.reader.fatbin are not added")
endif()

if(HSM_READER_OBJECTS)
  add_custom_target(hsm_reader_objects ALL DEPENDS ${HSM_READER_OBJECTS})
endif()

# The library's own kernels: every built target appears, with hsm_* kernels only.
if(TARGET hipsoftmax_amd OR TARGET hipsoftmax_nvidia)
  hsm_reader_executable(reader_library)
endif()
if(TARGET hipsoftmax_amd)
  hsm_add_test(NAME arch.reader.library.amd COMMAND reader_library $<TARGET_FILE:hipsoftmax_amd> ${HSM_AMD_TARGETS}
               LABELS arch amd)
endif()
if(TARGET hipsoftmax_nvidia)
  hsm_add_test(NAME arch.reader.library.nvidia
               COMMAND reader_library $<TARGET_FILE:hipsoftmax_nvidia> ${HSM_NVIDIA_TARGETS} LABELS arch nvidia)
endif()

# The library's own kernels against the toolchains' reports, for every built target, from the
# library's own kernel objects. AMD: the code objects inside them, against llvm-readelf --notes.
# NVIDIA: the fatbins inside them, against ptxas -v's report of the same compile (<object>.ptxas).
find_program(HSM_OFFLOAD_BUNDLER NAMES clang-offload-bundler-19 clang-offload-bundler)
if(TARGET hipsoftmax_amd AND HSM_LLVM_READELF AND HSM_LLVM_OBJCOPY AND HSM_OFFLOAD_BUNDLER)
  if(NOT TARGET reader_amdgpu)
    hsm_reader_executable(reader_amdgpu)
  endif()
  string(REPLACE ";" "," targets "${HSM_AMD_TARGETS}")
  hsm_add_test(NAME arch.reader.library_notes.amd
               COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/library-notes.sh $<TARGET_FILE:reader_amdgpu>
                       ${HSM_LLVM_OBJCOPY} ${HSM_OFFLOAD_BUNDLER} ${HSM_LLVM_READELF} ${targets}
                       $<TARGET_OBJECTS:hipsoftmax_amd>
               LABELS arch amd)
endif()
if(TARGET hipsoftmax_nvidia)
  if(NOT TARGET reader_cubin)
    hsm_reader_executable(reader_cubin)
  endif()
  string(REPLACE ";" "," targets "${HSM_NVIDIA_TARGETS}")
  hsm_add_test(NAME arch.reader.library_ptxas.nvidia
               COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/library-ptxas.sh $<TARGET_FILE:reader_cubin> ${targets}
                       $<TARGET_OBJECTS:hipsoftmax_nvidia>
               LABELS arch nvidia)
endif()
