/* reader_cubin.c: NVIDIA cubins read by arch/ against ptxas -v.
 * Usage: reader_cubin [--library] <cubin> <ptxas.txt> [<cubin> <ptxas.txt> ...]
 * A "cubin" may be any file arch/ reads NVIDIA kernels from: with --library they are the library's
 * kernel objects, each a fatbin of every target, against the report of the compile that made it. */
#include "reader_util.h"

int main(int argc, char **argv)
{
    static ru_oracle o[RU_MAX_ORACLE];
    int i, any_smem = 0, any_frame = 0, any_max = 0;

    /* --library: the files are the library's own kernels, which need not exercise every field. */
    const int library = argc > 1 && strcmp(argv[1], "--library") == 0;
    if (library) {
        argv++;
        argc--;
    }
    if (argc < 3 || argc % 2 == 0) {
        fprintf(stderr, "usage: %s <cubin> <ptxas.txt> ...\n", argv[0]);
        return 2;
    }
    for (i = 1; i + 1 < argc; i += 2) {
        arch_image img = ru_parse_file(argv[i]);
        size_t n = ru_parse_ptxas(argv[i + 1], o, RU_MAX_ORACLE), j;
        RU_CHECK(n > 0, "%s: no kernels in the oracle", argv[i + 1]);
        RU_CHECK(img.n_kernels == n, "%s: %zu kernels, oracle %zu", argv[i], img.n_kernels, n);
        for (j = 0; j < n; j++) {
            any_smem |= o[j].smem > 0;
            any_frame |= o[j].frame > 0;
            ru_check_nv(&img, &o[j], argv[i]);
        }
        for (j = 0; j < img.n_kernels; j++)
            any_max |= img.kernels[j].max_block > 0;
        arch_image_free(&img);
    }
    RU_CHECK(library || (any_smem && any_frame && any_max), "stress kernels cover smem %d frame %d launch bounds %d", any_smem,
             any_frame, any_max);
    return ru_finish(library ? "arch.reader.cubin (library kernels)" : "arch.reader.cubin");
}
