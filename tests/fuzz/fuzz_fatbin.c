/* fuzz_fatbin.c: NVIDIA fatbin containers and their entries. */
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_run_reader(arch_read_fatbins, data, size);
    return 0;
}
