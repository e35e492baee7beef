# The library's sources, one list each, shared by both vendors' builds (src/amd, src/nvidia).
set(HSM_HOST_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/device.c
    ${CMAKE_CURRENT_LIST_DIR}/handle.c
    ${CMAKE_CURRENT_LIST_DIR}/kernels.c
    ${CMAKE_CURRENT_LIST_DIR}/log.c
    ${CMAKE_CURRENT_LIST_DIR}/plan.c
    ${CMAKE_CURRENT_LIST_DIR}/problem.c
    ${CMAKE_CURRENT_LIST_DIR}/softmax.c
    ${CMAKE_CURRENT_LIST_DIR}/status.c
    ${CMAKE_CURRENT_LIST_DIR}/validate.c)
set(HSM_KERNEL_SOURCES
    ${PROJECT_SOURCE_DIR}/hip/softmax_warp.hip
    ${PROJECT_SOURCE_DIR}/hip/softmax_row.hip
    ${PROJECT_SOURCE_DIR}/hip/softmax_online.hip
    ${PROJECT_SOURCE_DIR}/hip/softmax_split.hip
    ${PROJECT_SOURCE_DIR}/hip/softmax_channel.hip)
