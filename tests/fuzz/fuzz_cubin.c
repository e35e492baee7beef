/* fuzz_cubin.c: NVIDIA cubins (ELF layer, .nv.info records, per-kernel sections). */
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_run_reader(arch_read_cubin, data, size);
    return 0;
}
