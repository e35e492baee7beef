/* fuzz_amdgpu.c: AMDGPU code objects (ELF layer, note walk, metadata, kernel descriptors). */
#include "fuzz_check.h"

static arch_status read_amdgpu(arch_builder *b, const uint8_t *d, size_t n)
{
    return arch_read_amdgpu(b, d, n, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_run_reader(read_amdgpu, data, size);
    return 0;
}
