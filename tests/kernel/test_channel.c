/* kernel.channel.<family|kernel>.<dtype>.fwd|bwd: CHANNEL mode ([outer][C][inner], softmax over C) on
 * the GPU against the float64 reference of every (outer, inner) column (reference_ops.c), over shapes
 * that cover every regime of the plan: inner 1 (the row families, or CHANNEL's kernels forced), inner
 * narrower than a warp (2, 3, 7, 31), a warp and around it (32, 33), wide inner (4096, 16384); C from 1
 * to 50000 (register kernels, several warps a column, streaming); outer 1 to 1024. Inner a multiple of
 * 8 (8, 32, 40, 64, 128, 4096, 16384; 4 for f32) takes the vector kernels (V columns a thread) where
 * every row start is on 16 bytes: most padded cases (strides of C * inner + 1..5) and the shifted ones
 * are not, and take the one-column kernels (a forced vector kernel skips them).
 *
 * Forward cases: softmax; log-softmax; scale with alpha/beta (beta != 0 reads y); beta = 0 over a y of
 * NaN (must not leak in); each other output dtype; safe rows; in place; x and y one element off 16
 * bytes; padded slices (row strides
 * past C * inner). Column 0 of every slice is all -inf; on slices 1, 2, 3 of shapes with enough of
 * them, column 1 (inner 1: slice 0 all -inf, column 0) holds a NaN, a +inf, and +-1e30 (6e4 where a dtype is f16). Backward: softmax and
 * log-softmax; scale with alpha/beta; every (dy, dx) dtype pair; in place (dx == dy); padded.
 * Buffers are allocated to the byte each tensor spans, for compute-sanitizer.
 *
 * Tolerances (the reference computed in float64 from the same rounded inputs), as kernel.<family>
 * (test_util.h states why): the forward's test_forward_tol, rel 2e-5 (f32), 6e-4 (f16), 4.5e-3
 * (bf16) of |alpha * ref| + |beta * old|, abs 1e-37 / 6e-8 / 1e-37, log-softmax 2e-5 * |alpha| more
 * (log of a sum with 1.2e-5 relative error). The column's sum here is a tree over at most 32 lanes and 32 warps
 * after each thread's own values, in sequence (at most C / (lanes sharing the column) terms): the
 * backward's sum error 6e-8 * (64 + C / 8192) * sum|terms| of kernel.<family> covers it for C <=
 * 8192 a thread; the streaming kernels add up to C / 4 chunk sums in sequence, so the bound here uses
 * 6e-8 * (64 + C / 4) (C = 50000: 7.5e-4 relative to sum|terms|, which for softmax is about |y|).
 * The tile kernels add at most C / 8 terms a thread in sequence (a line of columns, 32 in fp32, shares
 * a block of 256 threads), then the block's partial sums of the column, at most 256, in sequence:
 * inside the same bound. */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference_ops.h"
#include "test_util.h" /* hsm_vendor.h, reference.h */

static const hipsoftmax_dtype api_dt[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
static const char *const dt_names[] = {"f32", "f16", "bf16"};

typedef struct { int64_t outer, C, inner; } shape;

/* Each inner and C of the acceptance list at least once, with outers from 1 to 1024; tensors to 4M. */
static const shape shapes[] = {
    {3, 21, 1},   {1024, 1000, 1}, {2, 50000, 1}, {5, 2, 2},     {1024, 21, 2},   {7, 50000, 2},  {4, 21, 3},
    {1024, 2, 3}, {2, 150, 7},     {3, 1, 7},     {3, 1000, 31}, {3, 21, 31},     {2, 21, 32},    {5, 150, 32},
    {3, 150, 33}, {64, 21, 33},    {1, 50000, 33}, {2, 2, 4096}, {2, 150, 4096},  {1, 1000, 4096}, {2, 1, 4096},
    {1, 21, 16384}, {1, 2, 16384}, {16, 150, 128}, {7, 1000, 3}, {4, 21, 64},  {3, 150, 8},    {5, 1000, 40},
    {1, 5000, 64},  {9, 7, 4}};
/* compute-sanitizer runs (HSM_TEST_QUICK): every regime, smaller. */
static const shape quick[] = {{3, 21, 1}, {5, 2, 2}, {4, 21, 3}, {2, 150, 7}, {3, 21, 31}, {3, 150, 33},
                              {2, 1000, 32}, {1, 5000, 3}, {1, 2, 4096}, {4, 21, 64}, {1, 5000, 64}};

typedef struct {
    shape s;
    int pad, inplace;
    int shift; /* forward: x and y start this many elements past an allocation (off 16 bytes) */
    test_dtype x_t, y_t, d_t; /* forward: x, y; backward: dx (x_t), y (y_t), dy (d_t) */
    int log, safe, poison;
    float scale, alpha, beta;
} tcase;

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static float uniform(float lo, float hi)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * (float)((rng >> 11) * (1.0 / 9007199254740992.0));
}

static long long cases, skipped, bad_cases;

/* to_device at `lead` bytes into an allocation of exactly lead + bytes (*base, to free). */
static void *to_device_at(const void *host, size_t bytes, size_t lead, void **base)
{
    CHECK_HIP(hipMalloc(base, bytes + lead));
    char *d = (char *)*base + lead;
    CHECK_HIP(hipMemcpy(d, host, bytes, hipMemcpyHostToDevice));
    return d;
}

/* Elements a tensor of the shape spans with row stride rs. */
static size_t span_of(const shape *s, int64_t rs) { return (size_t)((s->outer - 1) * rs + s->C * s->inner); }

/* The forward input: uniform logits; column 0 of every slice -inf; edge columns as the header says. */
static float input_value(int64_t r, int64_t c, int64_t i, const shape *s, float big)
{
    const int64_t edge = s->inner > 1 ? 1 : 0; /* inner 1: slice 0 is the -inf column, the edges on column 0 */
    if (i == 0 && (s->inner > 1 || r == 0))
        return -INFINITY;
    if (i == edge && s->outer >= 4 && r == 1 && c == s->C / 2)
        return NAN;
    if (i == edge && s->outer >= 4 && r == 2 && c == 0)
        return INFINITY;
    if (i == edge && s->outer >= 4 && r == 3)
        return c % 3 == 0 ? big : -big;
    return uniform(-8.0f, 8.0f);
}

static void report(const char *dir, const tcase *k, hipsoftmax_status st, long long bad)
{
    fprintf(stderr,
            "%s %lldx%lldx%lld pad %d inplace %d shift %d x/dx %s y %s dy %s log %d safe %d scale %g alpha %g beta %g: ",
            dir, (long long)k->s.outer, (long long)k->s.C, (long long)k->s.inner, k->pad, k->inplace, k->shift,
            dt_names[k->x_t],
            dt_names[k->y_t], dt_names[k->d_t], k->log, k->safe, (double)k->scale, (double)k->alpha, (double)k->beta);
    if (st != HIPSOFTMAX_STATUS_SUCCESS)
        fprintf(stderr, "%s\n", hipsoftmax_status_string(st));
    else
        fprintf(stderr, "%lld wrong\n", bad);
}

static void run_forward(hipsoftmax_handle h, const tcase *k)
{
    const shape *s = &k->s;
    const int inplace = k->inplace && k->x_t == k->y_t;
    const int64_t row = s->C * s->inner, xs = row + k->pad, ys = inplace ? xs : row + 2 * k->pad;
    const size_t xes = test_dtype_size(k->x_t), yes = test_dtype_size(k->y_t);
    const size_t xn = span_of(s, xs), yn = span_of(s, ys);
    void *hx = test_xmalloc(xn * xes), *hy0 = test_xmalloc(yn * yes), *hy = test_xmalloc(yn * yes);
    const float big = k->x_t == T_F16 || k->y_t == T_F16 ? 6.0e4f : 1.0e30f;
    for (size_t e = 0; e < xn; e++)
        test_set(hx, e, k->x_t, 777.0f); /* padding */
    for (int64_t r = 0; r < s->outer; r++)
        for (int64_t c = 0; c < s->C; c++)
            for (int64_t i = 0; i < s->inner; i++)
                test_set(hx, (size_t)(r * xs + c * s->inner + i), k->x_t, input_value(r, c, i, s, big));
    for (size_t e = 0; e < yn; e++)
        test_set(hy0, e, k->y_t, k->beta != 0.0f ? uniform(-1.0f, 1.0f) : k->poison ? NAN : 555.0f);
    if (inplace)
        memcpy(hy0, hx, yn * yes);
    void *bx = NULL, *by = NULL;
    void *dx = to_device_at(hx, xn * xes, (size_t)k->shift * xes, &bx);
    void *dy = inplace ? dx : to_device_at(hy0, yn * yes, (size_t)k->shift * yes, &by);

    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, api_dt[k->x_t], s->outer, s->C);
    p.mode = HIPSOFTMAX_MODE_CHANNEL, p.inner = s->inner;
    p.y_dtype = api_dt[k->y_t];
    p.x_row_stride = xs, p.y_row_stride = ys;
    p.algorithm = k->log ? HIPSOFTMAX_ALGO_LOG_SOFTMAX : HIPSOFTMAX_ALGO_SOFTMAX;
    p.scale = k->scale, p.alpha = k->alpha, p.beta = k->beta;
    p.flags = k->safe ? HIPSOFTMAX_FLAG_SAFE_ROWS : 0;
    const hipsoftmax_status st = hipsoftmax_forward(h, &p, dx, dy);
    cases++;
    if (st == HIPSOFTMAX_STATUS_NOT_SUPPORTED) {
        skipped++;
    } else if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        report("forward", k, st, 0);
        bad_cases++;
    } else {
        CHECK_HIP(hipDeviceSynchronize());
        CHECK_HIP(hipMemcpy(hy, dy, yn * yes, hipMemcpyDeviceToHost));
        double *z = test_xmalloc(sizeof(double) * (size_t)s->C), *ref = test_xmalloc(sizeof(double) * (size_t)s->C);
        long long bad = 0;
        for (int64_t r = 0; r < s->outer; r++)
            for (int64_t i = 0; i < s->inner; i++) {
                for (int64_t c = 0; c < s->C; c++)
                    z[c] = (double)k->scale * test_get(hx, (size_t)(r * xs + c * s->inner + i), k->x_t);
                double mx, lse;
                test_ref_forward(z, s->C, k->log, k->safe, ref, &mx, &lse);
                for (int64_t c = 0; c < s->C; c++) {
                    const size_t e = (size_t)(r * ys + c * s->inner + i);
                    const double old = k->beta != 0.0f ? test_get(hy0, e, k->y_t) : 0.0;
                    const double want = k->alpha * ref[c] + k->beta * old;
                    const double tol = test_forward_tol(k->y_t, 0.0, k->alpha, ref[c], k->beta * old, k->log);
                    const double got = test_get(hy, e, k->y_t);
                    if (!test_matches(got, want, tol, k->y_t) && bad++ < 5)
                        fprintf(stderr, "  (%lld, %lld, %lld): got %.9g expected %.9g\n", (long long)r, (long long)c,
                                (long long)i, got, want);
                }
            }
        /* The padding between slices of y is not written. */
        for (int64_t r = 0; !inplace && r + 1 < s->outer; r++)
            for (int64_t e = r * ys + row; e < (r + 1) * ys; e++)
                if (memcmp((char *)hy + e * yes, (char *)hy0 + e * yes, yes) != 0 && bad++ < 5)
                    fprintf(stderr, "  padding written at element %lld\n", (long long)e);
        if (bad) {
            report("forward", k, st, bad);
            bad_cases++;
        }
        free(z), free(ref);
    }
    CHECK_HIP(hipFree(bx));
    if (by != NULL)
        CHECK_HIP(hipFree(by));
    free(hx), free(hy0), free(hy);
}

static void run_backward(hipsoftmax_handle h, const tcase *k)
{
    const shape *s = &k->s;
    const int inplace = k->inplace && k->x_t == k->d_t;
    const int64_t row = s->C * s->inner, ys = row + k->pad, ds = row + 2 * k->pad, xs = inplace ? ds : row + k->pad;
    const size_t yes = test_dtype_size(k->y_t), des = test_dtype_size(k->d_t), xes = test_dtype_size(k->x_t);
    const size_t yn = span_of(s, ys), dn = span_of(s, ds), xn = span_of(s, xs);
    void *hy = test_xmalloc(yn * yes), *hd = test_xmalloc(dn * des);
    void *hx0 = test_xmalloc(xn * xes), *hx = test_xmalloc(xn * xes);
    double *col = test_xmalloc(sizeof(double) * (size_t)s->C), *dcol = test_xmalloc(sizeof(double) * (size_t)s->C);
    double *ref = test_xmalloc(sizeof(double) * (size_t)s->C);
    memset(hy, 0, yn * yes), memset(hd, 0, dn * des);
    /* y: the softmax (log-softmax) of random logits over each column; dy uniform, one NaN. */
    for (int64_t r = 0; r < s->outer; r++)
        for (int64_t i = 0; i < s->inner; i++) {
            double m = -INFINITY, sum = 0.0;
            for (int64_t c = 0; c < s->C; c++) {
                col[c] = uniform(-6.0f, 6.0f);
                m = col[c] > m ? col[c] : m;
            }
            for (int64_t c = 0; c < s->C; c++)
                sum += exp(col[c] - m);
            for (int64_t c = 0; c < s->C; c++) {
                const double v = k->log ? col[c] - m - log(sum) : exp(col[c] - m) / sum;
                test_set(hy, (size_t)(r * ys + c * s->inner + i), k->y_t, (float)v);
                test_set(hd, (size_t)(r * ds + c * s->inner + i), k->d_t,
                         s->outer >= 2 && r == 1 && i == 0 && c == s->C / 3 ? NAN : uniform(-1.0f, 1.0f));
            }
        }
    for (size_t e = 0; e < xn; e++)
        test_set(hx0, e, k->x_t, k->beta != 0.0f ? uniform(-1.0f, 1.0f) : 555.0f);
    if (inplace)
        memcpy(hx0, hd, xn * xes);
    void *dyv = test_to_device(hy, yn * yes), *ddy = test_to_device(hd, dn * des);
    void *ddx = inplace ? ddy : test_to_device(hx0, xn * xes);

    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, api_dt[k->x_t], s->outer, s->C);
    p.mode = HIPSOFTMAX_MODE_CHANNEL, p.inner = s->inner;
    p.y_dtype = api_dt[k->y_t], p.dy_dtype = api_dt[k->d_t];
    p.x_row_stride = xs, p.y_row_stride = ys, p.dy_row_stride = ds;
    p.algorithm = k->log ? HIPSOFTMAX_ALGO_LOG_SOFTMAX : HIPSOFTMAX_ALGO_SOFTMAX;
    p.scale = k->scale, p.alpha = k->alpha, p.beta = k->beta;
    const hipsoftmax_status st = hipsoftmax_backward(h, &p, dyv, ddy, ddx);
    cases++;
    if (st == HIPSOFTMAX_STATUS_NOT_SUPPORTED) {
        skipped++;
    } else if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        report("backward", k, st, 0);
        bad_cases++;
    } else {
        CHECK_HIP(hipDeviceSynchronize());
        CHECK_HIP(hipMemcpy(hx, ddx, xn * xes, hipMemcpyDeviceToHost));
        const double rel = k->x_t == T_F32 ? 2e-6 : test_rel_tol[k->x_t];
        const double seq = 6e-8 * (64.0 + (double)s->C / 4.0);
        long long bad = 0;
        for (int64_t r = 0; r < s->outer; r++)
            for (int64_t i = 0; i < s->inner; i++) {
                double sum = 0.0, sa;
                for (int64_t c = 0; c < s->C; c++) {
                    col[c] = test_get(hy, (size_t)(r * ys + c * s->inner + i), k->y_t);
                    dcol[c] = test_get(hd, (size_t)(r * ds + c * s->inner + i), k->d_t);
                    sum += k->log ? dcol[c] : dcol[c] * col[c];
                }
                test_ref_backward(col, dcol, s->C, k->log, k->scale, ref, &sa);
                for (int64_t c = 0; c < s->C; c++) {
                    const size_t e = (size_t)(r * xs + c * s->inner + i);
                    const double old = k->beta != 0.0f ? test_get(hx0, e, k->x_t) : 0.0;
                    const double want = k->alpha * ref[c] + k->beta * old;
                    const double ey = k->log ? exp(col[c]) : fabs(col[c]);
                    const double terms = k->log ? fabs(k->scale * dcol[c]) + fabs(k->scale * ey * sum)
                                                : fabs(k->scale * col[c] * dcol[c]) + fabs(k->scale * col[c] * sum);
                    const double sum_err = fabs(k->scale) * ey * (seq * sa + (k->log ? 4e-6 * fabs(sum) : 0.0));
                    const double tol = rel * (fabs(k->alpha) * terms + fabs(k->beta * old)) + fabs(k->alpha) * sum_err +
                                       test_abs_tol[k->x_t];
                    const double got = test_get(hx, e, k->x_t);
                    if (!test_matches(got, want, tol, k->x_t) && bad++ < 5)
                        fprintf(stderr, "  (%lld, %lld, %lld): got %.9g expected %.9g (tol %.3g)\n", (long long)r,
                                (long long)c, (long long)i, got, want, tol);
                }
            }
        if (bad) {
            report("backward", k, st, bad);
            bad_cases++;
        }
    }
    CHECK_HIP(hipFree(dyv));
    CHECK_HIP(hipFree(ddy));
    if (ddx != ddy)
        CHECK_HIP(hipFree(ddx));
    free(hy), free(hd), free(hx0), free(hx), free(col), free(dcol), free(ref);
}

static void forward_matrix(hipsoftmax_handle h, test_dtype t, const shape *sh, int n)
{
    for (int j = 0; j < n; j++) {
        tcase b, k;
        memset(&b, 0, sizeof b);
        b.s = sh[j], b.x_t = b.y_t = t, b.scale = 1.0f, b.alpha = 1.0f;
        k = b;
        run_forward(h, &k);
        k = b, k.log = 1, k.pad = 4;
        run_forward(h, &k);
        k = b, k.scale = 0.25f, k.alpha = 1.5f, k.beta = -0.5f, k.pad = 3;
        run_forward(h, &k);
        k = b, k.poison = 1, k.log = j % 2, k.scale = 2.0f;
        run_forward(h, &k);
        k = b, k.safe = 1, k.log = (j + 1) % 2;
        run_forward(h, &k);
        k = b, k.inplace = 1, k.log = j % 2, k.scale = 0.5f;
        run_forward(h, &k);
        /* one element off 16 bytes: the one-column kernels (a forced vector kernel skips it) */
        k = b, k.shift = 1, k.log = (j + 1) % 2;
        run_forward(h, &k);
        for (int o = 0; o < 3; o++)
            if (o != (int)t) {
                k = b, k.y_t = (test_dtype)o, k.log = o % 2, k.pad = o;
                run_forward(h, &k);
            }
    }
}

static void backward_matrix(hipsoftmax_handle h, test_dtype t, const shape *sh, int n)
{
    for (int j = 0; j < n; j++) {
        tcase b, k;
        memset(&b, 0, sizeof b);
        b.s = sh[j], b.x_t = b.y_t = b.d_t = t, b.scale = 1.0f, b.alpha = 1.0f;
        for (int lg = 0; lg < 2; lg++) {
            k = b, k.log = lg, k.pad = lg * 5;
            run_backward(h, &k);
            k = b, k.log = lg, k.inplace = 1;
            run_backward(h, &k);
        }
        k = b, k.scale = 0.125f, k.alpha = 1.5f, k.beta = -0.5f, k.pad = 2;
        run_backward(h, &k);
        for (int d = 0; d < 3; d++)
            for (int x = 0; x < 3; x++)
                if (d != (int)t || x != (int)t) {
                    k = b, k.d_t = (test_dtype)d, k.x_t = (test_dtype)x, k.log = (d + x + j) % 2;
                    run_backward(h, &k);
                }
    }
}

int main(int argc, char **argv)
{
    int dti = -1, bwd = -1;
    for (int i = 0; argc == 4 && i < 3; i++)
        if (strcmp(argv[2], dt_names[i]) == 0)
            dti = i;
    if (argc == 4)
        bwd = strcmp(argv[3], "bwd") == 0 ? 1 : strcmp(argv[3], "fwd") == 0 ? 0 : -1;
    const int forced = argc == 4 && strcmp(argv[1], "channel") == 0;
    const char *kernel = argc == 4 && strncmp(argv[1], "hsm_", 4) == 0 ? argv[1] : NULL;
    if (dti < 0 || bwd < 0 || (!forced && kernel == NULL && strcmp(argv[1], "auto") != 0)) {
        fprintf(stderr, "usage: %s auto|channel|<kernel name> f32|f16|bf16 fwd|bwd\n", argv[0]);
        return 2;
    }
    hipsoftmax_handle h = test_open_handle();
    if ((forced && hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_CHANNEL) != HIPSOFTMAX_STATUS_SUCCESS) ||
        (kernel != NULL && hipsoftmax_set_kernel(h, kernel) != HIPSOFTMAX_STATUS_SUCCESS))
        return 1;
    const int q = getenv("HSM_TEST_QUICK") != NULL;
    const shape *sh = q ? quick : shapes;
    const int n = q ? (int)(sizeof quick / sizeof quick[0]) : (int)(sizeof shapes / sizeof shapes[0]);
    if (bwd)
        backward_matrix(h, (test_dtype)dti, sh, n);
    else
        forward_matrix(h, (test_dtype)dti, sh, n);
    hipsoftmax_destroy(h);
    printf("kernel.channel.%s.%s.%s: %lld cases, %lld not supported by the forced family or kernel, %lld failed\n",
           argv[1], dt_names[dti], bwd ? "bwd" : "fwd", cases, skipped, bad_cases);
    /* Auto and forced CHANNEL serve every shape; a forced kernel some (its capacity). */
    return bad_cases == 0 && (kernel == NULL ? skipped == 0 : skipped < cases) ? 0 : 1;
}
