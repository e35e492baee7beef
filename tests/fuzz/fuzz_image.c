/* fuzz_image.c: arch_image_parse, format detection included. */
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    arch_image img;
    arch_error err;
    arch_status s = arch_image_parse_ex(size ? data : (const uint8_t *)"", size, &img, &err);
    fuzz_check_status(s);
    fuzz_check_error(s, &err, size);
    if (s == ARCH_OK)
        fuzz_check_image(&img);
    else
        FUZZ_ASSERT(img.n_kernels == 0 && img.kernels == NULL && img.n_skipped == 0 && img.skipped == NULL &&
                    img.index == NULL);
    arch_image_free(&img);
    return 0;
}
