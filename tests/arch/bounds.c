/* arch.bounds.*: inputs that once made the readers run for minutes, generated at test time
 * (gen_inputs.h), each parsed in under ARCH_BOUNDS_LIMIT_S or refused with the expected status.
 * Usage: arch_bounds CASE...        parse each case, check status, kernel count and time
 *        arch_bounds --all          every case
 *        arch_bounds --write DIR    write every case to DIR/<case>, DIR created when missing (seeds
 *                                   of the large-input fuzz job and of the fuzz.large.* tests)
 *        arch_bounds --list         the case names */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, mkdir */
#include <sys/stat.h>
#include <time.h>

#include "gen_inputs.h"
#include "reader_util.h"

/* One second per input in CI (ASan/UBSan, 2 cores); the fixed readers take milliseconds. */
#define ARCH_BOUNDS_LIMIT_S 1.0

typedef enum gen_case {
    CUBIN_SECTIONS,
    CUBIN_RECORDS,
    AMDGPU_SYMBOLS,
    BUNDLE_SHARED_PAYLOAD,
    FATBIN_PTX,
    CUBIN_SHARED_INFO,
    AMDGPU_LONG_NAMES,
    AMDGPU_NOTE_COPIES,
    BUNDLE_PAYLOAD_SIZES,
    N_CASES
} gen_case;

typedef struct bounds_case {
    const char *name;
    arch_status want;
    long kernels; /* expected kernel count on success */
    const char *what;
} bounds_case;

static const bounds_case cases[N_CASES] = {
    [CUBIN_SECTIONS] = {"cubin-sections", ARCH_OK, 65000, "cubin, 65,000 .nv.info.k sections"},
    [CUBIN_RECORDS] = {"cubin-records", ARCH_OK, 20000, "cubin, 20,000 kernels + 2M .nv.info records"},
    [AMDGPU_SYMBOLS] = {"amdgpu-symbols", ARCH_OK, 65536, "AMDGPU object, 65,536 kernels x 100k symbols"},
    [BUNDLE_SHARED_PAYLOAD] = {"bundle-shared-payload", ARCH_OK, 1, "bundle, 20,000 entries, one payload"},
    [FATBIN_PTX] = {"fatbin-ptx", ARCH_OK, 0, "fatbin, 4096 PTX entries of 4000 bytes"},
    /* hostile variants: each structure is valid, only the work is out of proportion */
    [CUBIN_SHARED_INFO] = {"cubin-shared-info", ARCH_ERR_LIMIT, 0, "cubin, 65,000 .nv.info.k on one 1 MiB"},
    [AMDGPU_LONG_NAMES] = {"amdgpu-long-names", ARCH_ERR_LIMIT, 0, "AMDGPU object, 100k names in one 4 MiB"},
    [AMDGPU_NOTE_COPIES] = {"amdgpu-note-copies", ARCH_ERR_LIMIT, 0, "AMDGPU object, 60,000 notes on one 1 MiB"},
    [BUNDLE_PAYLOAD_SIZES] = {"bundle-payload-sizes", ARCH_ERR_LIMIT, 0, "bundle, 20,000 entries, growing sizes"},
};

static uint8_t *generate(gen_case c, size_t *len)
{
    switch (c) {
    case CUBIN_SECTIONS: return gen_cubin_sections(65000, 0, len);
    case CUBIN_RECORDS: return gen_cubin_records(20000, 2000000, len);
    case AMDGPU_SYMBOLS: return gen_amdgpu(65536, 100000, 0, 0, 0, 0, len);
    case BUNDLE_SHARED_PAYLOAD: return gen_bundle_shared(20000, 3800000, 0, len);
    case FATBIN_PTX: return gen_fatbin_ptx(4096, 4000, len);
    case CUBIN_SHARED_INFO: return gen_cubin_sections(65000, 1u << 20, len);
    case AMDGPU_LONG_NAMES: return gen_amdgpu(16, 100000, 4u << 20, 0, 0, 0, len);
    case AMDGPU_NOTE_COPIES: return gen_amdgpu(1, 1, 0, 0, 60000, 1u << 20, len);
    case BUNDLE_PAYLOAD_SIZES: return gen_bundle_shared(20000, 3800000, 1, len);
    case N_CASES: break;
    }
    return NULL;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void run_case(gen_case c)
{
    const bounds_case *bc = &cases[c];
    size_t len;
    uint8_t *d = generate(c, &len);
    arch_image img;
    arch_error err;
    char msg[256];
    double t0 = now_s();
    arch_status s = arch_image_parse_ex(d, len, &img, &err);
    double dt = now_s() - t0;
    printf("%-22s %9zu bytes  %-18s %6zu kernels %5zu not read  %.3f s  (%s)\n", bc->name, len,
           arch_status_string(s), img.n_kernels, img.n_skipped, dt, bc->what);
    if (s != ARCH_OK)
        printf("  %s\n", arch_error_format(&err, msg, sizeof msg));
    RU_CHECK(s == bc->want, "%s: %s, want %s", bc->name, arch_status_string(s), arch_status_string(bc->want));
    /* a refusal names the budget and where it ran out */
    RU_CHECK(s != ARCH_ERR_LIMIT || (strstr(err.what, "work budget") && err.offset >= 0 && (size_t)err.offset < len),
             "%s: refused as '%s' at %lld", bc->name, err.what, (long long)err.offset);
    RU_CHECK(s != ARCH_OK || (long)img.n_kernels == bc->kernels, "%s: %zu kernels, want %ld", bc->name,
             img.n_kernels, bc->kernels);
    RU_CHECK(dt < ARCH_BOUNDS_LIMIT_S, "%s: %.3f s, limit %.1f s", bc->name, dt, ARCH_BOUNDS_LIMIT_S);
    arch_image_free(&img);
    free(d);
}

static int write_all(const char *dir)
{
    mkdir(dir, 0755); /* an existing directory is fine; a failure shows at fopen */
    for (int c = 0; c < N_CASES; c++) {
        char path[4096];
        size_t len;
        uint8_t *d = generate((gen_case)c, &len);
        snprintf(path, sizeof path, "%s/%s", dir, cases[c].name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(d, 1, len, f) != len || fclose(f) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            free(d);
            return 1;
        }
        free(d);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write") == 0)
        return write_all(argv[2]);
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int c = 0; c < N_CASES; c++)
            printf("%s\n", cases[c].name);
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s CASE... | --all | --write DIR | --list\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        int found = 0;
        for (int c = 0; c < N_CASES; c++) {
            if (strcmp(argv[i], "--all") == 0 || strcmp(argv[i], cases[c].name) == 0) {
                run_case((gen_case)c);
                found = 1;
            }
        }
        if (!found) {
            fprintf(stderr, "unknown case '%s' (see --list)\n", argv[i]);
            return 2;
        }
    }
    return ru_finish("arch.bounds");
}
