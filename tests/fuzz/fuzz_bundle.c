/* fuzz_bundle.c: clang offload bundles, back to back, CCOB included. */
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_run_reader(arch_read_bundles, data, size);
    return 0;
}
