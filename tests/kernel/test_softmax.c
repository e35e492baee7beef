/* kernel.<family>.<dtype>: hipsoftmax_forward on the GPU against a float64 CPU reference, over
 * irregular shapes (the tutorial's 1823x781; 1x1, 1x2, 3x127; primes; every power of two and its
 * neighbours up to 2^20 + 1 columns; up to 65536 rows; 300 rows of 18432, 40960 and 65544 columns; 1 row
 * of 10000000 columns; 2 rows of 9000001 and of 20000000 columns, longer than the GPU holds on chip),
 * four layouts (dense, padded strides on the vector path and off it, in-place) and edge rows (all
 * -inf, a NaN, a +inf, +-1e30, maxima of about 92 and 86 either side of the bound under which the
 * 16-bit kernels take each exponent in one FFMA).
 *
 * Tolerances, |y - ref| <= rel * |ref| + abs, with ref computed from the same (already rounded)
 * input values, so only the kernel's own error counts:
 *   fp32: rel 2e-5, abs 1e-37. exp(x - max) is evaluated as exp2((x - max) * log2 e): the rounding
 *         of x - max and of the product is an absolute error of up to 2 * 104 * 2^-24 = 1.2e-5 in
 *         the exponent for any result that does not underflow (|x - max| < 104), i.e. that
 *         relative error in the result; the hardware exp2 (2 ulp), the fp32 sum and the reciprocal
 *         add a few ulp. The hardware exp2 may flush results below 2^-126 to 0: abs covers that.
 *   fp16: rel 6e-4, abs 6e-8: the fp32 error above plus rounding the result to fp16 (2^-11 =
 *         4.9e-4 relative, half the smallest subnormal 6e-8 absolute); a one-FFMA exponent adds
 *         under 2^-17 (hip/softmax_common.h, hsm_expo).
 *   bf16: rel 4.5e-3, abs 1e-37: rounding to bf16 is 2^-8 = 3.9e-3 relative; fp32 range.
 * A NaN reference must give NaN; the padding between rows of y must not change. */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsm_vendor.h"
#include "reference.h"
#include "test_util.h"

typedef struct { int64_t rows, cols; } shape;

enum { LAYOUT_DENSE, LAYOUT_PAD_VEC, LAYOUT_PAD_SCALAR, LAYOUT_INPLACE, LAYOUT_COUNT };

static long long cases, skipped, bad_cases;
static int verbose; /* HSM_TEST_VERBOSE=1: print each case and its plan before running it */

static void fill_row(void *x, size_t off, int64_t cols, test_dtype t, int64_t row, float big)
{
    for (int64_t c = 0; c < cols; c++) {
        float v = test_uniform(-8.0f, 8.0f);
        if (row == 0)
            v = -INFINITY;
        else if (row == 1 && c == cols / 2)
            v = NAN;
        else if (row == 2 && c == 0)
            v = INFINITY;
        else if (row == 3)
            v = (c % 3 == 0) ? big : -big;
        else if (row == 4 || row == 5)
            v += row == 4 ? 84.0f : 78.0f; /* a max either side of the one-FFMA exponent's bound (hsm_expo) */
        test_set(x, off + (size_t)c, t, v);
    }
}

static void run_case(hipsoftmax_handle h, test_dtype t, hipsoftmax_dtype dt, shape s, int layout)
{
    const size_t es = test_dtype_size(t);
    const int64_t xs = s.cols + (layout == LAYOUT_PAD_VEC ? 8 : layout == LAYOUT_PAD_SCALAR ? 3 : 0);
    const int64_t ys = layout == LAYOUT_INPLACE ? xs : s.cols + (layout == LAYOUT_PAD_VEC ? 16 : layout == LAYOUT_PAD_SCALAR ? 5 : 0);
    const size_t xn = (size_t)(s.rows * xs), yn = (size_t)(s.rows * ys);
    void *hx = malloc(xn * es), *hy = malloc(yn * es), *hy0 = malloc(yn * es);
    double *in = malloc(sizeof(double) * (size_t)s.cols), *ref = malloc(sizeof(double) * (size_t)s.cols);
    if (!hx || !hy || !hy0 || !in || !ref) {
        fprintf(stderr, "host allocation failed\n");
        exit(1);
    }
    const float big = t == T_F16 ? 6.0e4f : 1.0e30f;
    for (size_t i = 0; i < xn; i++)
        test_set(hx, i, t, 777.0f); /* padding sentinel */
    for (int64_t r = 0; r < s.rows; r++)
        fill_row(hx, (size_t)(r * xs), s.cols, t, s.rows >= 5 ? r : -1, big);
    if (layout == LAYOUT_INPLACE)
        memcpy(hy0, hx, xn * es);
    else
        memset(hy0, 0x5a, yn * es);

    void *dx = NULL, *dy = NULL;
    CHECK_HIP(hipMalloc(&dx, xn * es));
    CHECK_HIP(hipMemcpy(dx, hx, xn * es, hipMemcpyHostToDevice));
    if (layout == LAYOUT_INPLACE) {
        dy = dx;
    } else {
        CHECK_HIP(hipMalloc(&dy, yn * es));
        CHECK_HIP(hipMemcpy(dy, hy0, yn * es, hipMemcpyHostToDevice));
    }
    if (verbose) {
        hipsoftmax_problem p;
        hipsoftmax_plan_info info = {.struct_size = sizeof info};
        hipsoftmax_problem_init(&p, dt, s.rows, s.cols);
        p.x_row_stride = xs, p.y_row_stride = ys;
        if (hipsoftmax_get_plan(h, &p, &info) == HIPSOFTMAX_STATUS_SUCCESS)
            printf("case %lldx%lld layout %d: %s grid %d block %d per-row %d width %d\n", (long long)s.rows,
                   (long long)s.cols, layout, info.kernel, info.grid, info.block, info.blocks_per_row, info.group_width);
        fflush(stdout);
    }
    const hipsoftmax_status st = hipsoftmax_softmax(h, dt, s.rows, s.cols, dx, xs, dy, ys);
    cases++;
    if (st == HIPSOFTMAX_STATUS_NOT_SUPPORTED) {
        skipped++; /* a forced family that cannot hold this row: the plan would never pick it */
    } else if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        fprintf(stderr, "%lldx%lld layout %d: %s\n", (long long)s.rows, (long long)s.cols, layout,
                hipsoftmax_status_string(st));
        bad_cases++;
    } else {
        CHECK_HIP(hipDeviceSynchronize());
        CHECK_HIP(hipMemcpy(hy, dy, yn * es, hipMemcpyDeviceToHost));
        long long bad = 0;
        double worst = 0.0;
        for (int64_t r = 0; r < s.rows; r++) {
            for (int64_t c = 0; c < s.cols; c++)
                in[c] = test_get(hx, (size_t)(r * xs + c), t);
            test_reference_row(in, ref, s.cols);
            for (int64_t c = 0; c < ys; c++) {
                const size_t i = (size_t)(r * ys + c);
                if (c >= s.cols) { /* padding: untouched */
                    if (memcmp((char *)hy + i * es, (char *)hy0 + i * es, es) != 0 && bad++ < 5)
                        fprintf(stderr, "  padding written at row %lld col %lld\n", (long long)r, (long long)c);
                    continue;
                }
                const double y = test_get(hy, i, t), e = ref[c];
                const double tol = test_rel_tol[t] * fabs(e) + test_abs_tol[t];
                const int ok = isnan(e) ? isnan(y) : (!isnan(y) && fabs(y - e) <= tol);
                if (!isnan(e) && tol > 0 && fabs(y - e) / tol > worst)
                    worst = fabs(y - e) / tol;
                if (!ok && bad++ < 5)
                    fprintf(stderr, "  row %lld col %lld: got %.9g expected %.9g\n", (long long)r, (long long)c, y, e);
            }
        }
        if (bad) {
            fprintf(stderr, "%lldx%lld layout %d: %lld wrong elements\n", (long long)s.rows, (long long)s.cols, layout,
                    bad);
            bad_cases++;
        }
        if (worst > 0.5)
            printf("  %lldx%lld layout %d: worst error %.2f of tolerance\n", (long long)s.rows, (long long)s.cols,
                   layout, worst);
    }
    CHECK_HIP(hipFree(dx));
    if (dy != dx)
        CHECK_HIP(hipFree(dy));
    free(hx), free(hy), free(hy0), free(in), free(ref);
}

int main(int argc, char **argv)
{
    static const char *const fam_names[] = {"auto", "warp", "row", "online", "split"};
    static const char *const dt_names[] = {"f32", "f16", "bf16"};
    static const hipsoftmax_dtype dts[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
    int fam = -1, dti = -1;
    const char *kernel = NULL; /* a kernel name instead of a family: test that kernel alone */
    for (int i = 0; argc == 3 && i < 5; i++)
        if (strcmp(argv[1], fam_names[i]) == 0)
            fam = i;
    if (argc == 3 && strncmp(argv[1], "hsm_", 4) == 0) {
        kernel = argv[1];
        fam = 0;
    }
    for (int i = 0; argc == 3 && i < 3; i++)
        if (strcmp(argv[2], dt_names[i]) == 0)
            dti = i;
    if (fam < 0 || dti < 0) {
        fprintf(stderr, "usage: %s auto|warp|row|online|split|<kernel name> f32|f16|bf16\n", argv[0]);
        return 2;
    }
    verbose = getenv("HSM_TEST_VERBOSE") != NULL;
    hipsoftmax_handle h = test_open_handle();
    if (hipsoftmax_set_family(h, (hipsoftmax_family)fam) != HIPSOFTMAX_STATUS_SUCCESS ||
        (kernel != NULL && hipsoftmax_set_kernel(h, kernel) != HIPSOFTMAX_STATUS_SUCCESS))
        return 1;

    shape shapes[128];
    int n = 0;
    static const shape fixed[] = {{1823, 781}, {1, 1}, {1, 2}, {3, 127}, {2, 3}, {7, 1009}, {13, 4099},
                                  {65536, 31}, {65536, 128}, {4096, 1000}, {61, 12289}, {5, 100003},
                                  {2, 1048573}, {1, 1048576}, {300, 40000},
                                  /* 16-bit: WARP's rows on 4 lanes of four packs, 8 of four (plan.c's
                                   * fewer_lanes), in place and dense */
                                  {65536, 80}, {32768, 192}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        shapes[n++] = fixed[i];
    for (int k = 1; k <= 20; k++) {
        for (int d = -1; d <= 1; d++) {
            const int64_t cols = ((int64_t)1 << k) + d;
            int64_t rows = ((int64_t)1 << 19) / cols;
            rows = rows < 1 ? 1 : rows > 65536 ? 65536 : rows;
            shapes[n++] = (shape){rows, cols};
        }
    }
    for (int i = 0; i < n; i++)
        run_case(h, (test_dtype)dti, dts[dti], shapes[i], i % LAYOUT_COUNT);
    /* Every layout on the tutorial's shape, and rows longer than the whole GPU holds on chip: SPLIT
     * streams the rest of such a row and reads it twice, on the scalar path (9000001 columns) and on
     * the vector one, rows on their 128-byte line (dense) and off it (padded). */
    for (int l = 0; l < LAYOUT_COUNT; l++)
        run_case(h, (test_dtype)dti, dts[dti], (shape){1823, 781}, l);
    /* 16-bit rows on 8 bytes and not on 16 (cols a multiple of 4, not of 8), and on 4 bytes and not on
     * 8 (cols even, not a multiple of 4), in every layout (the scalar padding leaves them to the scalar
     * kernels): the plan gives WARP's _h kernels (packs of 8 bytes) rows of 65-512 columns, on half a
     * warp (65536 x 100, x 300, 8192 x 508) or the whole (4096 x 300), and its _q kernels (4 bytes)
     * rows of 257-512 on the whole warp (65536 x 302); a forced one serves the others too. */
    static const shape on8[] = {{65536, 300}, {65536, 100}, {4096, 300}, {8192, 508}, {4096, 20},
                                {65536, 302}, {4096, 98},   {4096, 22}};
    for (size_t i = 0; i < sizeof on8 / sizeof on8[0]; i++)
        for (int l = 0; l < LAYOUT_COUNT; l++)
            run_case(h, (test_dtype)dti, dts[dti], on8[i], l);
    /* Many rows too long for more than one ROW block per SM, or for ROW at all: SPLIT with one block
     * per row, two of them per SM (the automatic plan's choice, on and off the line). */
    for (int l = 0; l < 2; l++) {
        run_case(h, (test_dtype)dti, dts[dti], (shape){300, 18432}, l == 0 ? LAYOUT_DENSE : LAYOUT_PAD_VEC);
        run_case(h, (test_dtype)dti, dts[dti], (shape){300, 40960}, l == 0 ? LAYOUT_DENSE : LAYOUT_PAD_VEC);
        run_case(h, (test_dtype)dti, dts[dti], (shape){300, 65544}, l == 0 ? LAYOUT_DENSE : LAYOUT_PAD_VEC);
    }
    /* More rows of 32 KiB or more than a wave holds, a block each: ROW's plain forward asks L2 for
     * a later row's lines as it goes (plan.c's HSM_ROW_AHEAD_DIV), up to the last row, on and off
     * the line. */
    for (int l = 0; l < 2; l++)
        run_case(h, (test_dtype)dti, dts[dti], (shape){1100, 16384}, l == 0 ? LAYOUT_DENSE : LAYOUT_PAD_VEC);
    /* Decode rows (few rows of 32K-512K columns, a group of blocks each: SPLIT's held kernels and,
     * on their line, their lean twins), on and off their 128-byte line; one row of 2^20 columns, a
     * group of more blocks than a warp combines (hsm_split_combine). */
    for (int l = 0; l < 2; l++) {
        run_case(h, (test_dtype)dti, dts[dti], (shape){64, 128256}, l == 0 ? LAYOUT_DENSE : LAYOUT_PAD_VEC);
        run_case(h, (test_dtype)dti, dts[dti], (shape){8, 262144}, l == 0 ? LAYOUT_DENSE : LAYOUT_PAD_VEC);
    }
    run_case(h, (test_dtype)dti, dts[dti], (shape){1, 1048576}, LAYOUT_DENSE);
    run_case(h, (test_dtype)dti, dts[dti], (shape){2, 9000001}, LAYOUT_DENSE);
    run_case(h, (test_dtype)dti, dts[dti], (shape){1, 10000000}, LAYOUT_DENSE); /* fp32: over 1024 blocks */
    run_case(h, (test_dtype)dti, dts[dti], (shape){2, 20000000}, LAYOUT_DENSE);
    run_case(h, (test_dtype)dti, dts[dti], (shape){2, 20000000}, LAYOUT_PAD_VEC);
    hipsoftmax_destroy(h);
    printf("kernel.%s.%s: %lld cases, %lld not supported by the forced family or kernel, %lld failed\n",
           kernel != NULL ? kernel : fam_names[fam], dt_names[dti], cases, skipped, bad_cases);
    return bad_cases == 0 && (fam == 0 && kernel == NULL ? skipped == 0 : skipped < cases) ? 0 : 1;
}
