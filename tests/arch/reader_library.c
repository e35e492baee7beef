/* reader_library.c: the library's own shared objects carry hsm_* kernels for every built target.
 * Usage: reader_library <shared-object> <target>... */
#include "reader_util.h"

int main(int argc, char **argv)
{
    arch_image img;
    size_t i;
    int t;

    if (argc < 3) {
        fprintf(stderr, "usage: %s <shared-object> <target>...\n", argv[0]);
        return 2;
    }
    img = ru_parse_file(argv[1]);
    RU_CHECK(img.n_kernels > 0, "%s: no kernels", argv[1]);
    for (i = 0; i < img.n_kernels; i++)
        RU_CHECK(strncmp(img.kernels[i].name, "hsm_", 4) == 0, "%s: kernel %s is not hsm_*", argv[1],
                 img.kernels[i].name);
    for (t = 2; t < argc; t++) {
        size_t found = 0, bl = strlen(argv[t]);
        for (i = 0; i < img.n_kernels; i++)
            found += strncmp(img.kernels[i].target, argv[t], bl) == 0 &&
                     (img.kernels[i].target[bl] == 0 || img.kernels[i].target[bl] == ':' ||
                      img.kernels[i].target[bl] == 'a');
        RU_CHECK(found > 0, "%s: no kernels for %s", argv[1], argv[t]);
        printf("%s: %zu kernels\n", argv[t], found);
    }
    for (i = 0; i < img.n_skipped; i++)
        printf("  skipped: %s\n", img.skipped[i]);
    arch_image_free(&img);
    return ru_finish("arch.reader.library");
}
