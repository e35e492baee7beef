/* hipsoftmax-occupancy: prints, for every kernel of any code object, bundle, cubin, fatbin, object
 * file, executable or shared library, both occupancy models (the Triton tutorial's formula and the
 * exact per-vendor model); or, without a file, the same for a kernel described on the command line.
 *
 * Exit status: 0 success; 1 a file could not be read or parsed, or holds no kernel for --target
 * (the other files are still reported); 2 bad arguments. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "occ_report.h"

/* Defaults: a 256-thread block (4 waves / 8 warps, the row kernel's shape) and the tutorial's
 * benchmark height of 4096 rows. */
#define OCC_DEFAULT_BLOCK 256
#define OCC_DEFAULT_ROWS 4096
/* Largest block accepted on the command line: above every device's 1024, so that the models can
 * report "block_size" rather than the parser refusing. */
#define OCC_MAX_BLOCK 65536
/* Code objects and host binaries that embed them are far smaller; the cap bounds memory use and
 * is checked before reading (arch_read_file). */
#define OCC_MAX_FILE ((size_t)1 << 30)
#define OCC_MAX_FILE_TEXT "1 GiB"
/* Wave slots per SIMD: gfx9 hardware has at most 10 (LLVM, gfx908); 16 leaves room for experiments. */
#define OCC_MAX_WAVES_PER_SIMD 16

static const char occ_usage[] =
    "usage: hipsoftmax-occupancy [options] FILE...\n"
    "       hipsoftmax-occupancy --target gfx942 --vgprs N [--agprs N] [--sgprs N] [--lds BYTES] [options]\n"
    "       hipsoftmax-occupancy --target sm_90 --regs N [--smem BYTES] [options]\n"
    "       hipsoftmax-occupancy --list-targets [FILE...]\n"
    "options:\n"
    "  --block N               threads per block (default 256)\n"
    "  --rows M                rows of the softmax, for num_programs (default 4096)\n"
    "  --json                  one JSON object per kernel and target, one per line\n"
    "  --regs-per-block R      CDNA regsPerBlock for the tutorial model: 65536 or 131072\n"
    "                          (default: both shown where they differ)\n"
    "  --waves-per-simd N      AMD wave slots per SIMD for the exact model (gfx908: clr 8, LLVM 10)\n"
    "  --llvm-barrier-limit    exact AMD model: at most 16 multi-wave workgroups per CU (LLVM)\n"
    "  --llvm-lds-granule      exact AMD model: LDS allocated in 512-byte granules (LLVM)\n"
    "  --target T              what-if target (gfx908, gfx90a, gfx942, sm_80, sm_86, sm_89, sm_90);\n"
    "                          with FILE, report only the kernels built for T\n"
    "  --list-targets          the targets modelled; with FILE, the targets FILE holds kernels for\n"
    "  --vgprs/--agprs/--sgprs N, --lds BYTES     what-if AMD kernel (--vgprs: architectural VGPRs)\n"
    "  --regs N, --smem BYTES                     what-if NVIDIA kernel\n";

typedef struct occ_args {
    occ_settings st;
    const char *target;
    long long vgprs, agprs, sgprs, lds, regs, smem; /* -1 = not given */
    int list_targets;
    int n_files;
    char **files;
} occ_args;

static int occ_bad(const char *fmt, const char *arg)
{
    fputs("hipsoftmax-occupancy: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(run with --help for usage)\n", stderr);
    return 2;
}

/* Parses a whole decimal argument within [lo, hi]; returns 0 on any junk or out-of-range value. */
static int occ_parse_ll(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    if (s == NULL || *s == '\0')
        return 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

typedef struct occ_numopt {
    const char *name;
    long long lo, hi;
    long long *dst;
} occ_numopt;

/* Returns 0 to go on, 2 on a bad argument (message printed), -1 for --help. */
static int occ_parse_args(int argc, char **argv, occ_args *a)
{
    long long block = OCC_DEFAULT_BLOCK, rows = OCC_DEFAULT_ROWS, rpb = 0, wps = 0;
    const occ_numopt nums[] = {
        {"--block", 1, OCC_MAX_BLOCK, &block},
        {"--rows", 0, INT64_MAX, &rows},
        {"--regs-per-block", 65536, 131072, &rpb},
        {"--waves-per-simd", 1, OCC_MAX_WAVES_PER_SIMD, &wps},
        {"--vgprs", 0, 1024, &a->vgprs},
        {"--agprs", 0, 1024, &a->agprs},
        {"--sgprs", 0, 1024, &a->sgprs},
        {"--lds", 0, UINT32_MAX, &a->lds},
        {"--regs", 0, 1024, &a->regs},
        {"--smem", 0, UINT32_MAX, &a->smem},
    };
    a->vgprs = a->agprs = a->sgprs = a->lds = a->regs = a->smem = -1;
    a->files = calloc((size_t)argc, sizeof *a->files);
    if (a->files == NULL) {
        fputs("hipsoftmax-occupancy: out of memory\n", stderr);
        return 2;
    }
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (only_files || o[0] != '-' || strcmp(o, "-") == 0) {
            a->files[a->n_files++] = argv[i];
            continue;
        }
        if (strcmp(o, "--") == 0) {
            only_files = 1;
        } else if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            return -1;
        } else if (strcmp(o, "--json") == 0) {
            a->st.json = 1;
        } else if (strcmp(o, "--list-targets") == 0) {
            a->list_targets = 1;
        } else if (strcmp(o, "--llvm-barrier-limit") == 0) {
            a->st.amd.llvm_barrier_limit = 1;
        } else if (strcmp(o, "--llvm-lds-granule") == 0) {
            a->st.amd.llvm_lds_granule = 1;
        } else if (strcmp(o, "--target") == 0) {
            if (i + 1 >= argc)
                return occ_bad("%s needs a value", o);
            a->target = argv[++i];
        } else {
            size_t j = 0;
            while (j < sizeof nums / sizeof nums[0] && strcmp(o, nums[j].name) != 0)
                j++;
            if (j == sizeof nums / sizeof nums[0])
                return occ_bad("unknown option '%s'", o);
            if (i + 1 >= argc)
                return occ_bad("%s needs a value", o);
            if (!occ_parse_ll(argv[i + 1], nums[j].lo, nums[j].hi, nums[j].dst)) {
                fprintf(stderr, "hipsoftmax-occupancy: %s: '%s' is not an integer in [%lld, %lld]\n", o,
                        argv[i + 1], nums[j].lo, nums[j].hi);
                return 2;
            }
            i++;
        }
    }
    if (rpb != 0 && rpb != 65536 && rpb != 131072) {
        fprintf(stderr, "hipsoftmax-occupancy: --regs-per-block must be 65536 or 131072, not %lld\n", rpb);
        return 2;
    }
    a->st.block = (int)block;
    a->st.rows = rows;
    a->st.regs_per_block = (int)rpb;
    a->st.waves_per_simd = (int)wps;
    return 0;
}

/* What-if: builds the kernel the options describe, as the reader would from a code object. */
static int occ_whatif(const occ_args *a)
{
    arch_device d;
    if (arch_target_lookup(a->target, 0, &d) != ARCH_OK)
        return occ_bad("unknown target '%s' (see --list-targets)", a->target);
    arch_kernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "(what-if)");
    snprintf(k.target, sizeof k.target, "%s", a->target);
    k.vendor = d.vendor;
    k.wave_size = d.warp_size;
    k.vgpr_spills = k.sgpr_spills = -1;
    if (d.vendor == ARCH_VENDOR_AMD) {
        if (a->regs >= 0 || a->smem >= 0)
            return occ_bad("%s is an AMD target: use --vgprs/--agprs/--sgprs/--lds", a->target);
        if (a->vgprs < 0)
            return occ_bad("%s", "an AMD what-if needs --vgprs");
        const int v = (int)a->vgprs, ag = a->agprs < 0 ? 0 : (int)a->agprs;
        /* .vgpr_count as LLVM reports it: gfx90a/gfx942 place AGPRs after the 4-aligned
         * architectural VGPRs of the unified file; gfx908 has two files and counts the larger */
        if (d.vgprs_per_simd_lane == 512)
            k.vgprs = ag > 0 ? (v + 3) / 4 * 4 + ag : v;
        else
            k.vgprs = v > ag ? v : ag;
        k.agprs = ag;
        k.sgprs = a->sgprs < 0 ? 0 : (int)a->sgprs;
        k.regs = k.vgprs;
        k.static_smem = a->lds < 0 ? 0 : (uint32_t)a->lds;
    } else {
        if (a->vgprs >= 0 || a->agprs >= 0 || a->sgprs >= 0 || a->lds >= 0)
            return occ_bad("%s is an NVIDIA target: use --regs/--smem", a->target);
        if (a->st.waves_per_simd > 0)
            return occ_bad("%s", "--waves-per-simd applies to AMD targets only");
        if (a->regs < 0)
            return occ_bad("%s", "an NVIDIA what-if needs --regs");
        k.regs = (int)a->regs;
        k.agprs = -1;
        k.static_smem = a->smem < 0 ? 0 : (uint32_t)a->smem;
    }
    occ_report_begin(stdout);
    occ_report_kernel(stdout, &a->st, NULL, &k);
    return 0;
}

/* Reads a whole file (or stdin for "-") into a heap buffer, bounded before reading (arch_read_file:
 * regular files only, size checked first; stdin may also be a pipe). Prints the reason and
 * returns 0 on failure. */
static int occ_read_file(const char *path, void **data, size_t *len)
{
    arch_error err;
    char msg[256];
    arch_status s = strcmp(path, "-") == 0 ? arch_read_fd(0, OCC_MAX_FILE, data, len, &err)
                                           : arch_read_file(path, OCC_MAX_FILE, data, len, &err);
    if (s == ARCH_OK)
        return 1;
    if (s == ARCH_ERR_LIMIT && err.size >= 0)
        snprintf(msg, sizeof msg, "file of %lld bytes is larger than the " OCC_MAX_FILE_TEXT " limit",
                 (long long)err.size);
    else if (s == ARCH_ERR_LIMIT)
        snprintf(msg, sizeof msg, "input longer than the " OCC_MAX_FILE_TEXT " limit");
    else
        arch_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "hipsoftmax-occupancy: %s: cannot read: %s\n", path, msg);
    return 0;
}

/* Reads and parses one file. Prints the reason and returns 0 on failure. */
static int occ_load(const char *path, arch_image *img)
{
    void *data = NULL;
    size_t len = 0;
    arch_error err;
    char msg[256];
    memset(img, 0, sizeof *img);
    if (!occ_read_file(path, &data, &len))
        return 0;
    arch_status s = arch_image_parse_ex(data, len, img, &err);
    free(data);
    if (s != ARCH_OK) {
        /* which structure failed and where: "corrupt input: ELF section header (...) at byte N" */
        fprintf(stderr, "hipsoftmax-occupancy: %s: %s\n", path, arch_error_format(&err, msg, sizeof msg));
        return 0;
    }
    return 1;
}

/* The distinct targets of an image's kernels, in name order, with their kernel counts. */
typedef struct occ_target_count {
    const char *target;
    size_t kernels;
} occ_target_count;

static int occ_cmp_target(const void *a, const void *b)
{
    return strcmp((*(const arch_kernel *const *)a)->target, (*(const arch_kernel *const *)b)->target);
}

/* Returns the number of distinct targets written to *out (heap, free it; NULL when none), or
 * (size_t)-1 when out of memory. Sorting keeps this O(n log n) for images of many kernels. */
static size_t occ_targets(const arch_image *img, occ_target_count **out)
{
    *out = NULL;
    if (img->n_kernels == 0)
        return 0;
    const arch_kernel **ks = malloc(img->n_kernels * sizeof *ks);
    occ_target_count *tc = malloc(img->n_kernels * sizeof *tc);
    if (ks == NULL || tc == NULL) {
        free(ks);
        free(tc);
        return (size_t)-1;
    }
    for (size_t i = 0; i < img->n_kernels; i++)
        ks[i] = &img->kernels[i];
    qsort(ks, img->n_kernels, sizeof *ks, occ_cmp_target);
    size_t n = 0;
    for (size_t i = 0; i < img->n_kernels; i++) {
        if (n > 0 && strcmp(tc[n - 1].target, ks[i]->target) == 0) {
            tc[n - 1].kernels++;
        } else {
            tc[n].target = ks[i]->target;
            tc[n].kernels = 1;
            n++;
        }
    }
    free(ks);
    *out = tc;
    return n;
}

/* --list-targets FILE: the targets a file holds kernels for. */
static int occ_list_file(const occ_args *a, const char *path)
{
    arch_image img;
    if (!occ_load(path, &img))
        return 1;
    occ_target_count *tc;
    size_t n = occ_targets(&img, &tc);
    if (n == (size_t)-1) {
        fprintf(stderr, "hipsoftmax-occupancy: %s: out of memory\n", path);
        arch_image_free(&img);
        return 1;
    }
    if (!a->st.json)
        printf("%s: %zu kernel(s) for %zu target(s), %zu entr%s not read\n", path, img.n_kernels, n,
               img.n_skipped, img.n_skipped == 1 ? "y" : "ies");
    for (size_t i = 0; i < n; i++) {
        char base[80];
        arch_device d;
        const int modelled = arch_target_lookup(tc[i].target, 0, &d) == ARCH_OK;
        if (arch_target_base(tc[i].target, base, sizeof base) != ARCH_OK)
            snprintf(base, sizeof base, "%s", tc[i].target);
        if (a->st.json) {
            fputs("{\"file\":", stdout);
            occ_json_string(stdout, path);
            fputs(",\"target\":", stdout);
            occ_json_string(stdout, tc[i].target);
            fputs(",\"base_target\":", stdout);
            occ_json_string(stdout, base);
            printf(",\"kernels\":%zu,\"modelled\":%s}\n", tc[i].kernels, modelled ? "true" : "false");
        } else {
            printf("  %-28s %6zu kernel(s)%s\n", tc[i].target, tc[i].kernels, modelled ? "" : "  (not modelled)");
        }
    }
    for (size_t i = 0; i < img.n_skipped; i++)
        occ_report_skipped(stdout, &a->st, path, img.skipped[i]);
    free(tc);
    arch_image_free(&img);
    return 0;
}

/* Says that no kernel of path matches --target, and which targets it has. */
static void occ_no_match(const arch_image *img, const char *path, const char *target)
{
    occ_target_count *tc;
    size_t n = occ_targets(img, &tc);
    fprintf(stderr, "hipsoftmax-occupancy: %s: no kernel for target %s; targets present:", path, target);
    if (n == 0 || n == (size_t)-1)
        fputs(n == 0 ? " none" : " (out of memory)", stderr);
    for (size_t i = 0; i < n && n != (size_t)-1; i++)
        fprintf(stderr, "%s %s (%zu kernel%s)", i ? "," : "", tc[i].target, tc[i].kernels,
                tc[i].kernels == 1 ? "" : "s");
    fputc('\n', stderr);
    free(tc);
}

static int occ_report_file(const occ_args *a, const arch_device *only, const char *path)
{
    arch_image img;
    if (!occ_load(path, &img))
        return 1;
    /* with --target, only the kernels built for that target: base names compared, as
     * arch_image_find does (arch_target_base) */
    size_t matched = 0;
    char *match = calloc(img.n_kernels ? img.n_kernels : 1, 1);
    if (match == NULL) {
        fprintf(stderr, "hipsoftmax-occupancy: %s: out of memory\n", path);
        arch_image_free(&img);
        return 1;
    }
    for (size_t i = 0; i < img.n_kernels; i++) {
        char base[80];
        match[i] = only == NULL || (arch_target_base(img.kernels[i].target, base, sizeof base) == ARCH_OK &&
                                    strcmp(base, only->name) == 0);
        matched += match[i] != 0;
    }
    if (!a->st.json) {
        printf("%s: %zu kernel(s)", path, img.n_kernels);
        if (only != NULL)
            printf(", %zu for %s", matched, a->target);
        printf(", %zu entr%s not read\n", img.n_skipped, img.n_skipped == 1 ? "y" : "ies");
    }
    occ_report_begin(stdout);
    for (size_t i = 0; i < img.n_kernels; i++)
        if (match[i])
            occ_report_kernel(stdout, &a->st, path, &img.kernels[i]);
    for (size_t i = 0; i < img.n_skipped; i++)
        occ_report_skipped(stdout, &a->st, path, img.skipped[i]);
    int rc = 0;
    if (only != NULL && matched == 0) {
        occ_no_match(&img, path, a->target);
        rc = 1;
    }
    free(match);
    arch_image_free(&img);
    return rc;
}

int main(int argc, char **argv)
{
    occ_args a;
    arch_device only;
    memset(&a, 0, sizeof a);
    int rc = occ_parse_args(argc, argv, &a);
    if (rc == -1) {
        fputs(occ_usage, stdout);
        free(a.files);
        return 0;
    }
    if (rc == 0 && a.list_targets && a.n_files > 0) {
        for (int i = 0; i < a.n_files; i++)
            if (occ_list_file(&a, a.files[i]) != 0)
                rc = 1;
    } else if (rc == 0 && a.list_targets) {
        for (size_t i = 0; i < arch_target_count(); i++) {
            arch_device d;
            if (arch_target_lookup(arch_target_name(i), 0, &d) == ARCH_OK)
            {
                const int amd = d.vendor == ARCH_VENDOR_AMD;
                printf("%-7s %s %3d %s, %s %d, %zu KiB shared per %s\n", d.name, amd ? "amd   " : "nvidia",
                       d.num_cus, amd ? "CUs" : "SMs", amd ? "wave" : "warp", d.warp_size, d.smem_per_cu / 1024,
                       amd ? "CU" : "SM");
            }
        }
    } else if (rc == 0 && a.n_files == 0) {
        rc = a.target == NULL ? occ_bad("%s", "no FILE and no --target: nothing to report") : occ_whatif(&a);
    } else if (rc == 0) {
        if (a.vgprs >= 0 || a.agprs >= 0 || a.sgprs >= 0 || a.lds >= 0 || a.regs >= 0 || a.smem >= 0) {
            rc = occ_bad("%s", "--vgprs/--agprs/--sgprs/--lds/--regs/--smem describe a what-if kernel: "
                               "give them without FILE");
        } else if (a.target != NULL && arch_target_lookup(a.target, 0, &only) != ARCH_OK) {
            rc = occ_bad("unknown target '%s' (see --list-targets)", a.target);
        } else {
            for (int i = 0; i < a.n_files; i++)
                if (occ_report_file(&a, a.target != NULL ? &only : NULL, a.files[i]) != 0)
                    rc = 1;
        }
    }
    fflush(stdout);
    free(a.files);
    return rc;
}
