# CPU tests of the target tables, the occupancy models and the hipsoftmax-occupancy CLI.

foreach(t tutorial amd targets)
  add_executable(arch_model_${t} ${CMAKE_CURRENT_LIST_DIR}/model_${t}.c)
  target_link_libraries(arch_model_${t} PRIVATE hipsoftmax_arch)
  hsm_host_warnings(arch_model_${t})
endforeach()
hsm_add_test(NAME arch.model.tutorial COMMAND arch_model_tutorial LABELS arch)
hsm_add_test(NAME arch.model.amd COMMAND arch_model_amd LABELS arch gfx908 gfx90a gfx942)
hsm_add_test(NAME arch.targets COMMAND arch_model_targets LABELS arch)

# The NVIDIA model is proven equal to NVIDIA's own host-only calculator, which compiles as C.
find_package(CUDAToolkit QUIET)
find_path(HSM_CUDA_OCCUPANCY_DIR cuda_occupancy.h
          HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/local/cuda/include
          DOC "folder holding NVIDIA's cuda_occupancy.h, the oracle of arch.model.nvidia_sweep")
if(HSM_CUDA_OCCUPANCY_DIR)
  add_executable(arch_model_nvidia_sweep ${CMAKE_CURRENT_LIST_DIR}/model_nvidia_sweep.c)
  target_include_directories(arch_model_nvidia_sweep SYSTEM PRIVATE ${HSM_CUDA_OCCUPANCY_DIR})
  target_link_libraries(arch_model_nvidia_sweep PRIVATE hipsoftmax_arch)
  hsm_host_warnings(arch_model_nvidia_sweep)
  hsm_add_test(NAME arch.model.nvidia_sweep COMMAND arch_model_nvidia_sweep LABELS arch sm_80 sm_86 sm_89 sm_90 sm_100 sm_120)
else()
  message(STATUS "hipsoftmax: cuda_occupancy.h not found (set HSM_CUDA_OCCUPANCY_DIR): "
                 "arch.model.nvidia_sweep is not built")
endif()

if(NOT TARGET hipsoftmax-occupancy)
  return()
endif()

# CLI tests: run the CLI, then check its exit status and that stdout and stderr match a regex each.
# Arguments are joined with "@@" (a regex may hold ';' or '|', which CMake or a shell would split).
# PREP: a command run first (it makes the FIFO or sparse file a test reads); INPUT: the CLI's stdin.
# A CLI that blocks (on a FIFO) is stopped after 20 s and fails: its exit status is then a message.
set(HSM_CLI_EXPECT ${CMAKE_CURRENT_BINARY_DIR}/cli_expect.cmake)
file(WRITE ${HSM_CLI_EXPECT} [=[
string(REPLACE "@@" ";" args "${ARGS}")
if(PREP)
  string(REPLACE "@@" ";" prep "${PREP}")
  execute_process(COMMAND ${prep} RESULT_VARIABLE prep_rc)
  if(NOT prep_rc EQUAL 0)
    message(FATAL_ERROR "setup failed (${prep_rc}): ${prep}")
  endif()
endif()
set(input)
if(INPUT)
  set(input INPUT_FILE ${INPUT})
endif()
execute_process(COMMAND ${CLI} ${args} ${input} TIMEOUT 20 RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message("exit ${rc}\n--- stdout\n${out}--- stderr\n${err}")
if(NOT rc STREQUAL RC)
  message(FATAL_ERROR "exit status ${rc}, want ${RC}")
endif()
if(NOT out MATCHES "${OUT}")
  message(FATAL_ERROR "stdout does not match: ${OUT}")
endif()
if(NOT err MATCHES "${ERR}")
  message(FATAL_ERROR "stderr does not match: ${ERR}")
endif()
]=])

# hsm_cli_test(name rc out-regex err-regex args [PREP cmd] [INPUT stdin-file])
function(hsm_cli_test name rc out err args)
  cmake_parse_arguments(C "" "PREP;INPUT" "" ${ARGN})
  hsm_add_test(NAME arch.cli.${name}
               COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:hipsoftmax-occupancy> "-DARGS=${args}" -DRC=${rc}
                       "-DOUT=${out}" "-DERR=${err}" "-DPREP=${C_PREP}" "-DINPUT=${C_INPUT}" -P ${HSM_CLI_EXPECT}
               LABELS arch cli)
endfunction()

# gfx942, 32 VGPRs, block 256: 8 blocks/CU limited by wave slots, 8 waves/SIMD, 304 x 8 = 2432 programs;
# tutorial min(131072/64/32, 32) // 4 = 8 with regsPerBlock 65536 (and 8 with 131072: the wave cap hides it)
hsm_cli_test(whatif.gfx942 0 "\\| +8 waves +8 +2432 \\| +4 8\\|8 +2432\\|2432 +\\| \\(what-if\\)" "^$"
             "--target@@gfx942@@--vgprs@@32@@--sgprs@@16@@--block@@256")
# gfx942, 128 VGPRs: exact 4 blocks (512/128 waves), tutorial 4 with 65536 but 8 with 131072
hsm_cli_test(whatif.rpb 0 "\\| +4 registers +4 +1216 \\| +4 4\\|8 +1216\\|2432 +\\|" "^$"
             "--target@@gfx942:sramecc+:xnack-@@--vgprs@@128@@--sgprs@@32")
# sm_90, 32 registers, block 256: 65536 / (32 x 32 x 8) = 8 by both; warps limit 64 / 8 = 8 too
hsm_cli_test(whatif.sm_90 0 "\\| +8 registers +64 +1056 \\| +8 8 +1056 +\\|" "^$"
             "--target@@sm_90a@@--regs@@32@@--block@@256")
# gfx908 with LLVM's 10 waves per SIMD: 24 VGPRs -> 10 blocks of 256
hsm_cli_test(whatif.gfx908 0 "\\| +10 waves +10 +1200 \\|" "^$"
             "--target@@gfx908@@--vgprs@@24@@--waves-per-simd@@10")
hsm_cli_test(whatif.block_size 0 "\\| +0 block_size +0 +0 \\|" "^$"
             "--target@@gfx90a@@--vgprs@@32@@--block@@2048")
hsm_cli_test(list_targets 0 "gfx908 .*gfx90a .*gfx942 .*sm_80 .*sm_86 .*sm_89 .*sm_90 " "^$" "--list-targets")
hsm_cli_test(json 0 "^{\"file\":null,\"target\":\"gfx942\",\"kernel\":\"\\(what-if\\)\",\"base_target\":\"gfx942\",\"vendor\":\"amd\",\"vgprs\":100,\"agprs\":8,\"sgprs\":64,\"regs\":100,\"lds_bytes\":4096,\"scratch_bytes\":0,\"wave_size\":64,\"block\":256,\"rows\":100,\"cus\":304,\"exact_blocks_per_cu\":4,\"exact_limiter\":\"registers\",\"waves_per_simd\":4,\"exact_num_programs\":100,\"tutorial_num_warps\":4,\"tutorial_num_gprs\":131072,\"tutorial_occupancy\":5,\"num_programs\":100,\"tutorial_occupancy_regs_per_block_131072\":8,\"num_programs_regs_per_block_131072\":100}\n$" "^$"
             "--json@@--target@@gfx942@@--vgprs@@90@@--agprs@@8@@--sgprs@@64@@--lds@@4096@@--rows@@100")
hsm_cli_test(json.nvidia 0 "\"target\":\"sm_80\".*\"vgprs\":null,.*\"regs\":64,.*\"exact_blocks_per_cu\":4,\"exact_limiter\":\"registers\",\"warps_per_sm\":32,.*\"tutorial_occupancy\":4,\"num_programs\":432}" "^$"
             "--json@@--target@@sm_80@@--regs@@64@@--smem@@2048")
hsm_cli_test(json.undefined 0 "\"tutorial_occupancy\":\"n_regs <= 0: [^\"]*\",\"num_programs\":\"n_regs <= 0" "^$"
             "--json@@--target@@gfx90a@@--vgprs@@0")
hsm_cli_test(badargs.unknown_option 2 "^$" "unknown option '--frobnicate'" "--frobnicate")
hsm_cli_test(badargs.not_a_number 2 "^$" "--block: '12x' is not an integer" "--target@@sm_90@@--regs@@32@@--block@@12x")
hsm_cli_test(badargs.block_zero 2 "^$" "--block: '0' is not an integer in .1, " "--target@@sm_90@@--regs@@32@@--block@@0")
hsm_cli_test(badargs.missing_value 2 "^$" "--rows needs a value" "--target@@sm_90@@--regs@@32@@--rows")
hsm_cli_test(badargs.unknown_target 2 "^$" "unknown target 'gfx1100'" "--target@@gfx1100@@--vgprs@@32")
hsm_cli_test(badargs.regs_per_block 2 "^$" "--regs-per-block must be 65536 or 131072" "--target@@gfx942@@--vgprs@@32@@--regs-per-block@@100000")
hsm_cli_test(badargs.vendor_mix 2 "^$" "NVIDIA target: use --regs" "--target@@sm_90@@--vgprs@@32")
hsm_cli_test(badargs.nothing 2 "^$" "no FILE and no --target" "--block@@256")
hsm_cli_test(badargs.whatif_with_file 2 "^$" "give them without FILE" "--vgprs@@32@@${CMAKE_CURRENT_LIST_FILE}")
# a file that is not a code object: message with the status string, exit 1
hsm_cli_test(badfile.not_code_object 1 "" "models.cmake: " "${CMAKE_CURRENT_LIST_FILE}")
hsm_cli_test(badfile.missing 1 "" "cannot read: open: No such file or directory"
             "${CMAKE_CURRENT_BINARY_DIR}/no-such-file.co")

# Files that are not regular, or too large, are refused by type and size before anything is read:
# a FIFO without a writer (which blocked forever), /dev/zero and a 10 GiB sparse file (read into
# 1.1 GB of memory before), a directory (errno, not "read error"), /dev/zero as stdin.
set(seeds ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus)
set(scratch ${CMAKE_CURRENT_BINARY_DIR}/cli-files)
file(MAKE_DIRECTORY ${scratch})
hsm_cli_test(badfile.fifo 1 "^$" "fifo: cannot read: unsupported input: not a regular file \\(a FIFO or pipe\\)"
             "${scratch}/fifo" PREP "sh@@-c@@rm -f '${scratch}/fifo' && mkfifo '${scratch}/fifo'")
hsm_cli_test(badfile.dev_zero 1 "^$" "/dev/zero: cannot read: unsupported input: not a regular file \\(a character device\\)"
             "/dev/zero")
hsm_cli_test(badfile.sparse 1 "^$" "sparse-10g: cannot read: file of 10737418240 bytes is larger than the 1 GiB limit"
             "${scratch}/sparse-10g" PREP "truncate@@-s@@10G@@${scratch}/sparse-10g")
hsm_cli_test(badfile.directory 1 "^$" "cli-files: cannot read: read: Is a directory" "${scratch}")
hsm_cli_test(badfile.stdin_dev_zero 1 "^$" "-: cannot read: unsupported input: not a regular file \\(a character device\\)"
             "-" INPUT /dev/zero)
hsm_cli_test(stdin 0 "^-: 2 kernel\\(s\\), 0 entries not read\n" "^$" "-" INPUT ${seeds}/cubin/seed_sm_90.cubin)
# A parse error names the structure and the byte offset where it failed, not only "corrupt input".
hsm_cli_test(badfile.where_elf 1 "^$"
             "elf-shoff-past-end: corrupt input: ELF header \\(section table outside the file\\) at byte 40 \\(0x28\\)"
             "${seeds}/regressions/elf-shoff-past-end")
hsm_cli_test(badfile.where_nvinfo 1 "^$"
             "nvinfo-format-9: corrupt input: .nv.info record \\(unknown format\\) at byte [1-9][0-9]* \\(0x"
             "${seeds}/regressions/nvinfo-format-9")
hsm_cli_test(badfile.where_bundle 1 "^$"
             "bundle-offset-past-end: corrupt input: offload bundle entry \\(payload outside the bundle\\) at byte 32 "
             "${seeds}/regressions/bundle-offset-past-end")
# --target with FILE: no kernel for that target says so and lists the targets present (exit 1);
# any spelling of a target selects its kernels.
hsm_cli_test(target.no_match 1 "seed_sm_90.cubin: 2 kernel\\(s\\), 0 for gfx942, 0 entries not read\n$"
             "seed_sm_90.cubin: no kernel for target gfx942; targets present: sm_90 \\(2 kernels\\)"
             "--target@@gfx942@@${seeds}/cubin/seed_sm_90.cubin")
hsm_cli_test(target.spelling 0 "2 kernel\\(s\\), 2 for sm_90a, 0 entries not read\n.*seed_smem" "^$"
             "--target@@sm_90a@@${seeds}/cubin/seed_sm_90.cubin")
hsm_cli_test(target.amd 0 "6 kernel\\(s\\), 2 for amdgcn-amd-amdhsa--gfx90a:xnack-, .*\ngfx90a \\(gfx90a: " "^$"
             "--target@@amdgcn-amd-amdhsa--gfx90a:xnack-@@${seeds}/bundle/seed_gfx908_gfx90a_gfx942.bundle")
# --list-targets FILE lists the targets found in FILE.
hsm_cli_test(list_targets.file 0
             "seed_sm_80_sm_90.fatbin: 4 kernel\\(s\\) for 2 target\\(s\\), 1 entry not read\n  sm_80 +2 kernel\\(s\\)\n  sm_90 +2 kernel\\(s\\)\n  skipped: sm_90: PTX beside the cubin"
             "^$" "--list-targets@@${seeds}/fatbin/seed_sm_80_sm_90.fatbin")
hsm_cli_test(list_targets.json 0
             "^{\"file\":\"[^\"]*seed_sm_90.cubin\",\"target\":\"sm_90\",\"base_target\":\"sm_90\",\"kernels\":2,\"modelled\":true}\n$"
             "^$" "--json@@--list-targets@@${seeds}/cubin/seed_sm_90.cubin")
hsm_cli_test(list_targets.bad_file 1 "^$" "no-such-file.co: cannot read"
             "--list-targets@@${CMAKE_CURRENT_BINARY_DIR}/no-such-file.co")

# JSON escaping and the report of a kernel whose target is not modelled, driven in-process
add_executable(arch_model_cli_report ${CMAKE_CURRENT_LIST_DIR}/model_cli_report.c
                                     ${PROJECT_SOURCE_DIR}/arch/cli/occ_report.c)
target_include_directories(arch_model_cli_report PRIVATE ${PROJECT_SOURCE_DIR}/arch/cli)
target_link_libraries(arch_model_cli_report PRIVATE hipsoftmax_arch)
hsm_host_warnings(arch_model_cli_report)
hsm_add_test(NAME arch.cli.json_escape COMMAND arch_model_cli_report LABELS arch cli)
