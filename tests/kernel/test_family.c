/* kernel.<family>.<dtype>.fwd|bwd: the forward with options and the backward on the GPU against a
 * float64 CPU reference (reference_ops.c), every option on every shape the forced family or kernel
 * serves, on four layouts (dense; padded strides on the vector path and off it; in place), with the
 * edge rows of kernel.* (all -inf, a NaN, a +inf, +-big) and fully masked rows.
 *
 * Forward options, one group of cases each: log-softmax; scale with an additive mask per row (f32,
 * f16, bf16 masks); a bool mask shared by every row; attention scores [batch][heads][queries] with a
 * [batch][1][queries] mask; causal, square and with a KV-cache offset, plain and in the attention
 * layout; alpha/beta blending (beta = 0 over a NaN-poisoned y, which must not leak in); every other
 * output dtype; safe rows over fully masked rows; row statistics; sharded rows (three column shards:
 * hipsoftmax_forward_stats, the records gathered, hipsoftmax_forward with stats_in). Backward: softmax
 * and log-softmax; scale alone and with alpha/beta; every (dy, dx) dtype pair; in place (dx == dy);
 * sharded.
 *
 * Every device buffer is allocated to the byte its tensor spans (no slack after the last row), so
 * under compute-sanitizer any read past a row or a tensor is reported.
 *
 * Tolerances, |got - expected| <= tol, expected = alpha * ref + beta * old, the reference computed in
 * float64 from the same (rounded) input values, so only the kernel's own error counts:
 *   forward softmax: rel * (|alpha * ref| + |beta * old|) + abs, per output dtype as in kernel.*:
 *     f32 2e-5 / 1e-37 (exp2 of (u - m) * sigma * log2 e: the rounding of the difference and the
 *     product, up to 1.2e-5 relative for results that do not underflow, and a few ulp of exp2, the
 *     sum and the reciprocal), f16 6e-4 / 6e-8 (+ the rounding to f16, 2^-11), bf16 4.5e-3 / 1e-37
 *     (2^-8). A mask tensor adds to rel 4 * 2^-24 * max|z| of the row: z = scale * x + mask is
 *     rounded to fp32 once, an absolute error of up to |z| * 2^-24 in each exponent (an element's
 *     and the max's) and in the sum's terms (the f16 edge row: z near 7500, 1.8e-4).
 *   forward log-softmax: the same rel, plus 2e-5 absolute: log(sum) inherits the sum's 1.2e-5
 *     relative error as an absolute one.
 *   statistics: max 1e-6 relative; lse 1e-6 relative + 2e-5.
 *   backward: rel * (|terms|) as above with f32 2e-6 (a product and a difference), plus the row sum's
 *     rounding: 6e-8 * (64 + n / 8192) * sum|terms| (each thread adds at most n / 8192 partial terms
 *     in sequence, then at most 64 levels of tree and group combine), times scale * |y| (softmax)
 *     or scale * exp(y) (log-softmax, whose exp adds 4e-6 * |s|).
 * A reference that rounds to +-inf in the output dtype must be matched by that infinity. A NaN
 * reference must give NaN; the padding between rows of the output must not change. */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsm_vendor.h"
#include "reference.h"
#include "reference_ops.h"
#include "test_util.h"

static const hipsoftmax_dtype api_dt[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
static const char *const dt_names[] = {"f32", "f16", "bf16"};

enum { LAYOUT_DENSE, LAYOUT_PAD_VEC, LAYOUT_PAD_SCALAR, LAYOUT_INPLACE, LAYOUT_COUNT };
enum { MASK_NONE, MASK_ADD, MASK_BOOL, MASK_CAUSAL };
enum { BCAST_ROW, BCAST_ALL, BCAST_ATTN };

typedef struct fcase {
    int64_t rows, cols;
    int layout;
    test_dtype x_t, y_t;
    int log;
    float scale, alpha, beta;
    int mask, bcast;
    test_dtype mask_t;
    int64_t causal_offset;
    int attn;       /* rows as [batch][2 heads][queries] (mask and causal index by query) */
    int safe, stats;
    int empty_rows; /* mask rows 4, 11, 18, ... entirely */
    int poison;     /* beta = 0 over a y of NaN */
    int shards;     /* > 1: the columns split in shards, statistics gathered, then each shard normalised */
} fcase;

typedef struct bcase {
    int64_t rows, cols;
    int layout;
    test_dtype y_t, dy_t, dx_t;
    int log;
    float scale, alpha, beta;
    int shards;     /* > 1: as fcase.shards */
} bcase;

static long long cases, skipped, bad_cases;

static void fill_edge_row(void *buf, size_t off, int64_t cols, test_dtype t, int64_t row, int64_t rows, float big)
{
    for (int64_t c = 0; c < cols; c++) {
        float v = test_uniform(-8.0f, 8.0f);
        if (rows >= 5 && row == 0)
            v = -INFINITY;
        else if (rows >= 5 && row == 1 && c == cols / 2)
            v = NAN;
        else if (rows >= 5 && row == 2 && c == 0)
            v = INFINITY;
        else if (rows >= 5 && row == 3)
            v = (c % 3 == 0) ? big : -big;
        else if (rows >= 5 && (row == 4 || row == 5))
            v += row == 4 ? 84.0f : 78.0f; /* a max either side of the one-FFMA exponent's bound (hsm_expo) */
        test_set(buf, off + (size_t)c, t, v);
    }
}

static int64_t pad_of(int layout, int second)
{
    return layout == LAYOUT_PAD_VEC ? (second ? 16 : 8) : layout == LAYOUT_PAD_SCALAR ? (second ? 5 : 3) : 0;
}

/* ---- sharded rows ------------------------------------------------------------------------------------ */

/* The first column of shard s of n over cols columns (a multiple of 8 where that keeps every shard
 * non-empty, so the vector path runs too). */
static int64_t shard_col(int64_t cols, int s, int n)
{
    const int64_t c = cols * s / n, c8 = c / 8 * 8;
    return s < n && cols >= 8 * (int64_t)n && c8 > 0 ? c8 : c; /* the last shard ends at cols */
}

/* Every shard's statistics into one buffer, in the layout an all-gather makes ([shard][row][record]),
 * then every shard computed from them, as a row split over n devices would be (examples/). For the
 * forward, ptrs = {x, y}; for the backward, {y, dy, dx}. The buffer is allocated to the byte. */
static hipsoftmax_status run_sharded(hipsoftmax_handle h, const hipsoftmax_problem *p, int bwd, void *const *ptrs,
                                     const size_t *esize, size_t mes, int n)
{
    float *gathered = NULL;
    const size_t rec = HIPSOFTMAX_STATS_FLOATS;
    CHECK_HIP(hipMalloc((void **)&gathered, (size_t)n * (size_t)p->rows * rec * sizeof(float)));
    hipsoftmax_status st = HIPSOFTMAX_STATUS_SUCCESS;
    for (int pass = 0; pass < 2 && st == HIPSOFTMAX_STATUS_SUCCESS; pass++)
        for (int s = 0; s < n && st == HIPSOFTMAX_STATUS_SUCCESS; s++) {
            const int64_t c0 = shard_col(p->cols, s, n), c1 = shard_col(p->cols, s + 1, n);
            hipsoftmax_problem q = *p;
            q.cols = c1 - c0;
            q.causal_offset = p->causal_offset - c0; /* global column c0 + j is local j */
            if (p->mask_ptr != NULL)
                q.mask_ptr = (const char *)p->mask_ptr + (size_t)c0 * mes;
            void *t[3];
            for (int i = 0; i < (bwd ? 3 : 2); i++)
                t[i] = (char *)ptrs[i] + (size_t)c0 * esize[i];
            if (pass == 0) {
                q.stats = gathered + (size_t)s * (size_t)p->rows * rec;
                st = bwd ? hipsoftmax_backward_stats(h, &q, t[0], t[1]) : hipsoftmax_forward_stats(h, &q, t[0]);
            } else {
                q.stats_in = gathered, q.stats_in_shards = n;
                st = bwd ? hipsoftmax_backward(h, &q, t[0], t[1], t[2]) : hipsoftmax_forward(h, &q, t[0], t[1]);
            }
        }
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipFree(gathered));
    return st;
}

/* ---- forward ---------------------------------------------------------------------------------------- */

static void run_forward(hipsoftmax_handle h, const fcase *k)
{
    const int64_t rows = k->rows, cols = k->cols;
    const int inplace = k->layout == LAYOUT_INPLACE && k->y_t == k->x_t;
    const int64_t xs = cols + pad_of(k->layout, 0), ys = inplace ? xs : cols + pad_of(k->layout, 1);
    const size_t xes = test_dtype_size(k->x_t), yes = test_dtype_size(k->y_t);
    const size_t xbytes = (size_t)((rows - 1) * xs + cols) * xes, ybytes = (size_t)((rows - 1) * ys + cols) * yes;
    void *hx = test_xmalloc(xbytes), *hy0 = test_xmalloc(ybytes), *hy = test_xmalloc(ybytes);
    const float big = k->x_t == T_F16 || k->y_t == T_F16 ? 6.0e4f : 1.0e30f;
    for (size_t i = 0; i < xbytes / xes; i++)
        test_set(hx, i, k->x_t, 777.0f); /* padding sentinel */
    for (int64_t r = 0; r < rows; r++)
        fill_edge_row(hx, (size_t)(r * xs), cols, k->x_t, r, rows, big);

    /* The attention layout: 2 heads, about three batches of queries. */
    const int64_t heads = k->attn ? 2 : 1;
    const int64_t queries = k->attn ? (rows / 6 > 0 ? rows / 6 : 1) : rows;
    const int64_t batches = (rows - 1) / (heads * queries) + 1;
    const int64_t qrows = queries < rows ? queries : rows;
    int64_t mb = 1, mr = qrows, mrs = cols + (k->layout == LAYOUT_PAD_SCALAR ? 1 : 0), mbs = 0;
    if (k->bcast == BCAST_ALL)
        mr = 1, mrs = 0;
    if (k->bcast == BCAST_ATTN)
        mb = batches, mbs = mr * mrs;
    const int tensor_mask = k->mask == MASK_ADD || k->mask == MASK_BOOL;
    const size_t mes = k->mask == MASK_BOOL ? 1 : test_dtype_size(k->mask_t);
    const size_t mbytes = tensor_mask ? (size_t)((mb - 1) * mbs + (mr - 1) * mrs + cols) * mes : 0;
    void *hm = test_xmalloc(mbytes);
    for (size_t i = 0; tensor_mask && i < mbytes / mes; i++) {
        if (k->mask == MASK_BOOL)
            ((uint8_t *)hm)[i] = test_uniform(0.0f, 1.0f) < 0.9f ? (uint8_t)(1 + (i % 3)) : 0;
        else
            test_set(hm, i, k->mask_t, test_uniform(0.0f, 1.0f) < 0.1f ? -INFINITY : test_uniform(-4.0f, 4.0f));
    }
    if (tensor_mask && k->empty_rows)
        for (int64_t q = 4; q < mr; q += 7)
            for (int64_t b = 0; b < mb; b++)
                for (int64_t c = 0; c < cols; c++) {
                    const size_t i = (size_t)(b * mbs + q * mrs + c);
                    if (k->mask == MASK_BOOL)
                        ((uint8_t *)hm)[i] = 0;
                    else
                        test_set(hm, i, k->mask_t, -INFINITY);
                }
    /* y before the call: blended over, NaN-poisoned, or a pattern (its padding must survive). */
    for (size_t i = 0; i < ybytes / yes; i++)
        test_set(hy0, i, k->y_t, k->beta != 0.0f ? test_uniform(-1.0f, 1.0f) : k->poison ? NAN : 555.0f);

    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, api_dt[k->x_t], rows, cols);
    p.y_dtype = api_dt[k->y_t];
    p.x_row_stride = xs, p.y_row_stride = ys;
    p.algorithm = k->log ? HIPSOFTMAX_ALGO_LOG_SOFTMAX : HIPSOFTMAX_ALGO_SOFTMAX;
    p.scale = k->scale, p.alpha = k->alpha, p.beta = k->beta;
    p.flags = k->safe ? HIPSOFTMAX_FLAG_SAFE_ROWS : 0;
    p.heads = heads, p.queries = queries;
    p.mask = k->mask == MASK_ADD ? HIPSOFTMAX_MASK_ADDITIVE : k->mask == MASK_BOOL ? HIPSOFTMAX_MASK_BOOL
             : k->mask == MASK_CAUSAL ? HIPSOFTMAX_MASK_CAUSAL : HIPSOFTMAX_MASK_NONE;
    p.causal_offset = k->causal_offset;

    void *dx = test_to_device(hx, xbytes), *dy = NULL, *dm = NULL;
    float *dstats = NULL;
    if (inplace) {
        dy = dx;
    } else {
        dy = test_to_device(hy0, ybytes);
    }
    if (inplace && k->beta != 0.0f)
        memcpy(hy0, hx, ybytes); /* in place, y's old values are x */
    if (tensor_mask) {
        dm = test_to_device(hm, mbytes);
        p.mask_ptr = dm, p.mask_dtype = api_dt[k->mask_t];
        p.mask_batches = mb, p.mask_rows = mr, p.mask_row_stride = mrs, p.mask_batch_stride = mbs;
    }
    const size_t sbytes = (size_t)rows * HIPSOFTMAX_STATS_FLOATS * sizeof(float);
    if (k->stats) {
        CHECK_HIP(hipMalloc((void **)&dstats, sbytes));
        CHECK_HIP(hipMemset(dstats, 0, sbytes));
        p.stats = dstats;
    }
    void *const fptrs[2] = {dx, dy};
    const size_t fes[2] = {xes, yes};
    const hipsoftmax_status st = k->shards > 1 ? run_sharded(h, &p, 0, fptrs, fes, mes, k->shards)
                                               : hipsoftmax_forward(h, &p, dx, dy);
    cases++;
    if (st == HIPSOFTMAX_STATUS_NOT_SUPPORTED) {
        skipped++;
    } else if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        fprintf(stderr, "forward %lldx%lld layout %d: %s\n", (long long)rows, (long long)cols, k->layout,
                hipsoftmax_status_string(st));
        bad_cases++;
    } else {
        CHECK_HIP(hipDeviceSynchronize());
        CHECK_HIP(hipMemcpy(hy, dy, ybytes, hipMemcpyDeviceToHost));
        float *hs = test_xmalloc(sbytes);
        if (k->stats)
            CHECK_HIP(hipMemcpy(hs, dstats, sbytes, hipMemcpyDeviceToHost));
        double *z = test_xmalloc(sizeof(double) * (size_t)cols), *ref = test_xmalloc(sizeof(double) * (size_t)cols);
        long long bad = 0;
        for (int64_t r = 0; r < rows; r++) {
            const int64_t q = r % queries, b = r / (heads * queries);
            const int64_t mrow = (mb == 1 ? 0 : b) * mbs + (mr == 1 ? 0 : q) * mrs;
            for (int64_t c = 0; c < cols; c++) {
                const double xv = test_get(hx, (size_t)(r * xs + c), k->x_t);
                double zv = (double)k->scale * xv;
                if (k->mask == MASK_ADD)
                    zv = (double)k->scale * xv + test_get(hm, (size_t)(mrow + c), k->mask_t);
                else if (k->mask == MASK_BOOL)
                    zv = ((uint8_t *)hm)[mrow + c] ? (double)k->scale * xv : -INFINITY;
                else if (k->mask == MASK_CAUSAL && c > q + k->causal_offset)
                    zv = -INFINITY;
                z[c] = zv;
            }
            double mx, lse, zmag = 0.0;
            test_ref_forward(z, cols, k->log, k->safe, ref, &mx, &lse);
            for (int64_t c = 0; tensor_mask && c < cols; c++)
                if (isfinite(z[c]) && fabs(z[c]) > zmag)
                    zmag = fabs(z[c]);
            const double zrel = 4.0 * zmag / 16777216.0;
            for (int64_t c = 0; c < ys; c++) {
                const size_t i = (size_t)(r * ys + c);
                if (c >= cols) {
                    if (!inplace && r < rows - 1 && memcmp((char *)hy + i * yes, (char *)hy0 + i * yes, yes) != 0 &&
                        bad++ < 5)
                        fprintf(stderr, "  padding written at row %lld col %lld\n", (long long)r, (long long)c);
                    continue;
                }
                const double old = k->beta != 0.0f ? test_get(hy0, i, k->y_t) : 0.0;
                const double want = k->alpha * ref[c] + k->beta * old;
                const double tol = test_forward_tol(k->y_t, zrel, k->alpha, ref[c], k->beta * old, k->log);
                const double got = test_get(hy, i, k->y_t);
                if (!test_matches(got, want, tol, k->y_t) && bad++ < 5)
                    fprintf(stderr, "  row %lld col %lld: got %.9g expected %.9g\n", (long long)r, (long long)c, got,
                            want);
            }
            if (k->stats) { /* {max, lse, sum, 0} */
                const float *g = hs + (size_t)r * HIPSOFTMAX_STATS_FLOATS;
                /* The sum of exp(z - max) itself, not exp(lse - max): where max is huge (1e30 rows)
                 * log(sum) is below its ulp, lse == max, and exp(lse - max) says 1 for any sum. Each
                 * term carries z's fp32 rounding (zrel, as the outputs do): 1823x781 f16 rows near
                 * z = 7504 were 2.2e-4 off in the sum. */
                double sum = 0.0;
                for (int64_t c = 0; !(isinf(mx) && mx < 0) && c < cols; c++)
                    sum += exp(z[c] - mx);
                if ((!test_matches(g[0], mx, 1e-6 * fabs(mx), T_F32) ||
                     !test_matches(g[1], lse, 1e-6 * fabs(lse) + 2e-5, T_F32) ||
                     !test_matches(g[2], sum, (2e-5 + zrel) * fabs(sum), T_F32) || g[3] != 0.0f) &&
                    bad++ < 5)
                    fprintf(stderr, "  row %lld stats: got {%.9g, %.9g, %.9g, %g} expected {%.9g, %.9g, %.9g, 0}\n",
                            (long long)r, g[0], g[1], g[2], g[3], mx, lse, sum);
            }
        }
        if (bad) {
            fprintf(stderr,
                    "forward %lldx%lld layout %d x %s y %s log %d scale %g alpha %g beta %g mask %d/%d (%s) causal %lld "
                    "attn %d safe %d stats %d shards %d: %lld wrong\n",
                    (long long)rows, (long long)cols, k->layout, dt_names[k->x_t], dt_names[k->y_t], k->log,
                    (double)k->scale, (double)k->alpha, (double)k->beta, k->mask, k->bcast, dt_names[k->mask_t],
                    (long long)k->causal_offset, k->attn, k->safe, k->stats, k->shards, bad);
            bad_cases++;
        }
        free(z), free(ref), free(hs);
    }
    CHECK_HIP(hipFree(dx));
    if (dy != dx)
        CHECK_HIP(hipFree(dy));
    if (dm != NULL)
        CHECK_HIP(hipFree(dm));
    if (dstats != NULL)
        CHECK_HIP(hipFree(dstats));
    free(hx), free(hy0), free(hy), free(hm);
}

/* ---- backward --------------------------------------------------------------------------------------- */

static void run_backward(hipsoftmax_handle h, const bcase *k)
{
    const int64_t rows = k->rows, cols = k->cols;
    const int inplace = k->layout == LAYOUT_INPLACE && k->dx_t == k->dy_t;
    const int64_t ys = cols + pad_of(k->layout, 0), ds = cols + pad_of(k->layout, 1);
    const int64_t xs = inplace ? ds : cols + pad_of(k->layout, 0);
    const size_t yes = test_dtype_size(k->y_t), des = test_dtype_size(k->dy_t), xes = test_dtype_size(k->dx_t);
    const size_t ybytes = (size_t)((rows - 1) * ys + cols) * yes, dbytes = (size_t)((rows - 1) * ds + cols) * des;
    const size_t xbytes = (size_t)((rows - 1) * xs + cols) * xes;
    void *hy = test_xmalloc(ybytes), *hd = test_xmalloc(dbytes), *hx0 = test_xmalloc(xbytes), *hx = test_xmalloc(xbytes);
    double *yrow = test_xmalloc(sizeof(double) * (size_t)cols);
    /* y: the softmax (log-softmax) of random logits, as stored; row 1 has a NaN in dy, row 2 masked
     * columns (y = 0, log: -inf) in every other column. */
    for (int64_t r = 0; r < rows; r++) {
        double m = -INFINITY, s = 0.0;
        for (int64_t c = 0; c < cols; c++) {
            yrow[c] = (rows >= 5 && r == 2 && c % 2) ? -INFINITY : test_uniform(-6.0f, 6.0f);
            m = yrow[c] > m ? yrow[c] : m;
        }
        for (int64_t c = 0; c < cols; c++)
            s += exp(yrow[c] - m);
        for (int64_t c = 0; c < cols; c++) {
            const double v = k->log ? yrow[c] - m - log(s) : exp(yrow[c] - m) / s;
            test_set(hy, (size_t)(r * ys + c), k->y_t, (float)v);
            test_set(hd, (size_t)(r * ds + c), k->dy_t, (rows >= 5 && r == 1 && c == cols / 3) ? NAN
                                                                                            : test_uniform(-1.0f, 1.0f));
        }
    }
    for (size_t i = 0; i < xbytes / xes; i++)
        test_set(hx0, i, k->dx_t, k->beta != 0.0f ? test_uniform(-1.0f, 1.0f) : 555.0f);
    if (inplace)
        memcpy(hx0, hd, xbytes);

    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, api_dt[k->dx_t], rows, cols);
    p.y_dtype = api_dt[k->y_t], p.dy_dtype = api_dt[k->dy_t];
    p.y_row_stride = ys, p.dy_row_stride = ds, p.x_row_stride = xs;
    p.algorithm = k->log ? HIPSOFTMAX_ALGO_LOG_SOFTMAX : HIPSOFTMAX_ALGO_SOFTMAX;
    p.scale = k->scale, p.alpha = k->alpha, p.beta = k->beta;
    void *dyv = test_to_device(hy, ybytes), *ddy = test_to_device(hd, dbytes), *ddx = inplace ? ddy : test_to_device(hx0, xbytes);
    void *const bptrs[3] = {dyv, ddy, ddx};
    const size_t bes[3] = {yes, des, xes};
    const hipsoftmax_status st = k->shards > 1 ? run_sharded(h, &p, 1, bptrs, bes, 0, k->shards)
                                               : hipsoftmax_backward(h, &p, dyv, ddy, ddx);
    cases++;
    if (st == HIPSOFTMAX_STATUS_NOT_SUPPORTED) {
        skipped++;
    } else if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        fprintf(stderr, "backward %lldx%lld layout %d: %s\n", (long long)rows, (long long)cols, k->layout,
                hipsoftmax_status_string(st));
        bad_cases++;
    } else {
        CHECK_HIP(hipDeviceSynchronize());
        CHECK_HIP(hipMemcpy(hx, ddx, xbytes, hipMemcpyDeviceToHost));
        double *dyr = test_xmalloc(sizeof(double) * (size_t)cols), *ref = test_xmalloc(sizeof(double) * (size_t)cols);
        long long bad = 0;
        for (int64_t r = 0; r < rows; r++) {
            for (int64_t c = 0; c < cols; c++) {
                yrow[c] = test_get(hy, (size_t)(r * ys + c), k->y_t);
                dyr[c] = test_get(hd, (size_t)(r * ds + c), k->dy_t);
            }
            double sa;
            test_ref_backward(yrow, dyr, cols, k->log, k->scale, ref, &sa);
            double s = 0.0;
            for (int64_t c = 0; c < cols; c++)
                s += k->log ? dyr[c] : dyr[c] * yrow[c];
            for (int64_t c = 0; c < xs; c++) {
                const size_t i = (size_t)(r * xs + c);
                if (c >= cols) {
                    if (!inplace && r < rows - 1 && memcmp((char *)hx + i * xes, (char *)hx0 + i * xes, xes) != 0 &&
                        bad++ < 5)
                        fprintf(stderr, "  padding written at row %lld col %lld\n", (long long)r, (long long)c);
                    continue;
                }
                const double old = k->beta != 0.0f ? test_get(hx0, i, k->dx_t) : 0.0;
                const double want = k->alpha * ref[c] + k->beta * old;
                const double tol = test_backward_tol(k->dx_t, k->log, k->scale, k->alpha, k->beta * old, yrow[c],
                                                     dyr[c], s, sa, cols);
                const double got = test_get(hx, i, k->dx_t);
                if (!test_matches(got, want, tol, k->dx_t) && bad++ < 5)
                    fprintf(stderr, "  row %lld col %lld: got %.9g expected %.9g (tol %.3g)\n", (long long)r,
                            (long long)c, got, want, tol);
            }
        }
        if (bad) {
            fprintf(stderr, "backward %lldx%lld layout %d y %s dy %s dx %s log %d scale %g alpha %g beta %g shards %d: "
                    "%lld wrong\n",
                    (long long)rows, (long long)cols, k->layout, dt_names[k->y_t], dt_names[k->dy_t],
                    dt_names[k->dx_t], k->log, (double)k->scale, (double)k->alpha, (double)k->beta, k->shards, bad);
            bad_cases++;
        }
        free(dyr), free(ref);
    }
    CHECK_HIP(hipFree(dyv));
    CHECK_HIP(hipFree(ddy));
    if (ddx != ddy)
        CHECK_HIP(hipFree(ddx));
    free(hy), free(hd), free(hx0), free(hx), free(yrow);
}

/* ---- the matrix ----------------------------------------------------------------------------------- */

typedef struct { int64_t rows, cols; } shape;

/* Irregular shapes over every family's range: tiny rows, the tutorial's, odd and power-of-two
 * lengths, rows one ROW block holds, rows for SPLIT's single blocks and groups, and (full runs only)
 * rows longer than the GPU holds on chip. 128 and 512: short rows on 16 bytes, the only rows WARP's
 * _log kernels take (fp32 v1 holds 128 columns at most, v2 256). 1024: attention rows, whose ROW
 * block holds the row exactly (a mask tensor's loads then go unpredicated: hsm_fwd_chunk_load_m).
 * 16384 x 80: rows many enough that WARP's kernels take two packs a lane, on 8 lanes (16-bit) or 16
 * (fp32; plan.c's fewer_lanes). */
static const shape full_shapes[] = {{1823, 781}, {1, 1},      {2, 3},      {3, 127},    {17, 128},
                                    {7, 1009},   {40, 512},   {29, 1000},  {12, 1024},  {11, 1544},
                                    {13, 4099},  {65, 4096},  {61, 12289}, {33, 16384}, {24, 40000},
                                    {5, 100003}, {3, 262144}, {2, 1048573}, {2, 9000001}, {16384, 80}};
/* compute-sanitizer runs (HSM_TEST_QUICK): every family's regime, smaller (but 16384 x 80, above).
 * 1000 and 1544: WARP's packed kernels (one row a warp of 32 and 64 values a lane); 512: rows of a warp
 * on 16 bytes; 1024: a ROW block's chunk ending at the row's end (the last row's unpredicated mask and
 * x loads). */
static const shape quick_shapes[] = {{37, 781}, {2, 3},     {3, 127},   {4, 512},   {7, 1000},  {6, 1024},
                                     {5, 1544}, {9, 4099},  {5, 16384}, {3, 40000}, {2, 262147}, {16384, 80}};

static void forward_matrix(hipsoftmax_handle h, test_dtype t, const shape *sh, int n)
{
    for (int i = 0; i < n; i++) {
        const shape s = sh[i];
        fcase base;
        memset(&base, 0, sizeof base);
        base.rows = s.rows, base.cols = s.cols, base.x_t = base.y_t = t;
        base.scale = 1.0f, base.alpha = 1.0f, base.mask_t = t;
        fcase k;
        /* log-softmax on every layout */
        for (int l = 0; l < LAYOUT_COUNT; l++) {
            k = base, k.layout = l, k.log = 1;
            run_forward(h, &k);
        }
        /* scale with an additive mask per row, each mask dtype, softmax and log */
        for (int m = 0; m < 3; m++) {
            k = base, k.layout = (i + m) % LAYOUT_COUNT, k.scale = 0.125f, k.mask = MASK_ADD, k.mask_t = (test_dtype)m,
            k.log = m == 2;
            run_forward(h, &k);
        }
        /* a bool mask shared by every row */
        k = base, k.layout = i % 3, k.mask = MASK_BOOL, k.bcast = BCAST_ALL, k.scale = 0.5f;
        run_forward(h, &k);
        /* attention: [batch][2][queries] scores, [batch][1][queries] mask, 1/sqrt(64) */
        k = base, k.layout = i % 2, k.mask = MASK_ADD, k.bcast = BCAST_ATTN, k.attn = 1, k.scale = 0.125f,
        k.mask_t = (test_dtype)(i % 3);
        run_forward(h, &k);
        /* causal: square, decoding past a cache, and per query in the attention layout */
        k = base, k.layout = i % LAYOUT_COUNT, k.mask = MASK_CAUSAL, k.causal_offset = 0;
        run_forward(h, &k);
        k = base, k.mask = MASK_CAUSAL, k.causal_offset = s.cols - s.rows, k.log = 1;
        run_forward(h, &k);
        k = base, k.mask = MASK_CAUSAL, k.attn = 1, k.causal_offset = s.cols / 3, k.scale = 0.3f;
        run_forward(h, &k);
        /* alpha/beta, and beta = 0 over NaN */
        k = base, k.layout = (i + 1) % LAYOUT_COUNT, k.alpha = 0.5f, k.beta = 0.25f, k.log = i % 2;
        run_forward(h, &k);
        k = base, k.alpha = 2.0f, k.beta = 0.0f, k.poison = 1;
        run_forward(h, &k);
        /* every other output dtype, softmax and log */
        for (int y = 0; y < 3; y++)
            if (y != (int)t) {
                k = base, k.y_t = (test_dtype)y, k.layout = (i + y) % 3, k.log = y == 2, k.scale = 0.75f;
                run_forward(h, &k);
            }
        /* safe rows: masked rows entirely (and the all -inf edge row) give zeros / -inf; without the
         * flag, NaN */
        for (int sf = 0; sf < 2; sf++) {
            k = base, k.mask = MASK_BOOL, k.empty_rows = 1, k.safe = sf, k.log = sf, k.layout = i % 3;
            run_forward(h, &k);
        }
        k = base, k.mask = MASK_CAUSAL, k.causal_offset = -3, k.safe = 1, k.stats = 1;
        run_forward(h, &k);
        /* statistics, with an additive mask and scale */
        k = base, k.stats = 1, k.mask = MASK_ADD, k.scale = 0.125f, k.layout = i % 2, k.mask_t = T_F32;
        run_forward(h, &k);
        /* sharded rows: statistics of 3 column shards gathered, each shard normalised from them */
        if (s.cols >= 3) {
            k = base, k.shards = 3, k.layout = i % LAYOUT_COUNT, k.log = i % 2, k.scale = 0.5f;
            run_forward(h, &k);
            k = base, k.shards = 3, k.mask = MASK_ADD, k.scale = 0.125f, k.mask_t = (test_dtype)(i % 3), k.alpha = 0.5f,
            k.beta = 0.5f;
            run_forward(h, &k);
            k = base, k.shards = 3, k.mask = MASK_CAUSAL, k.causal_offset = s.cols / 2 - s.rows, k.safe = 1,
            k.y_t = t == T_F32 ? T_BF16 : T_F32;
            run_forward(h, &k);
        }
    }
}

static void backward_matrix(hipsoftmax_handle h, test_dtype t, const shape *sh, int n)
{
    for (int i = 0; i < n; i++) {
        const shape s = sh[i];
        bcase base;
        memset(&base, 0, sizeof base);
        base.rows = s.rows, base.cols = s.cols, base.y_t = base.dy_t = base.dx_t = t;
        base.scale = 1.0f, base.alpha = 1.0f;
        bcase k;
        for (int l = 0; l < LAYOUT_COUNT; l++) {
            k = base, k.layout = l, k.log = l % 2;
            run_backward(h, &k);
        }
        /* scale alone (WARP's packed backward serves it; alpha/beta it does not) */
        k = base, k.layout = (i + 2) % LAYOUT_COUNT, k.scale = 0.125f, k.log = i % 2;
        run_backward(h, &k);
        k = base, k.layout = i % 3, k.scale = 0.125f, k.alpha = 1.5f, k.beta = -0.5f;
        run_backward(h, &k);
        k = base, k.layout = (i + 1) % 3, k.scale = 2.0f, k.alpha = 0.5f, k.beta = 0.25f, k.log = 1;
        run_backward(h, &k);
        if (s.cols >= 3)
            for (int lg = 0; lg < 2; lg++) {
                k = base, k.shards = 3, k.log = lg, k.layout = (i + lg) % LAYOUT_COUNT, k.scale = 0.5f,
                k.dy_t = (test_dtype)((t + 1 + lg) % 3);
                run_backward(h, &k);
            }
        for (int d = 0; d < 3; d++)
            for (int x = 0; x < 3; x++) {
                if (d == (int)t && x == (int)t)
                    continue;
                k = base, k.dy_t = (test_dtype)d, k.dx_t = (test_dtype)x, k.layout = (d + x + i) % LAYOUT_COUNT,
                k.log = (d + x) % 2;
                run_backward(h, &k);
            }
    }
}

int main(int argc, char **argv)
{
    static const char *const fam_names[] = {"auto", "warp", "row", "online", "split"};
    int fam = -1, dti = -1, bwd = -1;
    const char *kernel = NULL;
    for (int i = 0; argc == 4 && i < 5; i++)
        if (strcmp(argv[1], fam_names[i]) == 0)
            fam = i;
    if (argc == 4 && strncmp(argv[1], "hsm_", 4) == 0) {
        kernel = argv[1];
        fam = 0;
    }
    for (int i = 0; argc == 4 && i < 3; i++)
        if (strcmp(argv[2], dt_names[i]) == 0)
            dti = i;
    if (argc == 4)
        bwd = strcmp(argv[3], "bwd") == 0 ? 1 : strcmp(argv[3], "fwd") == 0 ? 0 : -1;
    if (fam < 0 || dti < 0 || bwd < 0) {
        fprintf(stderr, "usage: %s auto|warp|row|online|split|<kernel name> f32|f16|bf16 fwd|bwd\n", argv[0]);
        return 2;
    }
    const int quick = getenv("HSM_TEST_QUICK") != NULL;
    hipsoftmax_handle h = test_open_handle();
    if (hipsoftmax_set_family(h, (hipsoftmax_family)fam) != HIPSOFTMAX_STATUS_SUCCESS ||
        (kernel != NULL && hipsoftmax_set_kernel(h, kernel) != HIPSOFTMAX_STATUS_SUCCESS))
        return 1;
    const shape *sh = quick ? quick_shapes : full_shapes;
    const int n = quick ? (int)(sizeof quick_shapes / sizeof quick_shapes[0])
                        : (int)(sizeof full_shapes / sizeof full_shapes[0]);
    if (bwd)
        backward_matrix(h, (test_dtype)dti, sh, n);
    else
        forward_matrix(h, (test_dtype)dti, sh, n);
    hipsoftmax_destroy(h);
    printf("kernel.%s.%s.%s: %lld cases, %lld not supported by the forced family or kernel, %lld failed\n",
           kernel != NULL ? kernel : fam_names[fam], dt_names[dti], bwd ? "bwd" : "fwd", cases, skipped, bad_cases);
    return bad_cases == 0 && (fam == 0 && kernel == NULL ? skipped == 0 : skipped < cases) ? 0 : 1;
}
