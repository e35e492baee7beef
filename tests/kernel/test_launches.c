/* kernel.warp_launches.<vendor>: the plain forward and log-softmax of more rows than one launch of
 * WARP's one-pass kernels serves. Those kernels (hsm_warp_rows: the plain forward's and log-softmax's
 * but the peeled and staged ones) give each group of lanes one row and do not loop; the plan bounds
 * their grid (plan.c's HSM_WARP_ONCE_MAX_GRID, 2^20 blocks) and the launch covers the rows past it with
 * further launches, x and y moved on (softmax_warp.hip's hsm_launch_warp_rows). Here: rows of 2
 * columns (two lanes a row, 64 rows a block of 128), so 2^26 rows fill one launch and the rows past
 * them take a second:
 *   - fp32, dense (rows on 8 bytes: the scalar kernels) and padded (stride 3: rows at any 4 bytes);
 *   - bf16, stride 3 (rows at any 2 bytes, not dense: the scalar kernels);
 * each softmax and log-softmax, the plan's kernel, its grid checked to be the bound (so a second
 * launch is needed). Every row against the float64 reference (test_ref_forward), with the edge rows
 * (-inf, NaN, +inf, 1e30) among the rows of the second launch and of the first; y's padding must not
 * change. The tensors are allocated to their last row's end (0.5-0.8 GB each). Tolerances: test_util.h's
 * per dtype (test_forward_tol). Exits HSM_SKIP_CODE when there is no GPU of the library's vendor. */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "reference_ops.h"
#include "test_util.h"

#define LAUNCH_ROWS ((int64_t)1 << 26) /* 2^20 blocks of 64 rows: what one launch serves */
#define PAD_SENTINEL 7.0f              /* y's padding before the call; must survive it */

static long long failures;

/* The edge rows: near the start, at the first launch's last row and the second's first, and last. */
static void put_edges(void *x, test_dtype t, int64_t rows, int64_t stride)
{
    static const float edge[][2] = {{-INFINITY, -INFINITY}, {NAN, 1.0f}, {INFINITY, 0.0f}, {1e30f, -1e30f},
                                    {-INFINITY, 3.0f},      {1e30f, 1e30f}};
    const int64_t at[] = {1, LAUNCH_ROWS - 1, LAUNCH_ROWS, LAUNCH_ROWS + 1, rows - 2, rows - 1};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        for (int c = 0; c < 2; c++)
            test_set(x, (size_t)(at[i] * stride + c), t, edge[i % (sizeof edge / sizeof edge[0])][c]);
}

static void run_case(hipsoftmax_handle h, test_dtype t, int64_t rows, int64_t stride, int log_softmax)
{
    static const hipsoftmax_dtype api[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
    const size_t es = test_dtype_size(t), n = (size_t)((rows - 1) * stride + 2);
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, api[t], rows, 2);
    p.x_row_stride = p.y_row_stride = stride;
    if (log_softmax)
        p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    CHECK_HSM(hipsoftmax_get_plan(h, &p, &info));
    const int per_launch = info.block / (info.group_width > 0 ? info.group_width : 1);
    const int two = info.family == HIPSOFTMAX_FAMILY_WARP && (int64_t)info.grid * per_launch < rows;
    printf("  %s %s %lld x 2, stride %lld: %s, grid %d of %d rows a block%s\n", t == T_F32 ? "f32" : "bf16",
           log_softmax ? "log-softmax" : "softmax", (long long)rows, (long long)stride, info.kernel, info.grid,
           per_launch, two ? "" : " (one launch: not the case this test is for)");
    if (!two)
        failures++;
    unsigned char *x = test_xmalloc(n * es), *y = test_xmalloc(n * es);
    for (size_t i = 0; i < n; i++) {
        test_set(x, i, t, test_uniform(-8.0f, 8.0f));
        test_set(y, i, t, PAD_SENTINEL);
    }
    put_edges(x, t, rows, stride);
    void *dx = test_to_device(x, n * es), *dy = test_to_device(y, n * es);
    CHECK_HSM(hipsoftmax_forward(h, &p, dx, dy));
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipMemcpy(y, dy, n * es, hipMemcpyDeviceToHost));
    long long bad = 0;
    for (int64_t r = 0; r < rows; r++) {
        const size_t o = (size_t)(r * stride);
        const double z[2] = {test_get(x, o, t), test_get(x, o + 1, t)};
        double want[2], mx, lse;
        test_ref_forward(z, 2, log_softmax, 0, want, &mx, &lse);
        for (int c = 0; c < 2; c++) {
            const double got = test_get(y, o + (size_t)c, t);
            const double tol = test_forward_tol(t, 0.0, 1.0, want[c], 0.0, log_softmax);
            if (!test_matches(got, want[c], tol, t) && bad++ < 5)
                fprintf(stderr, "    row %lld col %d: got %g want %g\n", (long long)r, c, got, want[c]);
        }
        if (r + 1 < rows && stride > 2 && test_get(y, o + 2, t) != PAD_SENTINEL && bad++ < 5)
            fprintf(stderr, "    row %lld: padding written\n", (long long)r);
    }
    if (bad > 0)
        fprintf(stderr, "    %lld mismatches\n", bad);
    failures += bad;
    CHECK_HIP(hipFree(dx));
    CHECK_HIP(hipFree(dy));
    free(x);
    free(y);
}

int main(void)
{
    hipsoftmax_handle h = test_open_handle(); /* exits with the skip code without a GPU */
    for (int log_softmax = 0; log_softmax < 2; log_softmax++) {
        run_case(h, T_F32, LAUNCH_ROWS + 37, 2, log_softmax);
        run_case(h, T_F32, LAUNCH_ROWS + 5, 3, log_softmax);
        run_case(h, T_BF16, LAUNCH_ROWS + 61, 3, log_softmax);
    }
    hipsoftmax_destroy(h);
    printf("kernel.warp_launches: %lld failures\n", failures);
    return failures == 0 ? 0 : 1;
}
