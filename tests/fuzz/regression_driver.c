/* regression_driver.c: feeds every file of the given corpus directories (or files) to a fuzz
 * target's LLVMFuzzerTestOneInput, so each target is an ordinary test without libFuzzer. Each
 * input is held in a buffer of exactly its size, so sanitizers catch a one-byte overread. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    uint8_t *d;
    size_t n;

    if (!f || stat(path, &st) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    n = (size_t)st.st_size;
    d = malloc(n ? n : 1);
    if (!d || fread(d, 1, n, f) != n) {
        fprintf(stderr, "cannot read %s\n", path);
        fclose(f);
        free(d);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(d, n);
    free(d);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int i, fails = 0;
    size_t total = 0;

    for (i = 1; i < argc; i++) {
        DIR *dir = opendir(argv[i]);
        struct dirent *e;
        char **names = NULL;
        size_t n = 0, cap = 0, k;

        if (!dir) {
            fails += run_file(argv[i]);
            total++;
            continue;
        }
        while ((e = readdir(dir)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                names = realloc(names, cap * sizeof(*names));
                if (!names)
                    return 1;
            }
            names[n] = malloc(strlen(argv[i]) + strlen(e->d_name) + 2);
            if (!names[n])
                return 1;
            sprintf(names[n], "%s/%s", argv[i], e->d_name);
            n++;
        }
        closedir(dir);
        if (n)
            qsort(names, n, sizeof(*names), cmp); /* a stable order makes failures reproducible */
        for (k = 0; k < n; k++) {
            fails += run_file(names[k]);
            free(names[k]);
        }
        total += n;
        free(names);
    }
    printf("%zu inputs run, %d unreadable\n", total, fails);
    return fails != 0 || total == 0;
}
