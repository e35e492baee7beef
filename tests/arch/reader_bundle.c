/* reader_bundle.c: clang offload bundles, standalone and in a host object's .hip_fatbin, against
 * llvm-readelf --notes of each device code object; several bundles back to back; CCOB bundles.
 * Usage: reader_bundle <bundle> <host-object> <notes.txt>... */
#include "reader_util.h"

static void check_all(const arch_image *img, const ru_oracle *o, size_t n, const char *what)
{
    size_t j;
    RU_CHECK(img->n_kernels == n, "%s: %zu kernels, oracle %zu", what, img->n_kernels, n);
    for (j = 0; j < n; j++)
        ru_check_amd(img, &o[j], what);
}

int main(int argc, char **argv)
{
    static ru_oracle o[RU_MAX_ORACLE];
    size_t n = 0, blen, i;
    uint8_t *bundle, *two, *cc;
    arch_image img;
    int a;

    if (argc < 4) {
        fprintf(stderr, "usage: %s <bundle> <host-object> <notes.txt>...\n", argv[0]);
        return 2;
    }
    for (a = 3; a < argc; a++)
        n += ru_parse_notes(argv[a], o + n, RU_MAX_ORACLE - n);
    RU_CHECK(n > 0, "no kernels in the oracles");
    img = ru_parse_file(argv[1]);
    check_all(&img, o, n, argv[1]);
    arch_image_free(&img);
    img = ru_parse_file(argv[2]);
    check_all(&img, o, n, argv[2]);
    arch_image_free(&img);

    /* two bundles back to back with alignment padding, as a linker lays out .hip_fatbin */
    bundle = ru_load(argv[1], &blen);
    {
        size_t pad = 4096 - blen % 4096, tlen = blen + pad + blen;
        two = calloc(tlen, 1);
        memcpy(two, bundle, blen);
        memcpy(two + blen + pad, bundle, blen);
        RU_CHECK(arch_image_parse(two, tlen, &img) == ARCH_OK, "two bundles");
        RU_CHECK(img.n_kernels == 2 * n, "two bundles: %zu kernels", img.n_kernels);
        arch_image_free(&img);
        free(two);
    }
    /* a CCOB (compressed, version 2: u32 total size at 8) bundle first: listed, then skipped over */
    {
        size_t clen = 32 + blen;
        cc = calloc(clen, 1);
        memcpy(cc, "CCOB", 4);
        cc[4] = 2;  /* version 2 */
        cc[6] = 1;  /* zstd */
        cc[8] = 32; /* total size 32 */
        for (i = 16; i < 32; i++)
            cc[i] = (uint8_t)(0xA0 + i);
        memcpy(cc + 32, bundle, blen);
        RU_CHECK(arch_image_parse(cc, clen, &img) == ARCH_OK, "CCOB then bundle");
        RU_CHECK(img.n_kernels == n && img.n_skipped == 1 && strstr(img.skipped[0], "CCOB"),
                 "CCOB: %zu kernels, %zu skipped", img.n_kernels, img.n_skipped);
        arch_image_free(&img);
        RU_CHECK(arch_image_parse(cc, 32, &img) == ARCH_OK && img.n_kernels == 0 && img.n_skipped == 1,
                 "CCOB alone");
        arch_image_free(&img);
        free(cc);
    }
    free(bundle);
    return ru_finish("arch.reader.bundle");
}
