/* reader_fatbin.c: NVIDIA fatbins, standalone and in a host object's .nv_fatbin, against ptxas -v;
 * a fatbin whose entries are all compressed is listed entry by entry and never misread.
 * Usage: reader_fatbin <fatbin> <host-object> <compressed-fatbin> <ptxas.txt> */
#include "reader_util.h"

static size_t count_lines(const arch_image *img, const char *word)
{
    size_t i, n = 0;
    for (i = 0; i < img->n_skipped; i++)
        n += strstr(img->skipped[i], word) != NULL;
    return n;
}

int main(int argc, char **argv)
{
    static ru_oracle o[RU_MAX_ORACLE];
    size_t n, j;
    int i;
    arch_image c;

    if (argc != 5) {
        fprintf(stderr, "usage: %s <fatbin> <host-object> <compressed-fatbin> <ptxas.txt>\n", argv[0]);
        return 2;
    }
    n = ru_parse_ptxas(argv[4], o, RU_MAX_ORACLE);
    RU_CHECK(n > 0, "%s: no kernels in the oracle", argv[4]);
    for (i = 1; i <= 2; i++) {
        arch_image img = ru_parse_file(argv[i]);
        RU_CHECK(img.n_kernels == n, "%s: %zu kernels, oracle %zu", argv[i], img.n_kernels, n);
        for (j = 0; j < n; j++)
            ru_check_nv(&img, &o[j], argv[i]);
        RU_CHECK(count_lines(&img, "PTX") >= 1, "%s: the PTX entry is not listed", argv[i]);
        RU_CHECK(arch_image_find(&img, "sm_80", o[0].name) && arch_image_find(&img, "sm_90a", o[0].name),
                 "%s: both SM targets", argv[i]);
        arch_image_free(&img);
    }
    c = ru_parse_file(argv[3]);
    RU_CHECK(c.n_kernels == 0, "%s: %zu kernels read from compressed entries", argv[3], c.n_kernels);
    RU_CHECK(count_lines(&c, "compressed entry, not read") == 2, "%s: compressed entries not listed", argv[3]);
    for (j = 0; j < c.n_skipped; j++)
        printf("  skipped: %s\n", c.skipped[j]);
    arch_image_free(&c);
    return ru_finish("arch.reader.fatbin");
}
