# Target tables and occupancy models (the tutorial's formula and the exact per-vendor models).
set(ARCH_MODEL_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/arch_targets.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_tutorial.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_occupancy.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_exact_amd.c
    ${CMAKE_CURRENT_LIST_DIR}/arch_exact_nvidia.c)
