/* hipsoftmax-occupancy: prints, for every kernel of any code object, bundle, cubin, fatbin, object
 * file, executable or shared library, both occupancy models (the Triton tutorial's formula and the
 * exact per-vendor model); or, without a file, the same for a kernel described on the command line.
 *
 * Exit status: 0 success; 1 a file could not be read or parsed (the other files are still
 * reported); 2 bad arguments. */
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
/* Code objects and host binaries that embed them are far smaller; the cap bounds memory use. */
#define OCC_MAX_FILE ((size_t)1 << 30)
/* Wave slots per SIMD: gfx9 hardware has at most 10 (LLVM, gfx908); 16 leaves room for experiments. */
#define OCC_MAX_WAVES_PER_SIMD 16

static const char occ_usage[] =
    "usage: hipsoftmax-occupancy [options] FILE...\n"
    "       hipsoftmax-occupancy --target gfx942 --vgprs N [--agprs N] [--sgprs N] [--lds BYTES] [options]\n"
    "       hipsoftmax-occupancy --target sm_90 --regs N [--smem BYTES] [options]\n"
    "       hipsoftmax-occupancy --list-targets\n"
    "options:\n"
    "  --block N               threads per block (default 256)\n"
    "  --rows M                rows of the softmax, for num_programs (default 4096)\n"
    "  --json                  one JSON object per kernel and target, one per line\n"
    "  --regs-per-block R      CDNA regsPerBlock for the tutorial model: 65536 or 131072\n"
    "                          (default: both shown where they differ)\n"
    "  --waves-per-simd N      AMD wave slots per SIMD for the exact model (gfx908: clr 8, LLVM 10)\n"
    "  --llvm-barrier-limit    exact AMD model: at most 16 multi-wave workgroups per CU (LLVM)\n"
    "  --llvm-lds-granule      exact AMD model: LDS allocated in 512-byte granules (LLVM)\n"
    "  --target T              what-if target (gfx908, gfx90a, gfx942, sm_80, sm_86, sm_89, sm_90)\n"
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

/* Reads a whole file (or stdin for "-") into a heap buffer. Returns an errno-style message or NULL. */
static const char *occ_read_file(const char *path, unsigned char **data, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL)
        return strerror(errno);
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    const char *err = NULL;
    while (buf != NULL) {
        if (n == cap) {
            if (cap >= OCC_MAX_FILE) {
                err = "file larger than 1 GiB";
                break;
            }
            unsigned char *nb = realloc(buf, cap * 2);
            if (nb == NULL) {
                err = "out of memory";
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                err = "read error";
            break;
        }
    }
    if (buf == NULL)
        err = "out of memory";
    if (f != stdin)
        fclose(f);
    if (err != NULL) {
        free(buf);
        return err;
    }
    *data = buf;
    *len = n;
    return NULL;
}

static int occ_report_file(const occ_args *a, const arch_device *only, const char *path)
{
    unsigned char *data = NULL;
    size_t len = 0;
    const char *err = occ_read_file(path, &data, &len);
    if (err != NULL) {
        fprintf(stderr, "hipsoftmax-occupancy: %s: cannot read: %s\n", path, err);
        return 1;
    }
    arch_image img;
    memset(&img, 0, sizeof img);
    arch_status s = arch_image_parse(data, len, &img);
    free(data);
    if (s != ARCH_OK) {
        fprintf(stderr, "hipsoftmax-occupancy: %s: %s\n", path, arch_status_string(s));
        return 1;
    }
    if (!a->st.json)
        printf("%s: %zu kernel(s), %zu entr%s not read\n", path, img.n_kernels, img.n_skipped,
               img.n_skipped == 1 ? "y" : "ies");
    occ_report_begin(stdout);
    for (size_t i = 0; i < img.n_kernels; i++) {
        arch_device d;
        /* with --target, only the kernels built for that target */
        if (only != NULL && (arch_target_lookup(img.kernels[i].target, 0, &d) != ARCH_OK ||
                             strcmp(d.name, only->name) != 0))
            continue;
        occ_report_kernel(stdout, &a->st, path, &img.kernels[i]);
    }
    for (size_t i = 0; i < img.n_skipped; i++)
        occ_report_skipped(stdout, &a->st, path, img.skipped[i]);
    arch_image_free(&img);
    return 0;
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
    if (rc == 0 && a.list_targets) {
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
