/* sharded_softmax.c: a softmax over rows whose columns are split across GPUs (a vocabulary split
 * over tensor-parallel ranks), with hipsoftmax and NCCL (RCCL on AMD: the same source).
 *
 * Each of the P GPUs holds a slice of every row's columns. The softmax of the whole rows is two
 * passes over each slice and one small collective:
 *   1. hipsoftmax_forward_stats over the local slice: a record {max, lse, sum, 0} per row;
 *   2. ncclAllGather of the records: HIPSOFTMAX_STATS_FLOATS * rows floats from each GPU, gathered
 *      GPU after GPU, the layout that stats_in_shards = P and stats_in_shard_stride =
 *      HIPSOFTMAX_STATS_FLOATS * rows describe;
 *   3. hipsoftmax_forward with stats_in = the gathered records: the kernel combines the P records of
 *      a row and writes the local slice of the softmax (or log-softmax).
 * The backward is the same with hipsoftmax_backward_stats (a record {sum, 0, 0, 0} per row), the
 * records gathered or summed (ncclAllReduce: the backward's record is a plain sum), and
 * hipsoftmax_backward with stats_in.
 *
 * One host thread drives every GPU: one communicator per device from ncclCommInitAll, collectives
 * between ncclGroupStart and ncclGroupEnd. A program with one process per GPU does the same with
 * ncclGetUniqueId / ncclCommInitRank; nothing else changes.
 *
 * Each GPU may also hold K "virtual" shards (--virtual K): K slices of its columns, each with its own
 * record, so that the all-gather carries K records per GPU and the kernel combines P * K. On a
 * machine with one GPU (NCCL takes one rank per device) this is what exercises the combination.
 *
 * Modes:
 *   sharded_softmax [--gpus P] [--virtual K] [--min-gpus N]
 *     correctness: every kernel family forced in turn (hipsoftmax_set_family, experimental API), every
 *     dtype (f32, f16, bf16), softmax and log-softmax, forward and backward (records gathered, and
 *     summed), each checked against hipsoftmax on GPU 0 over the whole matrix, within the dtype's
 *     tolerance. Prints PASS, FAIL or SKIP (a forced family that cannot serve a slice) per case;
 *     exits 0 when every case passed, 1 on any failure, 77 with no GPU or fewer than N.
 *   sharded_softmax --bench [--gpus P] [--iters I]
 *     times statistics + collective + normalise (softmax forward) with events, median of I
 *     iterations, for the LM-head shapes 4096 x 128256 bf16, 8192 x 151936 bf16, 64 x 262144 f32; prints
 *     each phase, the collective's share, GB/s per GPU of the bytes a sharded softmax must move (its
 *     slice read once and written once), a device-to-device copy of the slice for reference, and
 *     hipsoftmax on one GPU over the whole rows. A line "RESULT hipsoftmax <rows>x<cols> <dtype>
 *     <ms>" per shape is for scripts (bench/run-sharded.sh).
 */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sharded_gpu.h"

#define SKIP_CODE 77 /* the test suite's code for "no usable device": ctest reports a skip */
#define MAX_GPUS 16
#define MAX_VIRTUAL 8

#define CHECK_GPU(call)                                                                               \
    do {                                                                                              \
        const gpuError_t e_ = (call);                                                                 \
        if (e_ != gpuSuccess) {                                                                       \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, gpuGetErrorString(e_));     \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

#define CHECK_NCCL(call)                                                                              \
    do {                                                                                              \
        const ncclResult_t r_ = (call);                                                               \
        if (r_ != ncclSuccess) {                                                                      \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, ncclGetErrorString(r_));    \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

#define CHECK_HSM(call)                                                                               \
    do {                                                                                              \
        const hipsoftmax_status s_ = (call);                                                          \
        if (s_ != HIPSOFTMAX_STATUS_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipsoftmax_status_string(s_)); \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

/* ---- host data ------------------------------------------------------------------------------------ */

typedef enum { DT_F32, DT_F16, DT_BF16, DT_COUNT } dtype;
static const hipsoftmax_dtype api_dtype[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
static const char *const dtype_name[] = {"f32", "f16", "bf16"};
static size_t dtype_size(dtype t) { return t == DT_F32 ? 4 : 2; }
static size_t api_size(hipsoftmax_dtype t) { return t == HIPSOFTMAX_DTYPE_F32 ? 4 : 2; }

static uint16_t float_to_half(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    const uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00u);
    if (a >= 0x477ff000u) /* rounds to or beyond 65520: inf */
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x38800000u) { /* below 2^-14: subnormal half, round to nearest even in units of 2^-24 */
        const float r = nearbyintf(fabsf(f) * 16777216.0f); /* the scale is exact: a power of two */
        return (uint16_t)(sign | (uint32_t)r);
    }
    const uint32_t e = ((a >> 23) - 112u) << 10, mant = a & 0x7fffffu;
    uint32_t h = e | (mant >> 13);
    const uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        h++;
    return (uint16_t)(sign | h);
}

static float half_to_float(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    float f;
    if (e == 0) {
        f = ldexpf((float)m, -24);
        return sign ? -f : f;
    }
    uint32_t u = e == 31 ? sign | 0x7f800000u | (m << 13) : sign | ((e + 112u) << 23) | (m << 13);
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

static float bf16_to_float(uint16_t b)
{
    const uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static double get(const void *buf, size_t i, dtype t)
{
    if (t == DT_F32)
        return ((const float *)buf)[i];
    const uint16_t v = ((const uint16_t *)buf)[i];
    return t == DT_F16 ? half_to_float(v) : bf16_to_float(v);
}

static void set(void *buf, size_t i, dtype t, float v)
{
    if (t == DT_F32)
        ((float *)buf)[i] = v;
    else
        ((uint16_t *)buf)[i] = t == DT_F16 ? float_to_half(v) : float_to_bf16(v);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static float uniform(float lo, float hi)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * (float)((rng >> 11) * (1.0 / 9007199254740992.0));
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n > 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "host allocation of %zu bytes failed\n", n);
        exit(1);
    }
    return p;
}

static void *dev_alloc(size_t bytes)
{
    void *d = NULL;
    CHECK_GPU(gpuMalloc(&d, bytes > 0 ? bytes : 1));
    return d;
}

/* ---- the GPUs and their shards --------------------------------------------------------------------- */

typedef struct gpu {
    int device;
    gpuStream_t stream;
    hipsoftmax_handle h;
    ncclComm_t comm;
    int64_t c0, c1;        /* this GPU's columns of the whole row: [c0, c1) */
    void *x, *ysm, *ylg, *dy, *out; /* slices, rows x (c1 - c0), dense: input, softmax and log-softmax y, dy, result */
    float *stats;          /* K records per row, [k][row][HIPSOFTMAX_STATS_FLOATS] */
    float *gathered;       /* all-gather: [gpu][k][row][...], P * K records per row; all-reduce: K records per row */
} gpu;

typedef struct world {
    int p, k;              /* GPUs, virtual shards per GPU */
    gpu g[MAX_GPUS];
    hipsoftmax_handle ref; /* on GPU 0, the plan's own choice: the whole rows, the reference */
    int64_t rows, cols;    /* the current problem */
} world;

/* The first column of shard s of n over cols columns: a multiple of 8 where that keeps every shard
 * non-empty (the vector path), as a framework would split a vocabulary; shard n "starts" at cols,
 * so the last shard takes the columns past the last multiple of 8. */
static int64_t shard_col(int64_t cols, int s, int n)
{
    if (s >= n)
        return cols;
    const int64_t c = cols * s / n, c8 = c / 8 * 8;
    return cols >= 8 * (int64_t)n && c8 > 0 ? c8 : c;
}

enum { OP_FWD, OP_BWD };
enum { COLL_GATHER, COLL_REDUCE };

/* Pass 1 on every GPU: each virtual shard's record into its GPU's stats buffer. p: the whole-row
 * problem (rows, cols of the whole matrix, algorithm, dtypes). Returns the first failing status. */
static hipsoftmax_status enqueue_stats(world *w, const hipsoftmax_problem *p, int op)
{
    const int n = w->p * w->k;
    for (int i = 0; i < w->p; i++) {
        gpu *g = &w->g[i];
        CHECK_GPU(gpuSetDevice(g->device));
        const int64_t width = g->c1 - g->c0;
        for (int j = 0; j < w->k; j++) {
            const int64_t a = shard_col(w->cols, i * w->k + j, n) - g->c0, b = shard_col(w->cols, i * w->k + j + 1, n) - g->c0;
            hipsoftmax_problem q = *p;
            q.cols = b - a;
            q.x_row_stride = q.y_row_stride = width;
            q.stats = g->stats + (size_t)j * (size_t)w->rows * HIPSOFTMAX_STATS_FLOATS;
            hipsoftmax_status st;
            if (op == OP_FWD) {
                st = hipsoftmax_forward_stats(g->h, &q, (const char *)g->x + (size_t)a * api_size(q.x_dtype));
            } else {
                const size_t es = api_size(q.y_dtype);
                const void *y = q.algorithm == HIPSOFTMAX_ALGO_LOG_SOFTMAX ? g->ylg : g->ysm;
                st = hipsoftmax_backward_stats(g->h, &q, (const char *)y + (size_t)a * es, (const char *)g->dy + (size_t)a * es);
            }
            if (st != HIPSOFTMAX_STATUS_SUCCESS)
                return st;
        }
    }
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* The collective: every GPU's K records per row gathered (P * K records per row, GPU after GPU), or
 * summed element-wise (K records per row; the backward's records only). */
static void enqueue_collective(world *w, int coll)
{
    const size_t count = (size_t)w->k * (size_t)w->rows * HIPSOFTMAX_STATS_FLOATS;
    CHECK_NCCL(ncclGroupStart());
    for (int i = 0; i < w->p; i++) {
        gpu *g = &w->g[i];
        if (coll == COLL_GATHER)
            CHECK_NCCL(ncclAllGather(g->stats, g->gathered, count, ncclFloat, g->comm, g->stream));
        else
            CHECK_NCCL(ncclAllReduce(g->stats, g->gathered, count, ncclFloat, ncclSum, g->comm, g->stream));
    }
    CHECK_NCCL(ncclGroupEnd());
}

/* Pass 2 on every GPU: each virtual shard's slice of the result from the combined records. */
static hipsoftmax_status enqueue_normalise(world *w, const hipsoftmax_problem *p, int op, int coll)
{
    const int n = w->p * w->k;
    for (int i = 0; i < w->p; i++) {
        gpu *g = &w->g[i];
        CHECK_GPU(gpuSetDevice(g->device));
        const int64_t width = g->c1 - g->c0;
        for (int j = 0; j < w->k; j++) {
            const int64_t a = shard_col(w->cols, i * w->k + j, n) - g->c0, b = shard_col(w->cols, i * w->k + j + 1, n) - g->c0;
            hipsoftmax_problem q = *p;
            q.cols = b - a;
            q.x_row_stride = q.y_row_stride = width;
            q.stats_in = g->gathered;
            q.stats_in_shards = coll == COLL_GATHER ? n : w->k;
            q.stats_in_shard_stride = HIPSOFTMAX_STATS_FLOATS * w->rows; /* also the default */
            hipsoftmax_status st;
            if (op == OP_FWD) {
                const size_t xe = api_size(q.x_dtype), ye = api_size(q.y_dtype);
                st = hipsoftmax_forward(g->h, &q, (const char *)g->x + (size_t)a * xe, (char *)g->out + (size_t)a * ye);
            } else {
                const size_t es = api_size(q.y_dtype), xe = api_size(q.x_dtype);
                const void *y = q.algorithm == HIPSOFTMAX_ALGO_LOG_SOFTMAX ? g->ylg : g->ysm;
                st = hipsoftmax_backward(g->h, &q, (const char *)y + (size_t)a * es, (const char *)g->dy + (size_t)a * es,
                                         (char *)g->out + (size_t)a * xe);
            }
            if (st != HIPSOFTMAX_STATUS_SUCCESS)
                return st;
        }
    }
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static void sync_all(world *w)
{
    for (int i = 0; i < w->p; i++) {
        CHECK_GPU(gpuSetDevice(w->g[i].device));
        CHECK_GPU(gpuStreamSynchronize(w->g[i].stream));
    }
}

/* The whole sharded computation; NOT_SUPPORTED when a forced family cannot serve a slice (then no
 * collective is issued: one thread decides for every GPU). */
static hipsoftmax_status sharded(world *w, const hipsoftmax_problem *p, int op, int coll)
{
    hipsoftmax_status st = enqueue_stats(w, p, op);
    if (st == HIPSOFTMAX_STATUS_SUCCESS) {
        enqueue_collective(w, coll);
        st = enqueue_normalise(w, p, op, coll);
    }
    sync_all(w);
    return st;
}

/* Host rows x cols (dense) to every GPU's slice, and back. */
static void scatter(world *w, const void *host, size_t es, void *const *dst_of_gpu)
{
    for (int i = 0; i < w->p; i++) {
        const gpu *g = &w->g[i];
        CHECK_GPU(gpuSetDevice(g->device));
        const size_t width = (size_t)(g->c1 - g->c0) * es;
        CHECK_GPU(gpuMemcpy2D(dst_of_gpu[i], width, (const char *)host + (size_t)g->c0 * es, (size_t)w->cols * es, width,
                              (size_t)w->rows, gpuMemcpyHostToDevice));
    }
}

static void gather_out(world *w, void *host, size_t es)
{
    for (int i = 0; i < w->p; i++) {
        const gpu *g = &w->g[i];
        CHECK_GPU(gpuSetDevice(g->device));
        const size_t width = (size_t)(g->c1 - g->c0) * es;
        CHECK_GPU(gpuMemcpy2D((char *)host + (size_t)g->c0 * es, (size_t)w->cols * es, g->out, width, width,
                              (size_t)w->rows, gpuMemcpyDeviceToHost));
    }
}

/* ---- correctness ------------------------------------------------------------------------------------ */

/* Both results come from hipsoftmax in fp32 arithmetic; they differ only in the order the row's sum
 * is added (whole row against P * K partial sums combined) and in how that difference rounds to the
 * output dtype: a few fp32 ulp, then up to one ulp of the output dtype (f16 2^-10, bf16 2^-7 relative
 * at worst; f16 subnormals 2^-24 absolute). */
static const double rel_tol[] = {2e-5, 1.2e-3, 9e-3};
static const double abs_tol[] = {1e-30, 6e-8, 1e-30};

/* The largest |got - want| / tol over a rows x cols result; > 1 is a failure (NaN where only one is
 * NaN, or unequal infinities, count as 1e30). term: the backward's scale of rounding, or NULL. */
static double worst_ratio(const void *got, const void *want, const double *term, int64_t rows, int64_t cols, dtype t,
                          double extra_abs)
{
    double worst = 0.0;
    for (size_t i = 0; i < (size_t)(rows * cols); i++) {
        const double gv = get(got, i, t), wv = get(want, i, t);
        double r;
        if (isnan(wv) || isnan(gv))
            r = isnan(wv) && isnan(gv) ? 0.0 : 1e30;
        else if (isinf(wv) || isinf(gv))
            r = gv == wv ? 0.0 : 1e30;
        else {
            const double tol = rel_tol[t] * fabs(wv) + abs_tol[t] + extra_abs + (term != NULL ? 1e-5 * term[i] : 0.0);
            r = fabs(gv - wv) / tol;
        }
        if (r > worst)
            worst = r;
    }
    return worst;
}

static long long n_pass, n_fail, n_skip, n_auto_skip;

static void report(const char *what, const char *family, dtype t, const world *w, hipsoftmax_status st, double ratio)
{
    const char *verdict = st == HIPSOFTMAX_STATUS_NOT_SUPPORTED ? "SKIP" : st != HIPSOFTMAX_STATUS_SUCCESS || ratio > 1.0 ? "FAIL" : "PASS";
    printf("%s %-18s %-5s family=%-6s %lldx%lld shards=%dx%d", verdict, what, dtype_name[t], family, (long long)w->rows,
           (long long)w->cols, w->p, w->k);
    if (st == HIPSOFTMAX_STATUS_SUCCESS)
        printf(" worst |err|/tol %.3g\n", ratio);
    else
        printf(" (%s%s)\n", hipsoftmax_status_string(st),
               st == HIPSOFTMAX_STATUS_NOT_SUPPORTED ? ": the forced family cannot serve a slice" : "");
    if (verdict[0] == 'P')
        n_pass++;
    else if (verdict[0] == 'F')
        n_fail++;
    else {
        n_skip++;
        if (strcmp(family, "auto") == 0)
            n_auto_skip++;
    }
}

/* Every family, both algorithms, forward and backward, for one shape and dtype. */
static void check_shape(world *w, int64_t rows, int64_t cols, dtype t)
{
    static const hipsoftmax_family fams[] = {HIPSOFTMAX_FAMILY_AUTO, HIPSOFTMAX_FAMILY_WARP, HIPSOFTMAX_FAMILY_ROW,
                                            HIPSOFTMAX_FAMILY_ONLINE, HIPSOFTMAX_FAMILY_SPLIT};
    static const char *const fam_names[] = {"auto", "warp", "row", "online", "split"};
    const int n = w->p * w->k;
    const size_t es = dtype_size(t), count = (size_t)(rows * cols), bytes = count * es;
    w->rows = rows, w->cols = cols;
    for (int i = 0; i < w->p; i++) {
        gpu *g = &w->g[i];
        g->c0 = shard_col(cols, i * w->k, n), g->c1 = shard_col(cols, (i + 1) * w->k, n);
    }

    /* Logits in [-8, 8]; row 1 entirely -inf on the last shard (a slice with nothing to add: its
     * record is {-inf, -inf, 0, 0}); row 2 one column far above the rest. */
    void *hx = xmalloc(bytes), *hdy = xmalloc(bytes), *hysm = xmalloc(bytes), *hylg = xmalloc(bytes);
    void *hdxsm = xmalloc(bytes), *hdxlg = xmalloc(bytes), *hout = xmalloc(bytes);
    const int64_t last = shard_col(cols, n - 1, n);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) {
            float v = uniform(-8.0f, 8.0f);
            if (r == 1 && rows > 2 && c >= last)
                v = -INFINITY;
            if (r == 2 && rows > 2 && c == cols - 1)
                v = 40.0f;
            set(hx, (size_t)(r * cols + c), t, v);
            set(hdy, (size_t)(r * cols + c), t, uniform(-1.0f, 1.0f));
        }

    /* The reference: hipsoftmax on GPU 0 over the whole rows, the plan's own choice. */
    CHECK_GPU(gpuSetDevice(w->g[0].device));
    void *rx = dev_alloc(bytes), *ry = dev_alloc(bytes), *rdy = dev_alloc(bytes), *rdx = dev_alloc(bytes);
    CHECK_GPU(gpuMemcpy(rx, hx, bytes, gpuMemcpyHostToDevice));
    CHECK_GPU(gpuMemcpy(rdy, hdy, bytes, gpuMemcpyHostToDevice));
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, api_dtype[t], rows, cols);
    for (int lg = 0; lg < 2; lg++) {
        p.algorithm = lg ? HIPSOFTMAX_ALGO_LOG_SOFTMAX : HIPSOFTMAX_ALGO_SOFTMAX;
        CHECK_HSM(hipsoftmax_forward(w->ref, &p, rx, ry));
        CHECK_HSM(hipsoftmax_backward(w->ref, &p, ry, rdy, rdx));
        CHECK_GPU(gpuDeviceSynchronize());
        CHECK_GPU(gpuMemcpy(lg ? hylg : hysm, ry, bytes, gpuMemcpyDeviceToHost));
        CHECK_GPU(gpuMemcpy(lg ? hdxlg : hdxsm, rdx, bytes, gpuMemcpyDeviceToHost));
    }
    CHECK_GPU(gpuFree(rx));
    CHECK_GPU(gpuFree(ry));
    CHECK_GPU(gpuFree(rdy));
    CHECK_GPU(gpuFree(rdx));

    /* The backward's scale of rounding per element: |y| (|dy| + sum |dy y|) for softmax,
     * |dy| + exp(y) sum |dy| for log-softmax (the row sums' rounding scales with their terms). */
    double *tsm = xmalloc(sizeof(double) * count), *tlg = xmalloc(sizeof(double) * count);
    for (int64_t r = 0; r < rows; r++) {
        double ssm = 0.0, slg = 0.0;
        for (int64_t c = 0; c < cols; c++) {
            const size_t i = (size_t)(r * cols + c);
            ssm += fabs(get(hdy, i, t) * get(hysm, i, t));
            slg += fabs(get(hdy, i, t));
        }
        for (int64_t c = 0; c < cols; c++) {
            const size_t i = (size_t)(r * cols + c);
            tsm[i] = fabs(get(hysm, i, t)) * (fabs(get(hdy, i, t)) + ssm);
            tlg[i] = fabs(get(hdy, i, t)) + exp(get(hylg, i, t)) * slg;
        }
    }

    /* The slices on every GPU. */
    void *xs[MAX_GPUS], *ysms[MAX_GPUS], *ylgs[MAX_GPUS], *dys[MAX_GPUS];
    for (int i = 0; i < w->p; i++) {
        gpu *g = &w->g[i];
        CHECK_GPU(gpuSetDevice(g->device));
        const size_t sb = (size_t)rows * (size_t)(g->c1 - g->c0) * es;
        const size_t recs = (size_t)rows * HIPSOFTMAX_STATS_FLOATS * sizeof(float);
        xs[i] = g->x = dev_alloc(sb), ysms[i] = g->ysm = dev_alloc(sb), ylgs[i] = g->ylg = dev_alloc(sb);
        dys[i] = g->dy = dev_alloc(sb), g->out = dev_alloc(sb);
        g->stats = dev_alloc(recs * (size_t)w->k);
        g->gathered = dev_alloc(recs * (size_t)n);
    }
    scatter(w, hx, es, xs);
    scatter(w, hysm, es, ysms);
    scatter(w, hylg, es, ylgs);
    scatter(w, hdy, es, dys);

    for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++) {
        for (int i = 0; i < w->p; i++)
            CHECK_HSM(hipsoftmax_set_family(w->g[i].h, fams[f]));
        for (int lg = 0; lg < 2; lg++) {
            p.algorithm = lg ? HIPSOFTMAX_ALGO_LOG_SOFTMAX : HIPSOFTMAX_ALGO_SOFTMAX;
            hipsoftmax_status st = sharded(w, &p, OP_FWD, COLL_GATHER);
            double ratio = 0.0;
            if (st == HIPSOFTMAX_STATUS_SUCCESS) {
                gather_out(w, hout, es);
                ratio = worst_ratio(hout, lg ? hylg : hysm, NULL, rows, cols, t, lg ? 2e-5 : 0.0);
            }
            report(lg ? "fwd log-softmax" : "fwd softmax", fam_names[f], t, w, st, ratio);
            for (int coll = COLL_GATHER; coll <= COLL_REDUCE; coll++) {
                st = sharded(w, &p, OP_BWD, coll);
                ratio = 0.0;
                if (st == HIPSOFTMAX_STATUS_SUCCESS) {
                    gather_out(w, hout, es);
                    ratio = worst_ratio(hout, lg ? hdxlg : hdxsm, lg ? tlg : tsm, rows, cols, t, 0.0);
                }
                const char *what = lg ? (coll == COLL_GATHER ? "bwd log gather" : "bwd log all-reduce")
                                      : (coll == COLL_GATHER ? "bwd softmax gather" : "bwd softmax all-reduce");
                report(what, fam_names[f], t, w, st, ratio);
            }
        }
    }
    for (int i = 0; i < w->p; i++) {
        gpu *g = &w->g[i];
        CHECK_GPU(gpuSetDevice(g->device));
        CHECK_HSM(hipsoftmax_set_family(g->h, HIPSOFTMAX_FAMILY_AUTO));
        CHECK_GPU(gpuFree(g->x));
        CHECK_GPU(gpuFree(g->ysm));
        CHECK_GPU(gpuFree(g->ylg));
        CHECK_GPU(gpuFree(g->dy));
        CHECK_GPU(gpuFree(g->out));
        CHECK_GPU(gpuFree(g->stats));
        CHECK_GPU(gpuFree(g->gathered));
        g->x = g->ysm = g->ylg = g->dy = g->out = NULL;
        g->stats = g->gathered = NULL;
    }
    free(hx), free(hdy), free(hysm), free(hylg), free(hdxsm), free(hdxlg), free(hout), free(tsm), free(tlg);
}

/* ---- benchmark ------------------------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Fills a rows x width device matrix from a block of 64 random host rows, repeated. */
static void fill_random(void *d, int64_t rows, int64_t width, dtype t)
{
    const int64_t br = rows < 64 ? rows : 64;
    const size_t es = dtype_size(t), rb = (size_t)width * es;
    void *hb = xmalloc((size_t)br * rb);
    for (size_t i = 0; i < (size_t)(br * width); i++)
        set(hb, i, t, uniform(-8.0f, 8.0f));
    for (int64_t r = 0; r < rows; r += br) {
        const int64_t nr = rows - r < br ? rows - r : br;
        CHECK_GPU(gpuMemcpy((char *)d + (size_t)r * rb, hb, (size_t)nr * rb, gpuMemcpyHostToDevice));
    }
    free(hb);
}

static double elapsed(gpuEvent_t a, gpuEvent_t b)
{
    float ms = 0.0f;
    CHECK_GPU(gpuEventElapsedTime(&ms, a, b));
    return ms;
}

/* Inputs and outputs rotate over enough buffer sets (>= 512 MiB together) that no iteration finds
 * its input in L2 from the one before, as hipsoftmax-bench does; a shape as large as the LM heads
 * needs one set. The second pass of one iteration may still find its slice in L2: that is what a
 * sharded softmax gets in use too. */
#define ROTATE_BYTES ((size_t)512 << 20)
#define MAX_SETS 16

static int sets_for(size_t bytes_per_set)
{
    size_t n = (ROTATE_BYTES + bytes_per_set - 1) / bytes_per_set;
    return n < 1 ? 1 : n > MAX_SETS ? MAX_SETS : (int)n;
}

/* Median ms of `iters` runs of fn(ctx, i) on one stream (after 3 untimed ones), each between events. */
typedef void (*enqueue_fn)(void *ctx, int i);
static double time_on_stream(gpuStream_t s, int iters, enqueue_fn fn, void *ctx)
{
    gpuEvent_t *ev = xmalloc(sizeof(gpuEvent_t) * (size_t)(iters + 1));
    double *ms = xmalloc(sizeof(double) * (size_t)iters);
    for (int i = 0; i < 3; i++)
        fn(ctx, i);
    for (int i = 0; i <= iters; i++)
        CHECK_GPU(gpuEventCreate(&ev[i]));
    CHECK_GPU(gpuEventRecord(ev[0], s));
    for (int i = 0; i < iters; i++) {
        fn(ctx, i);
        CHECK_GPU(gpuEventRecord(ev[i + 1], s));
    }
    CHECK_GPU(gpuEventSynchronize(ev[iters]));
    for (int i = 0; i < iters; i++)
        ms[i] = elapsed(ev[i], ev[i + 1]);
    const double m = median(ms, iters);
    for (int i = 0; i <= iters; i++)
        CHECK_GPU(gpuEventDestroy(ev[i]));
    free(ev), free(ms);
    return m;
}

typedef struct rotating {
    int sets;
    void *in[MAX_SETS], *out[MAX_SETS];
    size_t bytes;             /* copy: bytes per copy */
    gpuStream_t stream;       /* copy */
    hipsoftmax_handle h;      /* whole rows */
    const hipsoftmax_problem *p;
} rotating;

static void do_copy(void *ctx, int i)
{
    rotating *c = ctx;
    const int k = i % c->sets;
    CHECK_GPU(gpuMemcpyAsync(c->out[k], c->in[k], c->bytes, gpuMemcpyDeviceToDevice, c->stream));
}

static void do_whole(void *ctx, int i)
{
    rotating *c = ctx;
    const int k = i % c->sets;
    CHECK_HSM(hipsoftmax_forward(c->h, c->p, c->in[k], c->out[k]));
}

static void bench_shape(world *w, int64_t rows, int64_t cols, dtype t, int iters)
{
    const int n = w->p; /* one shard per GPU */
    const size_t es = dtype_size(t);
    w->k = 1, w->rows = rows, w->cols = cols;
    size_t widest = 0; /* bytes of the widest slice */
    for (int i = 0; i < w->p; i++) {
        gpu *g = &w->g[i];
        g->c0 = shard_col(cols, i, n), g->c1 = shard_col(cols, i + 1, n);
        const size_t sb = (size_t)rows * (size_t)(g->c1 - g->c0) * es;
        widest = sb > widest ? sb : widest;
    }
    const int sets = sets_for(2 * widest);
    rotating r[MAX_GPUS];
    for (int i = 0; i < w->p; i++) {
        gpu *g = &w->g[i];
        CHECK_GPU(gpuSetDevice(g->device));
        const size_t sb = (size_t)rows * (size_t)(g->c1 - g->c0) * es;
        const size_t recs = (size_t)rows * HIPSOFTMAX_STATS_FLOATS * sizeof(float);
        r[i].sets = sets, r[i].bytes = sb, r[i].stream = g->stream, r[i].h = NULL, r[i].p = NULL;
        for (int k = 0; k < sets; k++) {
            r[i].in[k] = dev_alloc(sb), r[i].out[k] = dev_alloc(sb);
            fill_random(r[i].in[k], rows, g->c1 - g->c0, t);
        }
        g->x = r[i].in[0], g->out = r[i].out[0];
        g->stats = dev_alloc(recs), g->gathered = dev_alloc(recs * (size_t)n);
        CHECK_HSM(hipsoftmax_set_family(g->h, HIPSOFTMAX_FAMILY_AUTO));
    }
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, api_dtype[t], rows, cols);
    CHECK_HSM(sharded(w, &p, OP_FWD, COLL_GATHER)); /* plans made, NCCL connected */

    /* Per iteration and GPU: events before the statistics, after them, after the collective, after
     * the normalise. Iterations run back to back, as in a training step. */
    const int warm = 3;
    const size_t nev = (size_t)(warm + iters) * (size_t)w->p * 4;
    gpuEvent_t *ev = xmalloc(sizeof(gpuEvent_t) * nev);
#define EV(it, i, e) ev[((size_t)(it) * (size_t)w->p + (size_t)(i)) * 4 + (size_t)(e)]
    for (int i = 0; i < w->p; i++) {
        CHECK_GPU(gpuSetDevice(w->g[i].device));
        for (int it = 0; it < warm + iters; it++)
            for (int e = 0; e < 4; e++)
                CHECK_GPU(gpuEventCreate(&EV(it, i, e)));
    }
    for (int it = 0; it < warm + iters; it++) {
        for (int i = 0; i < w->p; i++) {
            w->g[i].x = r[i].in[it % sets], w->g[i].out = r[i].out[it % sets];
            CHECK_GPU(gpuSetDevice(w->g[i].device));
            CHECK_GPU(gpuEventRecord(EV(it, i, 0), w->g[i].stream));
        }
        CHECK_HSM(enqueue_stats(w, &p, OP_FWD));
        for (int i = 0; i < w->p; i++) {
            CHECK_GPU(gpuSetDevice(w->g[i].device));
            CHECK_GPU(gpuEventRecord(EV(it, i, 1), w->g[i].stream));
        }
        enqueue_collective(w, COLL_GATHER);
        for (int i = 0; i < w->p; i++) {
            CHECK_GPU(gpuSetDevice(w->g[i].device));
            CHECK_GPU(gpuEventRecord(EV(it, i, 2), w->g[i].stream));
        }
        CHECK_HSM(enqueue_normalise(w, &p, OP_FWD, COLL_GATHER));
        for (int i = 0; i < w->p; i++) {
            CHECK_GPU(gpuSetDevice(w->g[i].device));
            CHECK_GPU(gpuEventRecord(EV(it, i, 3), w->g[i].stream));
        }
    }
    sync_all(w);
    /* Per iteration, the slowest GPU of each phase and of the whole; then medians. */
    double *ph[4];
    for (int e = 0; e < 4; e++)
        ph[e] = xmalloc(sizeof(double) * (size_t)iters);
    for (int it = 0; it < iters; it++) {
        double m[4] = {0, 0, 0, 0};
        for (int i = 0; i < w->p; i++) {
            CHECK_GPU(gpuSetDevice(w->g[i].device));
            const double d[4] = {elapsed(EV(warm + it, i, 0), EV(warm + it, i, 1)),
                                 elapsed(EV(warm + it, i, 1), EV(warm + it, i, 2)),
                                 elapsed(EV(warm + it, i, 2), EV(warm + it, i, 3)),
                                 elapsed(EV(warm + it, i, 0), EV(warm + it, i, 3))};
            for (int e = 0; e < 4; e++)
                m[e] = d[e] > m[e] ? d[e] : m[e];
        }
        for (int e = 0; e < 4; e++)
            ph[e][it] = m[e];
    }
    const double t_stats = median(ph[0], iters), t_coll = median(ph[1], iters), t_norm = median(ph[2], iters);
    const double t_total = median(ph[3], iters);
    for (int i = 0; i < w->p; i++) {
        CHECK_GPU(gpuSetDevice(w->g[i].device));
        for (int it = 0; it < warm + iters; it++)
            for (int e = 0; e < 4; e++)
                CHECK_GPU(gpuEventDestroy(EV(it, i, e)));
    }
#undef EV
    for (int e = 0; e < 4; e++)
        free(ph[e]);
    free(ev);

    /* GPU 0's slice copied device to device: the bandwidth reference, read + write bytes. */
    gpu *g0 = &w->g[0];
    CHECK_GPU(gpuSetDevice(g0->device));
    const double t_copy = time_on_stream(g0->stream, iters, do_copy, &r[0]);
    const double copy_gbs = 2.0 * (double)r[0].bytes / (t_copy * 1e6);
    /* Bytes a sharded softmax must move per GPU: its slice read once and written once (the widest). */
    const double gbs = 2.0 * (double)widest / (t_total * 1e6);
    for (int i = 0; i < w->p; i++) {
        gpu *g = &w->g[i];
        CHECK_GPU(gpuSetDevice(g->device));
        for (int k = 0; k < sets; k++) {
            CHECK_GPU(gpuFree(r[i].in[k]));
            CHECK_GPU(gpuFree(r[i].out[k]));
        }
        CHECK_GPU(gpuFree(g->stats));
        CHECK_GPU(gpuFree(g->gathered));
        g->x = g->out = NULL, g->stats = g->gathered = NULL;
    }

    /* One GPU over the whole rows, for scale. */
    CHECK_GPU(gpuSetDevice(g0->device));
    const size_t whole = (size_t)rows * (size_t)cols * es;
    rotating wr;
    memset(&wr, 0, sizeof wr);
    wr.sets = sets_for(2 * whole), wr.h = w->ref, wr.p = &p;
    for (int k = 0; k < wr.sets; k++) {
        wr.in[k] = dev_alloc(whole), wr.out[k] = dev_alloc(whole);
        fill_random(wr.in[k], rows, cols, t);
    }
    CHECK_HSM(hipsoftmax_set_stream(w->ref, g0->stream));
    const double t_one = time_on_stream(g0->stream, iters, do_whole, &wr);
    CHECK_HSM(hipsoftmax_set_stream(w->ref, NULL));
    for (int k = 0; k < wr.sets; k++) {
        CHECK_GPU(gpuFree(wr.in[k]));
        CHECK_GPU(gpuFree(wr.out[k]));
    }

    printf("| %lldx%lld | %s | %d | %.3f | %.3f | %.3f | %.3f | %.1f%% | %.0f | %.0f | %.1f%% | %.3f |\n", (long long)rows,
           (long long)cols, dtype_name[t], w->p, t_stats, t_coll, t_norm, t_total, 100.0 * t_coll / t_total, gbs, copy_gbs,
           100.0 * gbs / copy_gbs, t_one);
    printf("RESULT hipsoftmax %lldx%lld %s gpus=%d total_ms=%.4f collective_ms=%.4f gbs=%.1f copy_gbs=%.1f one_gpu_ms=%.4f\n",
           (long long)rows, (long long)cols, dtype_name[t], w->p, t_total, t_coll, gbs, copy_gbs, t_one);
    fflush(stdout);
}

/* ---- main ------------------------------------------------------------------------------------------- */

static void usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--gpus P] [--virtual K] [--min-gpus N]   correctness against one GPU\n"
            "       %s --bench [--gpus P] [--iters I]            stats + collective + normalise, LM-head shapes\n",
            argv0, argv0);
}

int main(int argc, char **argv)
{
    int bench = 0, want_p = 0, k = 0, min_gpus = 1, iters = 50;
    for (int i = 1; i < argc; i++) {
        const int more = i + 1 < argc;
        if (strcmp(argv[i], "--bench") == 0)
            bench = 1;
        else if (strcmp(argv[i], "--gpus") == 0 && more)
            want_p = atoi(argv[++i]);
        else if (strcmp(argv[i], "--virtual") == 0 && more)
            k = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min-gpus") == 0 && more)
            min_gpus = atoi(argv[++i]);
        else if (strcmp(argv[i], "--iters") == 0 && more)
            iters = atoi(argv[++i]);
        else {
            usage(argv[0]);
            return 2;
        }
    }
    if (want_p < 0 || k < 0 || k > MAX_VIRTUAL || iters < 1 || min_gpus < 1) {
        usage(argv[0]);
        return 2;
    }

    int count = 0;
    if (gpuGetDeviceCount(&count) != gpuSuccess || count < 1) {
        printf("no GPU for this build's vendor: skipped\n");
        return SKIP_CODE;
    }
    if (count < min_gpus) {
        printf("%d GPU(s), %d needed: skipped\n", count, min_gpus);
        return SKIP_CODE;
    }
    static world w;
    w.p = want_p > 0 && want_p < count ? want_p : count;
    w.p = w.p > MAX_GPUS ? MAX_GPUS : w.p;
    w.k = k > 0 ? k : w.p == 1 ? 2 : 1; /* one GPU: two virtual shards, so the records are combined */

    int devs[MAX_GPUS];
    ncclComm_t comms[MAX_GPUS];
    for (int i = 0; i < w.p; i++) {
        gpu *g = &w.g[i];
        g->device = devs[i] = i;
        const hipsoftmax_status st = hipsoftmax_create_for_device(&g->h, i);
        if (st == HIPSOFTMAX_STATUS_NO_DEVICE) {
            printf("GPU %d: no device for this build's vendor: skipped\n", i);
            return SKIP_CODE;
        }
        CHECK_HSM(st);
        CHECK_GPU(gpuSetDevice(i));
        CHECK_GPU(gpuStreamCreate(&g->stream));
        CHECK_HSM(hipsoftmax_set_stream(g->h, g->stream));
    }
    CHECK_NCCL(ncclCommInitAll(comms, w.p, devs));
    for (int i = 0; i < w.p; i++)
        w.g[i].comm = comms[i];
    CHECK_HSM(hipsoftmax_create_for_device(&w.ref, 0));
    char target[64];
    CHECK_HSM(hipsoftmax_get_target(w.g[0].h, target, sizeof target));
    int nccl_version = 0;
    CHECK_NCCL(ncclGetVersion(&nccl_version));
    printf("sharded_softmax: %s, %d GPU(s) of %d visible (%s), collective library version %d, hipsoftmax %s\n",
           GPU_VENDOR, w.p, count, target, nccl_version, hipsoftmax_version_string());

    int rc = 0;
    if (bench) {
        printf("\nsharded softmax forward over %d GPU(s): statistics, all-gather of the records, normalise; median of %d "
               "iterations (per iteration the slowest GPU). GB/s: per GPU, its slice read once and written once, "
               "over the total; copy: a device-to-device copy of GPU 0's slice (read + write bytes).\n\n", w.p, iters);
        printf("| shape | dtype | GPUs | stats ms | collective ms | normalise ms | total ms | collective share | GB/s per GPU "
               "| copy GB/s | share of copy | 1 GPU, whole rows ms |\n");
        printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        bench_shape(&w, 4096, 128256, DT_BF16, iters);
        bench_shape(&w, 8192, 151936, DT_BF16, iters);
        bench_shape(&w, 64, 262144, DT_F32, iters);
    } else {
        static const int64_t shapes[][2] = {{203, 1500}, {61, 24001}, {5, 300007}};
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int t = 0; t < DT_COUNT; t++)
                check_shape(&w, shapes[s][0], shapes[s][1], (dtype)t);
        printf("skipped: a forced family that cannot serve a slice\n");
        printf("sharded_softmax: %lld passed, %lld failed, %lld skipped\n", n_pass, n_fail, n_skip);
        if (n_auto_skip > 0)
            printf("sharded_softmax: the plan's own choice (family auto) refused %lld case(s): a failure\n", n_auto_skip);
        rc = n_fail == 0 && n_auto_skip == 0 && n_pass > 0 ? 0 : 1;
    }

    for (int i = 0; i < w.p; i++) {
        CHECK_GPU(gpuSetDevice(w.g[i].device));
        CHECK_NCCL(ncclCommDestroy(w.g[i].comm));
        CHECK_HSM(hipsoftmax_destroy(w.g[i].h));
        CHECK_GPU(gpuStreamDestroy(w.g[i].stream));
    }
    CHECK_HSM(hipsoftmax_destroy(w.ref));
    return rc;
}
