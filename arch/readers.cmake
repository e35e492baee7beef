# The code-object readers of arch/ (AMDGPU ELF and its MessagePack metadata, clang offload bundles,
# NVIDIA cubins and fatbins, host files that embed them). Plain C11 over libc.
set(ARCH_READER_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/arch_amdgpu.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_bundle.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_cubin.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_elf.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_fatbin.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_file.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_image.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_index.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_msgpack.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_status.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_work.c)
