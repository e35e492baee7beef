/* fuzz_msgpack.c: the AMDGPU metadata MessagePack payload alone (limits on depth, counts, node count). */
#include "fuzz_check.h"

static arch_status read_metadata(arch_builder *b, const uint8_t *d, size_t n)
{
    return arch_read_amdgpu_metadata(b, d, n, "gfx942");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_run_reader(read_metadata, data, size);
    return 0;
}
