/* hipsoftmax_plan_report.c: hipsoftmax-plan-<vendor>, what the library would launch for the
 * benchmark's shapes on every target it was built for, and why. No GPU needed: each target gets an
 * offline handle, which plans from the target's tables and the library's own code objects.
 *
 * Per target and shape (bench/run-tables.sh: 4096 rows of 128..262144 columns, fp32 and bf16, and
 * few long rows): the kernel, its registers and static plus dynamic shared memory/LDS, the plan's
 * grid, the programs the Triton tutorial's formula and the exact model give for that kernel
 * (min(CUs x resident blocks, rows)), and the resource that limits the exact model. With --kernels,
 * every kernel at every block size the plan may launch it with.
 *
 * Uses the public API (experimental part included) and, for the tutorial formula and the limiter,
 * the arch module (arch/arch.h) over the code objects of the library file itself.
 */
#define _GNU_SOURCE /* dladdr */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"

#define PLAN_MAX_TARGETS 16

/* The shapes of bench/run-tables.sh's main tables (M = 4096) and one few-long-rows shape. */
static const int64_t plan_cols[] = {128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144};
#define PLAN_ROWS 4096
#define PLAN_FEW_ROWS 4
#define PLAN_FEW_COLS 8388608

/* [arch/README.md] the two regsPerBlock values CDNA runtimes report */
#define PLAN_RPB_OLD 65536
#define PLAN_RPB_NEW 131072

static int plan_errors;

/* Reports a failed call; returns 1 when st is SUCCESS. */
static int plan_ok(const char *call, const char *target, hipsoftmax_status st)
{
    if (st == HIPSOFTMAX_STATUS_SUCCESS)
        return 1;
    fprintf(stderr, "hipsoftmax-plan: %s (%s): %s\n", call, target, hipsoftmax_status_string(st));
    plan_errors++;
    return 0;
}

static void *plan_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    void *buf = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size > 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)size);
        if (buf != NULL && fread(buf, 1, (size_t)size, f) != (size_t)size) {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    *len = buf != NULL ? (size_t)size : 0;
    return buf;
}

/* Parses the code objects of the hipsoftmax library this program is linked to (the file the
 * dynamic loader found), so the report reads the same metadata the library reads. */
static int plan_parse_library(arch_image *img, char *path, size_t pathsz)
{
    Dl_info info;
    if (dladdr((void *)&hipsoftmax_create_offline, &info) == 0 || info.dli_fname == NULL) {
        fprintf(stderr, "hipsoftmax-plan: cannot find the hipsoftmax library's file\n");
        return 0;
    }
    snprintf(path, pathsz, "%s", info.dli_fname);
    size_t len = 0;
    void *bytes = plan_read_file(info.dli_fname, &len);
    if (bytes == NULL) {
        fprintf(stderr, "hipsoftmax-plan: cannot read %s\n", info.dli_fname);
        return 0;
    }
    const arch_status st = arch_image_parse(bytes, len, img);
    free(bytes);
    if (st != ARCH_OK) {
        fprintf(stderr, "hipsoftmax-plan: %s: %s\n", path, arch_status_string(st));
        return 0;
    }
    return 1;
}

/* The targets the library has code objects for, in the order of arch's tables. */
static size_t plan_library_targets(const arch_image *img, char names[][32], size_t max)
{
    size_t n = 0;
    for (size_t t = 0; t < arch_target_count() && n < max; t++) {
        const char *name = arch_target_name(t);
        for (size_t k = 0; k < img->n_kernels; k++) {
            arch_device d;
            if (arch_target_lookup(img->kernels[k].target, 0, &d) == ARCH_OK && strcmp(d.name, name) == 0) {
                snprintf(names[n++], 32, "%s", name);
                break;
            }
        }
    }
    return n;
}

/* Short names: the report is one line per shape for both dtypes. */
static const char *plan_limiter(const arch_device *dev, arch_limiter l)
{
    const int amd = dev->vendor == ARCH_VENDOR_AMD;
    switch (l) {
    case ARCH_LIMIT_REGISTERS: return amd ? "VGPRs" : "regs";
    case ARCH_LIMIT_SGPRS: return "SGPRs";
    case ARCH_LIMIT_SHARED: return amd ? "LDS" : "smem";
    case ARCH_LIMIT_WAVES: return amd ? "waves" : "warps";
    case ARCH_LIMIT_BLOCKS: return "blocks";
    case ARCH_LIMIT_BLOCK_SIZE: return "size";
    default: return "-";
    }
}

static void plan_bytes(char *buf, size_t n, int64_t bytes)
{
    if (bytes < 10000)
        snprintf(buf, n, "%lld", (long long)bytes);
    else
        snprintf(buf, n, "%lldK", (long long)((bytes + 1023) / 1024));
}

/* The tutorial's formula for a kernel of n_regs registers and smem bytes at `block` threads: its
 * programs for `rows` rows (per_cu 0) or its programs per CU (per_cu 1), as "a", or as "a|b" on a
 * CDNA target where the two regsPerBlock values give different answers; "undef" where the formula
 * is undefined. */
static void plan_tutorial(char *buf, size_t n, const char *target, int n_regs, int64_t smem, int block,
                          int64_t rows, int per_cu)
{
    const int rpbs[2] = {PLAN_RPB_OLD, PLAN_RPB_NEW};
    long long v[2] = {-1, -1};
    int count = 0;
    for (int i = 0; i < 2; i++) {
        arch_device d;
        if (arch_target_lookup(target, rpbs[i], &d) != ARCH_OK || d.regs_per_block != rpbs[i])
            break;
        const int warps = (block + d.warp_size - 1) / d.warp_size;
        arch_tutorial t;
        if (arch_occupancy_tutorial(&d, n_regs, (size_t)smem, warps, rows, &t) == ARCH_OK)
            v[i] = per_cu ? (long long)t.occupancy : (long long)t.num_programs;
        count = i + 1;
    }
    if (count == 2 && v[1] != v[0])
        snprintf(buf, n, "%lld|%lld", v[0], v[1]);
    else if (v[0] >= 0)
        snprintf(buf, n, "%lld", v[0]);
    else
        snprintf(buf, n, "undef");
}

/* One dtype's half of a row: the plan, its kernel's metadata from the code object, both models. */
static void plan_cell(char *out, size_t outsz, hipsoftmax_handle h, const arch_image *img, const arch_device *dev,
                      hipsoftmax_dtype dtype, int64_t rows, int64_t cols)
{
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, dtype, rows, cols);
    hipsoftmax_plan_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    const hipsoftmax_status st = hipsoftmax_get_plan(h, &p, &info);
    if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        snprintf(out, outsz, " | %-57s", hipsoftmax_status_string(st));
        plan_ok("hipsoftmax_get_plan", dev->name, st);
        return;
    }
    const arch_kernel *k = arch_image_find(img, dev->name, info.kernel);
    char limit[16] = "?", tut[48] = "?", smem[24];
    int mark = ' ';
    if (k != NULL) {
        arch_occupancy occ;
        if (arch_occupancy_exact(dev, k, info.block, (size_t)info.dynamic_smem, NULL, &occ) == ARCH_OK) {
            snprintf(limit, sizeof limit, "%s", plan_limiter(dev, occ.limiter));
            /* the library planned with the same model and metadata: a difference is a bug */
            if (occ.blocks_per_cu != info.blocks_per_cu)
                mark = '!';
        }
        const int n_regs = dev->vendor == ARCH_VENDOR_AMD ? k->vgprs : k->regs;
        plan_tutorial(tut, sizeof tut, dev->name, n_regs, (int64_t)k->static_smem + info.dynamic_smem, info.block,
                      rows, 0);
    }
    plan_bytes(smem, sizeof smem, (int64_t)info.static_smem + info.dynamic_smem);
    const int64_t exact = (int64_t)info.num_cus * info.blocks_per_cu < rows ? (int64_t)info.num_cus * info.blocks_per_cu
                                                                           : rows;
    const char *name = strncmp(info.kernel, "hsm_", 4) == 0 ? info.kernel + 4 : info.kernel;
    snprintf(out, outsz, " | %-13s %4d %3d %5s %5d %9s %5lld%c%-6s", name, info.block, info.regs, smem, info.grid, tut,
           (long long)exact, mark, limit);
}

static void plan_shapes(hipsoftmax_handle h, const arch_image *img, const arch_device *dev)
{
    const char *unit = dev->vendor == ARCH_VENDOR_AMD ? "CUs" : "SMs";
    if (dev->vendor == ARCH_VENDOR_AMD)
        printf("== %s: %d %s, %d waves/SIMD, %d VGPRs/lane, %zu KiB LDS/CU\n", dev->name, dev->num_cus, unit,
               dev->max_waves_per_simd, dev->vgprs_per_simd_lane, dev->smem_per_cu / 1024);
    else
        printf("== %s: %d %s, %d threads/SM, %d blocks/SM, %d K registers/SM, %zu KiB shared/SM\n", dev->name,
               dev->num_cus, unit, dev->max_threads_per_cu, dev->max_blocks_per_cu, dev->regs_per_cu / 1024,
               dev->smem_per_cu / 1024);
    const size_t n = sizeof plan_cols / sizeof plan_cols[0];
    for (size_t i = 0; i <= n; i++) {
        const int64_t rows = i < n ? PLAN_ROWS : PLAN_FEW_ROWS;
        const int64_t cols = i < n ? plan_cols[i] : PLAN_FEW_COLS;
        char shape[32], f32[256], bf16[256];
        snprintf(shape, sizeof shape, "%lldx%lld", (long long)rows, (long long)cols);
        plan_cell(f32, sizeof f32, h, img, dev, HIPSOFTMAX_DTYPE_F32, rows, cols);
        plan_cell(bf16, sizeof bf16, h, img, dev, HIPSOFTMAX_DTYPE_BF16, rows, cols);
        size_t end = strlen(bf16);
        while (end > 0 && bf16[end - 1] == ' ')
            bf16[--end] = '\0';
        printf("%12s%s%s\n", shape, f32, bf16);
    }
}

/* Every kernel at every block size the plan may launch it with: blocks per CU by the library's exact
 * model (hipsoftmax_kernel_occupancy), what limits it, and the tutorial's programs per CU. */
static void plan_kernels(hipsoftmax_handle h, const arch_image *img, const arch_device *dev)
{
    size_t count = 0;
    if (!plan_ok("hipsoftmax_kernel_count", dev->name, hipsoftmax_kernel_count(h, &count)))
        return;
    printf("== %s: %zu kernels; blocks/CU by the exact model (limit), by the tutorial formula\n", dev->name, count);
    printf("  %-22s %5s %5s %6s %7s  %-11s %8s\n", "kernel", "block", "regs", "smem", "blk/CU", "limit", "tutorial");
    for (size_t i = 0; i < count; i++) {
        hipsoftmax_kernel_info ki;
        memset(&ki, 0, sizeof ki);
        ki.struct_size = sizeof ki;
        if (!plan_ok("hipsoftmax_get_kernel_info", dev->name, hipsoftmax_get_kernel_info(h, i, &ki)))
            continue;
        const arch_kernel *k = arch_image_find(img, dev->name, ki.name);
        const int step = ki.block_step > 0 ? ki.block_step : 1;
        for (int block = ki.min_block; block <= ki.max_block && block > 0; block += step) {
            int blocks = 0;
            if (!plan_ok("hipsoftmax_kernel_occupancy", dev->name, hipsoftmax_kernel_occupancy(h, i, block, &blocks)))
                break;
            char limit[16] = "?", tut[48] = "?";
            if (k != NULL) {
                arch_occupancy occ;
                if (arch_occupancy_exact(dev, k, block, 0, NULL, &occ) == ARCH_OK)
                    snprintf(limit, sizeof limit, "%s", plan_limiter(dev, occ.limiter));
                const int n_regs = dev->vendor == ARCH_VENDOR_AMD ? k->vgprs : k->regs;
                plan_tutorial(tut, sizeof tut, dev->name, n_regs, (int64_t)k->static_smem, block, 1, 1);
            }
            printf("  %-22s %5d %5d %6d %7d  %-11s %8s\n", ki.name, block, ki.regs, ki.static_smem, blocks, limit, tut);
        }
    }
}

static void plan_usage(FILE *f)
{
    fprintf(f, "usage: hipsoftmax-plan [--target T]... [--kernels] [--no-legend]\n"
               "  Plans of the benchmark shapes on every target the linked hipsoftmax library was built\n"
               "  for (or the targets named), from offline handles: no GPU is needed.\n"
               "  --kernels  every kernel at every block size the plan may launch it with, instead of\n"
               "             the shapes\n"
               "  --no-legend  no paragraph explaining the columns\n");
}

int main(int argc, char **argv)
{
    char want[PLAN_MAX_TARGETS][32];
    size_t n_want = 0;
    int kernels = 0, legend = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--kernels") == 0) {
            kernels = 1;
        } else if (strcmp(argv[i], "--no-legend") == 0) {
            legend = 0;
        } else if (strcmp(argv[i], "--target") == 0 && i + 1 < argc && n_want < PLAN_MAX_TARGETS) {
            snprintf(want[n_want++], sizeof want[0], "%s", argv[++i]);
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            plan_usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "hipsoftmax-plan: bad argument '%s'\n", argv[i]);
            plan_usage(stderr);
            return 2;
        }
    }

    arch_image img;
    memset(&img, 0, sizeof img);
    char path[4096];
    if (!plan_parse_library(&img, path, sizeof path))
        return 1;
    char have[PLAN_MAX_TARGETS][32];
    const size_t n_have = plan_library_targets(&img, have, PLAN_MAX_TARGETS);
    if (n_want == 0) {
        memcpy(want, have, sizeof have);
        n_want = n_have;
    }

    printf("hipsoftmax %s, %s: targets", hipsoftmax_version_string(), path);
    for (size_t i = 0; i < n_have; i++)
        printf(" %s", have[i]);
    printf("\n");
    if (!kernels) {
        if (legend)
            printf("Per shape and dtype: kernel, block, registers per thread (AMD: VGPRs), static+dynamic shared memory/LDS (code object),\n"
                   "grid; programs = min(CUs x resident blocks, rows) by the Triton tutorial's formula (CDNA2/3: regsPerBlock 65536|131072)\n"
                   "and by the exact model, and what limits the exact model. CU/SM counts: the products of arch/arch_targets.c.\n");
        printf("%12s | %-13s %4s %3s %5s %5s %9s %5s %-6s | %s\n", "rows x cols", "fp32 kernel", "blk", "reg",
               "smem", "grid", "tutorial", "exact", "limit", "bf16 kernel ...");
    }
    for (size_t i = 0; i < n_want; i++) {
        arch_device dev;
        if (arch_target_lookup(want[i], 0, &dev) != ARCH_OK) {
            fprintf(stderr, "hipsoftmax-plan: unknown target '%s'\n", want[i]);
            plan_errors++;
            continue;
        }
        int built = 0;
        for (size_t j = 0; j < n_have; j++)
            built |= strcmp(have[j], dev.name) == 0;
        if (!built) {
            fprintf(stderr, "hipsoftmax-plan: %s has no code objects for %s\n", path, dev.name);
            plan_errors++;
            continue;
        }
        hipsoftmax_handle h = NULL;
        if (!plan_ok("hipsoftmax_create_offline", want[i], hipsoftmax_create_offline(&h, dev.name)))
            continue;
        if (kernels)
            plan_kernels(h, &img, &dev);
        else
            plan_shapes(h, &img, &dev);
        plan_ok("hipsoftmax_destroy", want[i], hipsoftmax_destroy(h));
    }
    arch_image_free(&img);
    return plan_errors == 0 ? 0 : 1;
}
