#define HIPSOFTMAX_EXPERIMENTAL
/* Experiment only (h200-2026-12-02-stage-kernels.md): a check of ROW's fp32 _stage kernels where the
 * test suite has none, blocks that loop over rows (a grid under the rows: a forced kernel on a
 * problem under 32 MB), so that a block's shared-memory row is written again after the last row's
 * reads, under compute-sanitizer's racecheck; exact-size buffers, edge rows (all -inf, a NaN, a +inf,
 * +-1e30) and the plan's choice printed; against a float64 reference (f32 tolerance of the tests,
 * 2e-5 relative). Build against the library and the CUDA runtime; run as
 *   check KERNEL|auto ROWS COLS X_STRIDE Y_STRIDE */
#include <hipsoftmax/hipsoftmax.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 6)
        return 2;
    const char *kn = argv[1];
    const long long rows = atoll(argv[2]), cols = atoll(argv[3]), xs = atoll(argv[4]), ys = atoll(argv[5]);
    hipsoftmax_handle h;
    if (hipsoftmax_create(&h))
        return 3;
    if (strcmp(kn, "auto") && hipsoftmax_set_kernel(h, kn)) {
        fprintf(stderr, "no kernel %s\n", kn);
        return 4;
    }
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, rows, cols);
    p.x_row_stride = xs;
    p.y_row_stride = ys;
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    int st = hipsoftmax_get_plan(h, &p, &info);
    printf("%s %lldx%lld xs %lld ys %lld: plan %d %s block %d grid %d bpc %d smem %d\n", kn, rows, cols, xs, ys, st,
           info.kernel, info.block, info.grid, info.blocks_per_cu, info.dynamic_smem);
    const size_t nx = (size_t)((rows - 1) * xs + cols), ny = (size_t)((rows - 1) * ys + cols);
    float *hx = malloc(nx * 4), *hy = malloc(ny * 4), *dx, *dy;
    srand(1);
    for (size_t i = 0; i < nx; i++)
        hx[i] = (float)(rand() % 20001 - 10000) / 1000.0f;
    /* edge rows: all -inf, a NaN, a +inf, +-1e30 */
    for (long long c = 0; c < cols && rows > 8; c++) {
        hx[0 * xs + c] = -INFINITY;
        hx[3 * xs + c] = c % 3 == 0 ? 1e30f : -1e30f;
    }
    if (rows > 8) {
        hx[1 * xs + cols / 2] = NAN;
        hx[2 * xs] = INFINITY;
    }
    for (size_t i = 0; i < ny; i++)
        hy[i] = 777.0f;
    cudaMalloc((void **)&dx, nx * 4);
    cudaMalloc((void **)&dy, ny * 4);
    cudaMemcpy(dx, hx, nx * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hy, ny * 4, cudaMemcpyHostToDevice);
    st = hipsoftmax_forward(h, &p, dx, dy);
    cudaError_t e = cudaDeviceSynchronize();
    if (st || e) {
        fprintf(stderr, "forward %d, cuda %d\n", st, (int)e);
        return 5;
    }
    cudaMemcpy(hy, dy, ny * 4, cudaMemcpyDeviceToHost);
    long long bad = 0;
    double worst = 0;
    for (long long r = 0; r < rows; r++) {
        const float *xr = hx + r * xs;
        double m = -INFINITY, s = 0;
        int nan = 0;
        for (long long c = 0; c < cols; c++) {
            nan |= isnan(xr[c]);
            m = fmax(m, xr[c]);
        }
        for (long long c = 0; c < cols; c++)
            s += exp(xr[c] - m);
        if (nan || m == -INFINITY || m == INFINITY)
            s = NAN;
        for (long long c = 0; c < ys; c++) {
            if (r == rows - 1 && c >= cols)
                break;
            const double got = hy[r * ys + c];
            if (c >= cols) {
                bad += got != 777.0;
                continue;
            }
            const double ref = exp(xr[c] - m) / s, err = fabs(got - ref);
            if (isnan(ref) ? !isnan(got) : err > 2e-5 * fabs(ref) + 1e-37) {
                if (bad < 5)
                    fprintf(stderr, "row %lld col %lld: %g against %g\n", r, c, got, ref);
                bad++;
            }
            if (ref > 0 && err / ref > worst)
                worst = err / ref;
        }
    }
    printf("  %s, worst rel %.3g\n", bad ? "FAILED" : "ok", worst);
    return bad ? 1 : 0;
}
