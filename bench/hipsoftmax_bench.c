/* hipsoftmax-bench: achieved bandwidth of one hipsoftmax problem per shape (forward or backward, with
 * any of the descriptor's options), as a share of the device-to-device copy bandwidth measured in the
 * same process.
 *
 * GB/s = the bytes the op must move at least / time: forward x read and y written (y read too where
 * beta != 0), the mask read once (its own extent, shared rows once), the statistics written;
 * backward y and dy read and dx written (dx read too where beta != 0). A causal mask counts the whole
 * row, so a causal softmax that skips its masked columns shows as faster than the plain one.
 * time = the median of repeated launches, each timed with events. Inputs rotate over enough buffers
 * (>= 512 MiB together) that a launch never finds its input in L2. Two copy references:
 *   copy_peak: hipMemcpy device-to-device of 1 GiB (read + write bytes / time), the ceiling;
 *   copy_same: a device-to-device copy moving as many bytes as the op (half read, half written), with
 *              the same rotation: the fair limit for shapes small enough that launch overhead counts.
 * --pad K gives rows a stride of cols + K elements (every tensor; GB/s still counts only the rows'
 * elements); --x-stride/--y-stride/--dy-stride set one tensor's. Every field of hipsoftmax_problem has
 * an option, so a call logged by HIPSOFTMAX_LOG=2 can be run again as it was.
 * Output: a markdown table on stdout, optionally CSV (--csv FILE). */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsm_vendor.h"

#define CHECK(call)                                                                                   \
    do {                                                                                              \
        hipError_t e_ = (call);                                                                       \
        if (e_ != hipSuccess) {                                                                       \
            fprintf(stderr, "%s: %s\n", #call, hipGetErrorString(e_));                                \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)
#define CHECK_HSM(call)                                                                               \
    do {                                                                                              \
        hipsoftmax_status s_ = (call);                                                                \
        if (s_ != HIPSOFTMAX_STATUS_SUCCESS) {                                                        \
            fprintf(stderr, "%s: %s\n", #call, hipsoftmax_status_string(s_));                         \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

#define ROTATE_BYTES ((size_t)512 << 20)
#define MAX_SETS 64
#define MAX_SHAPES 64

static int cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* One timed job: an op over rotating buffer sets, or a copy. */
typedef struct {
    int copy;             /* 1: hipMemcpyAsync of copy_bytes from in[k] to out[k] */
    int backward;
    int stats_only;       /* hipsoftmax_forward_stats / hipsoftmax_backward_stats: no output tensor */
    hipsoftmax_handle h;
    hipsoftmax_problem p; /* mask_ptr and stats set per launch from the set */
    size_t in_bytes, in2_bytes, out_bytes, mask_bytes, stats_bytes, copy_bytes, stats_in_bytes;
    void *in[MAX_SETS], *in2[MAX_SETS], *out[MAX_SETS], *mask[MAX_SETS], *stats[MAX_SETS], *stats_in[MAX_SETS];
    int sets;
} job;

static void run_once(job *j, int i, hipStream_t s)
{
    const int k = i % j->sets;
    if (j->copy) {
        CHECK(hipMemcpyAsync(j->out[k], j->in[k], j->copy_bytes, hipMemcpyDeviceToDevice, s));
        return;
    }
    if (j->mask_bytes > 0)
        j->p.mask_ptr = j->mask[k];
    j->p.stats = j->stats_bytes > 0 ? (float *)j->stats[k] : NULL;
    if (j->stats_in_bytes > 0)
        j->p.stats_in = (const float *)j->stats_in[k];
    if (j->stats_only && j->backward)
        CHECK_HSM(hipsoftmax_backward_stats(j->h, &j->p, j->in[k], j->in2[k]));
    else if (j->stats_only)
        CHECK_HSM(hipsoftmax_forward_stats(j->h, &j->p, j->in[k]));
    else if (j->backward)
        CHECK_HSM(hipsoftmax_backward(j->h, &j->p, j->in[k], j->in2[k], j->out[k]));
    else
        CHECK_HSM(hipsoftmax_forward(j->h, &j->p, j->in[k], j->out[k]));
}

/* Median milliseconds of `reps` event-timed launches after untimed ones: at least `warm`, and at least
 * WARM_MS of GPU time. Five launches were not enough: on an H200, the first shape measured after
 * copy_peak ran slower for some milliseconds (fp32 4096x16384: 78.9% of copy_peak over 50 launches,
 * 86.1% measured again in the same process, 85.8% over 400 launches; bf16 4096x32768: 76.6%, 83.2%). */
#define WARM_MS 25.0f
static float time_job(job *j, hipStream_t s, int warm, int reps)
{
    hipEvent_t a, b;
    CHECK(hipEventCreate(&a));
    CHECK(hipEventCreate(&b));
    float *t = malloc(sizeof(float) * (size_t)reps);
    if (t == NULL)
        exit(1);
    int done = 0;
    CHECK(hipEventRecord(a, s));
    for (float ms = 0.0f; done < warm || ms < WARM_MS; done++) {
        run_once(j, done, s);
        if (done + 1 >= warm) {
            CHECK(hipEventRecord(b, s));
            CHECK(hipEventSynchronize(b));
            CHECK(hipEventElapsedTime(&ms, a, b));
        }
    }
    for (int i = 0; i < reps; i++) {
        CHECK(hipEventRecord(a, s));
        run_once(j, i + done, s);
        CHECK(hipEventRecord(b, s));
        CHECK(hipEventSynchronize(b));
        CHECK(hipEventElapsedTime(&t[i], a, b));
    }
    qsort(t, (size_t)reps, sizeof(float), cmp_float);
    const float med = t[reps / 2];
    free(t);
    CHECK(hipEventDestroy(a));
    CHECK(hipEventDestroy(b));
    return med;
}

static void *dev_alloc(size_t bytes, int fill_byte)
{
    void *p = NULL;
    if (bytes == 0)
        return NULL;
    CHECK(hipMalloc(&p, bytes));
    /* Small values of every dtype: bytes 0x3c00 read as fp16 1.0, as bf16 ~0.0078, as fp32 ~0.0078;
     * a bool mask of 0x3c keeps every column. */
    CHECK(hipMemset(p, fill_byte, bytes));
    return p;
}

static void alloc_sets(job *j)
{
    const size_t per = j->in_bytes + j->in2_bytes + j->out_bytes + j->mask_bytes + j->copy_bytes;
    j->sets = (int)((ROTATE_BYTES + per - 1) / per);
    j->sets = j->sets < 2 ? 2 : j->sets > MAX_SETS ? MAX_SETS : j->sets;
    for (int k = 0; k < j->sets; k++) {
        j->in[k] = dev_alloc(j->copy ? j->copy_bytes : j->in_bytes, 0x3c);
        j->in2[k] = dev_alloc(j->in2_bytes, 0x3c);
        j->out[k] = dev_alloc(j->copy ? j->copy_bytes : j->out_bytes, 0x3c);
        j->mask[k] = dev_alloc(j->mask_bytes, 0x3c);
        j->stats[k] = dev_alloc(j->stats_bytes, 0);
        /* Records of floats ~0.0115 each: a finite max and a positive sum to combine. */
        j->stats_in[k] = dev_alloc(j->stats_in_bytes, 0x3c);
    }
}

static void free_sets(job *j)
{
    for (int k = 0; k < j->sets; k++) {
        void *const bufs[] = {j->in[k], j->in2[k], j->out[k], j->mask[k], j->stats[k], j->stats_in[k]};
        for (size_t b = 0; b < sizeof bufs / sizeof bufs[0]; b++)
            if (bufs[b] != NULL)
                CHECK(hipFree(bufs[b]));
    }
}

static const char *const family_names[] = {"auto", "warp", "row", "online", "split", "channel"};
static const char *const dtype_names[] = {"fp32", "fp16", "bf16"};
static const char *const mask_names[] = {"none", "add", "causal", "bool"};

static int parse_dtype(const char *s, hipsoftmax_dtype *out)
{
    for (int k = 0; k < 3; k++)
        if (!strcmp(s, dtype_names[k])) {
            *out = (hipsoftmax_dtype)(HIPSOFTMAX_DTYPE_F32 + k);
            return 1;
        }
    return 0;
}

static size_t dsize(hipsoftmax_dtype d) { return d == HIPSOFTMAX_DTYPE_F32 ? 4 : 2; }
static const char *dname(hipsoftmax_dtype d) { return dtype_names[(int)d - HIPSOFTMAX_DTYPE_F32]; }

static int usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--op fwd|bwd|fwd-stats|bwd-stats] [--algo softmax|log] [--dtype T] [--y-dtype T] [--dy-dtype T]\n"
            "          [--shape MxN | OUTERxCxINNER]... [--pad K] [--x-stride N] [--y-stride N] [--dy-stride N]\n"
            "          [--scale S] [--alpha A] [--beta B] [--mask none|add|bool|causal] [--mask-dtype T]\n"
            "          [--heads H] [--queries Q] [--mask-batches B] [--mask-rows R] [--mask-row-stride N]\n"
            "          [--mask-batch-stride N] [--causal-offset K] [--safe] [--stats]\n"
            "          [--stats-in SHARDS] [--stats-in-stride N]\n"
            "          [--family auto|warp|row|online|split|channel] [--kernel NAME] [--reps N] [--csv FILE]\n"
            "T: fp32|fp16|bf16. Forward: x has --dtype, y --y-dtype (default: --dtype). Backward: y has\n"
            "--y-dtype, dy --dy-dtype (default: y's), dx --dtype. fwd-stats, bwd-stats: the statistics\n"
            "alone (hipsoftmax_forward_stats, hipsoftmax_backward_stats). --stats-in: given statistics,\n"
            "SHARDS records a row, --stats-in-stride floats apart (default 4 * rows). OUTERxCxINNER: CHANNEL\n"
            "mode, the softmax over C of [OUTER][C][INNER] (strides: C * INNER + K).\n",
            argv0);
    return 2;
}

int main(int argc, char **argv)
{
    hipsoftmax_problem t; /* the template: every shape gets its fields */
    hipsoftmax_problem_init(&t, HIPSOFTMAX_DTYPE_F32, 1, 1);
    int backward = 0, stats_only = 0, have_y_dtype = 0, have_mask_dtype = 0, stats = 0, reps = 50;
    long long pad = 0, xstride = 0, ystride = 0, dystride = 0, mrs = -1, stats_in_shards = 0;
    const char *csv = NULL, *kernel = NULL;
    hipsoftmax_family fam = HIPSOFTMAX_FAMILY_AUTO;
    int64_t rows_list[MAX_SHAPES], cols_list[MAX_SHAPES], inner_list[MAX_SHAPES];
    int nshapes = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int used = 1; /* the option takes a value */
        if (!strcmp(a, "--safe")) {
            t.flags |= HIPSOFTMAX_FLAG_SAFE_ROWS, used = 0;
        } else if (!strcmp(a, "--stats")) {
            stats = 1, used = 0;
        } else if (v == NULL) {
            return usage(argv[0]);
        } else if (!strcmp(a, "--op")) {
            if (strcmp(v, "fwd") && strcmp(v, "bwd") && strcmp(v, "fwd-stats") && strcmp(v, "bwd-stats"))
                return usage(argv[0]);
            backward = v[0] == 'b';
            stats_only = strchr(v, '-') != NULL;
        } else if (!strcmp(a, "--algo")) {
            if (strcmp(v, "softmax") && strcmp(v, "log"))
                return usage(argv[0]);
            t.algorithm = !strcmp(v, "log") ? HIPSOFTMAX_ALGO_LOG_SOFTMAX : HIPSOFTMAX_ALGO_SOFTMAX;
        } else if (!strcmp(a, "--dtype")) {
            if (!parse_dtype(v, &t.x_dtype))
                return usage(argv[0]);
        } else if (!strcmp(a, "--y-dtype")) {
            if (!parse_dtype(v, &t.y_dtype))
                return usage(argv[0]);
            have_y_dtype = 1;
        } else if (!strcmp(a, "--dy-dtype")) {
            if (!parse_dtype(v, &t.dy_dtype))
                return usage(argv[0]);
        } else if (!strcmp(a, "--mask-dtype")) {
            if (!parse_dtype(v, &t.mask_dtype))
                return usage(argv[0]);
            have_mask_dtype = 1;
        } else if (!strcmp(a, "--shape")) {
            long long r, c, in = 1;
            if (nshapes >= MAX_SHAPES || sscanf(v, "%lldx%lldx%lld", &r, &c, &in) < 2)
                return usage(argv[0]);
            rows_list[nshapes] = r, cols_list[nshapes] = c, inner_list[nshapes++] = in;
        } else if (!strcmp(a, "--pad")) {
            pad = atoll(v);
        } else if (!strcmp(a, "--x-stride")) {
            xstride = atoll(v);
        } else if (!strcmp(a, "--y-stride")) {
            ystride = atoll(v);
        } else if (!strcmp(a, "--dy-stride")) {
            dystride = atoll(v);
        } else if (!strcmp(a, "--scale")) {
            t.scale = strtof(v, NULL);
        } else if (!strcmp(a, "--alpha")) {
            t.alpha = strtof(v, NULL);
        } else if (!strcmp(a, "--beta")) {
            t.beta = strtof(v, NULL);
        } else if (!strcmp(a, "--mask")) {
            int m = -1;
            for (int k = 0; k < 4; k++)
                if (!strcmp(v, mask_names[k]))
                    m = k;
            if (m < 0)
                return usage(argv[0]);
            t.mask = (hipsoftmax_mask)(HIPSOFTMAX_MASK_NONE + m);
        } else if (!strcmp(a, "--heads")) {
            t.heads = atoll(v);
        } else if (!strcmp(a, "--queries")) {
            t.queries = atoll(v);
        } else if (!strcmp(a, "--mask-batches")) {
            t.mask_batches = atoll(v);
        } else if (!strcmp(a, "--mask-rows")) {
            t.mask_rows = atoll(v);
        } else if (!strcmp(a, "--mask-row-stride")) {
            mrs = atoll(v);
        } else if (!strcmp(a, "--mask-batch-stride")) {
            t.mask_batch_stride = atoll(v);
        } else if (!strcmp(a, "--causal-offset")) {
            t.causal_offset = atoll(v);
        } else if (!strcmp(a, "--stats-in")) {
            stats_in_shards = atoll(v);
        } else if (!strcmp(a, "--stats-in-stride")) {
            t.stats_in_shard_stride = atoll(v);
        } else if (!strcmp(a, "--family")) {
            int f = -1;
            for (int k = 0; k <= 4; k++)
                if (!strcmp(v, family_names[k]))
                    f = k;
            if (f < 0)
                return usage(argv[0]);
            fam = (hipsoftmax_family)f;
        } else if (!strcmp(a, "--kernel")) {
            kernel = v;
        } else if (!strcmp(a, "--reps")) {
            reps = atoi(v);
        } else if (!strcmp(a, "--csv")) {
            csv = v;
        } else {
            return usage(argv[0]);
        }
        i += used;
    }
    if (pad < 0 || xstride < 0 || ystride < 0 || dystride < 0) {
        fprintf(stderr, "--pad and strides: counts of elements, >= 0\n");
        return 2;
    }
    if (!have_y_dtype)
        t.y_dtype = t.x_dtype;
    if (!have_mask_dtype)
        t.mask_dtype = backward ? t.y_dtype : t.x_dtype;
    if (nshapes == 0) /* the default table: M = 4096, N = 128 .. 65536 */
        for (int64_t n = 128; n <= 65536; n *= 2, nshapes++)
            rows_list[nshapes] = 4096, cols_list[nshapes] = n, inner_list[nshapes] = 1;
    if (reps < 3)
        reps = 3;

    hipsoftmax_handle h;
    const hipsoftmax_status st = hipsoftmax_create(&h);
    if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        fprintf(stderr, "hipsoftmax_create: %s (this benchmark needs a GPU)\n", hipsoftmax_status_string(st));
        return 1;
    }
    CHECK_HSM(hipsoftmax_set_family(h, fam));
    if (kernel != NULL)
        CHECK_HSM(hipsoftmax_set_kernel(h, kernel));
    hipStream_t s;
    CHECK(hipStreamCreate(&s));
    CHECK_HSM(hipsoftmax_set_stream(h, s));
    int dev = 0;
    CHECK(hipGetDevice(&dev));
    hipDeviceProp_t prop;
    CHECK(hipGetDeviceProperties(&prop, dev));

    job peak;
    memset(&peak, 0, sizeof peak);
    peak.copy = 1, peak.copy_bytes = (size_t)1 << 30;
    alloc_sets(&peak);
    const float peak_ms = time_job(&peak, s, 3, 20);
    const double peak_gbs = 2.0 * (double)peak.copy_bytes / (peak_ms * 1e6);
    free_sets(&peak);

    const char *op = stats_only ? (backward ? "bwd-stats" : "fwd-stats") : backward ? "bwd" : "fwd";
    const char *algo = t.algorithm == HIPSOFTMAX_ALGO_LOG_SOFTMAX ? "log" : "softmax";
    const char *mask = mask_names[(int)t.mask - HIPSOFTMAX_MASK_NONE];
    FILE *out = csv ? fopen(csv, "w") : NULL;
    if (out)
        fprintf(out, "device,op,algo,dtype,y_dtype,mask,rows,cols,family,kernel,grid,block,blocks_per_row,us,gbs,"
                     "copy_peak_gbs,share_peak,copy_same_gbs,share_same,row_stride\n");
    printf("device: %s, %s %s, dtype %s, y %s, mask %s, scale %g, alpha %g, beta %g%s%s; copy_peak %.0f GB/s "
           "(hipMemcpy D2D 1 GiB), median of %d launches",
           prop.name, op, algo, dname(t.x_dtype), dname(t.y_dtype), mask, (double)t.scale, (double)t.alpha,
           (double)t.beta, t.flags ? ", safe rows" : "", stats ? ", stats" : "", peak_gbs, reps);
    if (pad > 0)
        printf(", row stride cols + %lld", pad);
    printf("\n\n");
    printf("| rows | cols | family | kernel | grid x block | us | GB/s | %% of copy_peak | %% of copy_same |\n");
    printf("|---:|---:|---|---|---|---:|---:|---:|---:|\n");
    for (int i = 0; i < nshapes; i++) {
        job j;
        memset(&j, 0, sizeof j);
        j.h = h, j.backward = backward, j.stats_only = stats_only, j.p = t;
        hipsoftmax_problem *p = &j.p;
        p->rows = rows_list[i], p->cols = cols_list[i];
        if (inner_list[i] > 1) /* CHANNEL: a "row" is a slice of C * inner elements */
            p->mode = HIPSOFTMAX_MODE_CHANNEL, p->inner = inner_list[i];
        const int64_t span = p->cols * p->inner;
        p->x_row_stride = xstride > 0 ? xstride : span + pad;
        p->y_row_stride = ystride > 0 ? ystride : span + pad;
        p->dy_row_stride = dystride > 0 ? dystride : span + pad;
        const int tensor_mask = !backward && (p->mask == HIPSOFTMAX_MASK_ADDITIVE || p->mask == HIPSOFTMAX_MASK_BOOL);
        if (tensor_mask) {
            const int64_t q = p->queries > 0 && p->queries < p->rows ? p->queries : p->rows;
            const int64_t mr = p->mask_rows > 0 ? p->mask_rows : q;
            const int64_t mb = p->mask_batches > 0 ? p->mask_batches : 1;
            p->mask_row_stride = mrs >= 0 ? mrs : p->cols;
            if (mb > 1 && p->mask_batch_stride == 0)
                p->mask_batch_stride = mr * p->mask_row_stride;
            const size_t mes = p->mask == HIPSOFTMAX_MASK_BOOL ? 1 : dsize(p->mask_dtype);
            j.mask_bytes = (size_t)((mb - 1) * p->mask_batch_stride + (mr - 1) * p->mask_row_stride + p->cols) * mes;
        }
        if (stats_in_shards > 0) {
            p->stats_in_shards = stats_in_shards;
            const int64_t stride = p->stats_in_shard_stride > 0 ? p->stats_in_shard_stride : HIPSOFTMAX_STATS_FLOATS * p->rows;
            j.stats_in_bytes = (size_t)((stats_in_shards - 1) * stride + HIPSOFTMAX_STATS_FLOATS * p->rows) * sizeof(float);
            /* The plan reads no pointer: a stand-in makes it plan for given statistics, as the launches. */
            p->stats_in = (const float *)(uintptr_t)256;
        }
        hipsoftmax_plan_info info = {.struct_size = sizeof info};
        /* Statistics out (a stand-in, as stats_in above) take the forward with options; the statistics
         * alone need them, and plan as one pass. */
        if (stats || stats_only)
            p->stats = (float *)(uintptr_t)256;
        const hipsoftmax_status ps = stats_only ? hipsoftmax_get_stats_plan(h, p, backward, &info)
                                     : backward ? hipsoftmax_get_backward_plan(h, p, &info)
                                                : hipsoftmax_get_plan(h, p, &info);
        p->stats = NULL;
        if (ps != HIPSOFTMAX_STATUS_SUCCESS) {
            printf("| %lld | %lld | %s | (no plan: %s) | | | | | |\n", (long long)p->rows, (long long)p->cols,
                   family_names[fam], hipsoftmax_status_string(ps));
            continue;
        }
        const int64_t rc = p->rows * span;
        size_t moved;
        if (backward) {
            j.in_bytes = (size_t)((p->rows - 1) * p->y_row_stride + span) * dsize(p->y_dtype);
            j.in2_bytes = (size_t)((p->rows - 1) * p->dy_row_stride + span) * dsize(p->dy_dtype ? p->dy_dtype : p->y_dtype);
            j.out_bytes = stats_only ? 0 : (size_t)((p->rows - 1) * p->x_row_stride + span) * dsize(p->x_dtype);
            j.stats_bytes = stats_only ? (size_t)p->rows * HIPSOFTMAX_STATS_FLOATS * sizeof(float) : 0;
            moved = (size_t)rc * (dsize(p->y_dtype) + dsize(p->dy_dtype ? p->dy_dtype : p->y_dtype) +
                                  (stats_only ? 0 : dsize(p->x_dtype) * (p->beta != 0.0f ? 2 : 1))) +
                    j.stats_bytes + j.stats_in_bytes;
        } else {
            j.in_bytes = (size_t)((p->rows - 1) * p->x_row_stride + span) * dsize(p->x_dtype);
            j.out_bytes = stats_only ? 0 : (size_t)((p->rows - 1) * p->y_row_stride + span) * dsize(p->y_dtype);
            j.stats_bytes = stats || stats_only ? (size_t)p->rows * HIPSOFTMAX_STATS_FLOATS * sizeof(float) : 0;
            moved = (size_t)rc * (dsize(p->x_dtype) + (stats_only ? 0 : dsize(p->y_dtype) * (p->beta != 0.0f ? 2 : 1))) +
                    j.mask_bytes + j.stats_bytes + j.stats_in_bytes;
        }
        alloc_sets(&j);
        const float ms = time_job(&j, s, 5, reps);
        free_sets(&j);
        job cp;
        memset(&cp, 0, sizeof cp);
        cp.copy = 1, cp.copy_bytes = moved / 2;
        alloc_sets(&cp);
        const float cms = time_job(&cp, s, 5, reps);
        free_sets(&cp);
        const double gbs = (double)moved / (ms * 1e6), cgbs = (double)(2 * cp.copy_bytes) / (cms * 1e6);
        char geo[64];
        if (info.blocks_per_row > 1)
            snprintf(geo, sizeof geo, "%dx%d (%d/row)", info.grid, info.block, info.blocks_per_row);
        else
            snprintf(geo, sizeof geo, "%dx%d", info.grid, info.block);
        char cols[48]; /* C, or CxINNER in CHANNEL mode */
        if (p->inner > 1)
            snprintf(cols, sizeof cols, "%lldx%lld", (long long)p->cols, (long long)p->inner);
        else
            snprintf(cols, sizeof cols, "%lld", (long long)p->cols);
        printf("| %lld | %s | %s | %s | %s | %.1f | %.0f | %.1f | %.1f |\n", (long long)p->rows, cols,
               family_names[info.family], info.kernel, geo, ms * 1e3, gbs, 100.0 * gbs / peak_gbs, 100.0 * gbs / cgbs);
        fflush(stdout);
        if (out)
            fprintf(out, "%s,%s,%s,%s,%s,%s,%lld,%s,%s,%s,%d,%d,%d,%.2f,%.1f,%.1f,%.4f,%.1f,%.4f,%lld\n", prop.name,
                    op, algo, dname(p->x_dtype), dname(p->y_dtype), mask, (long long)p->rows, cols,
                    family_names[info.family], info.kernel, info.grid, info.block, info.blocks_per_row, ms * 1e3, gbs,
                    peak_gbs, gbs / peak_gbs, cgbs, gbs / cgbs, (long long)p->x_row_stride);
    }
    if (out)
        fclose(out);
    CHECK(hipStreamDestroy(s));
    hipsoftmax_destroy(h);
    return 0;
}
