/* reader_amdgpu.c: AMDGPU code objects read by arch/ against llvm-readelf --notes.
 * Usage: reader_amdgpu [--library] <code-object> <notes.txt> [<code-object> <notes.txt> ...] */
#include "reader_util.h"

int main(int argc, char **argv)
{
    static ru_oracle o[RU_MAX_ORACLE];
    int i, any_agpr = 0, any_spill = 0, any_lds = 0, any_scratch = 0;

    /* --library: the files are the library's own kernels, which need not exercise every field. */
    const int library = argc > 1 && strcmp(argv[1], "--library") == 0;
    if (library) {
        argv++;
        argc--;
    }
    if (argc < 3 || argc % 2 == 0) {
        fprintf(stderr, "usage: %s <code-object> <notes.txt> ...\n", argv[0]);
        return 2;
    }
    for (i = 1; i + 1 < argc; i += 2) {
        arch_image img = ru_parse_file(argv[i]);
        size_t n = ru_parse_notes(argv[i + 1], o, RU_MAX_ORACLE), j;
        RU_CHECK(n > 0, "%s: no kernels in the oracle", argv[i + 1]);
        RU_CHECK(img.n_kernels == n, "%s: %zu kernels, oracle %zu", argv[i], img.n_kernels, n);
        RU_CHECK(img.n_skipped == 0, "%s: %zu entries skipped", argv[i], img.n_skipped);
        for (j = 0; j < n; j++) {
            ru_check_amd(&img, &o[j], argv[i]);
            any_agpr |= o[j].agprs > 0;
            any_spill |= o[j].vspill > 0;
            any_lds |= o[j].lds > 0;
            any_scratch |= o[j].scratch > 0;
        }
        arch_image_free(&img);
    }
    /* the stress kernels must exercise every field, or the comparison above proves little */
    RU_CHECK(library || (any_agpr && any_spill && any_lds && any_scratch), "stress kernels cover agpr %d spill %d lds %d scratch %d",
             any_agpr, any_spill, any_lds, any_scratch);
    return ru_finish(library ? "arch.reader.amdgpu (library kernels)" : "arch.reader.amdgpu");
}
