/* ab_stable.c: the plain forward timed through the stable API alone (create, problem_init, forward),
 * so that ONE binary runs two versions of the library: compile it against the older version's header
 * and run it with either library first on the library path (the newer one under the older file name,
 * or linked by its own). hipsoftmax-bench cannot do this: each version's bench uses that version's
 * experimental API (plans, kernel names), and the older bench cannot plan on the newer library.
 *
 * Per shape: the median of `reps` launches (after at least 25 ms of warm-up launches), buffers rotated
 * over sets of at least 256 MiB so no launch finds its input in L2, GB/s of the bytes moved (x read,
 * y written) and their share of a 1 GiB device-to-device copy measured in the same process.
 *
 * Build (bench/ab-forward.sh's "same binary" mode does this):
 *   cc -std=c11 -O2 -I OLD/include -I hip -D__HIP_PLATFORM_NVIDIA__ -I CUDA/include bench/ab_stable.c \
 *      -L OLD_LIBDIR -l<old library name> -L CUDA/lib64 -lcudart -o ab-stable
 * Usage: ab-stable fp32|fp16|bf16 ROWSxCOLS... */
#include <hipsoftmax/hipsoftmax.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsm_vendor.h"

#define MAX_SETS 64

#define CHECK(call)                                                                                   \
    do {                                                                                              \
        const hipError_t e_ = (call);                                                                 \
        if (e_ != hipSuccess) {                                                                       \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_));     \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

static int cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median milliseconds of `reps` launches of fn(k) over rotating sets k, after >= 25 ms of warm-up. */
static float median_ms(void (*fn)(void *, int), void *ctx, int sets, int reps)
{
    hipEvent_t a, b;
    CHECK(hipEventCreate(&a));
    CHECK(hipEventCreate(&b));
    float warm = 0.0f, t[512];
    for (int i = 0; warm < 25.0f; i++) {
        CHECK(hipEventRecord(a, NULL));
        fn(ctx, i % sets);
        CHECK(hipEventRecord(b, NULL));
        CHECK(hipEventSynchronize(b));
        float ms = 0.0f;
        CHECK(hipEventElapsedTime(&ms, a, b));
        warm += ms;
    }
    for (int i = 0; i < reps; i++) {
        CHECK(hipEventRecord(a, NULL));
        fn(ctx, i % sets);
        CHECK(hipEventRecord(b, NULL));
        CHECK(hipEventSynchronize(b));
        CHECK(hipEventElapsedTime(&t[i], a, b));
    }
    CHECK(hipEventDestroy(a));
    CHECK(hipEventDestroy(b));
    qsort(t, (size_t)reps, sizeof t[0], cmp_float);
    return t[reps / 2];
}

typedef struct job {
    hipsoftmax_handle h;
    hipsoftmax_problem p;
    void *x[MAX_SETS], *y[MAX_SETS];
    size_t bytes;
} job;

static void run_forward(void *ctx, int k)
{
    job *j = ctx;
    const hipsoftmax_status st = hipsoftmax_forward(j->h, &j->p, j->x[k], j->y[k]);
    if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        fprintf(stderr, "hipsoftmax_forward: %s\n", hipsoftmax_status_string(st));
        exit(1);
    }
}

static void run_copy(void *ctx, int k)
{
    job *j = ctx;
    CHECK(hipMemcpyAsync(j->y[k], j->x[k], j->bytes, hipMemcpyDeviceToDevice, NULL));
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s fp32|fp16|bf16 ROWSxCOLS...\n", argv[0]);
        return 2;
    }
    const hipsoftmax_dtype dt = !strcmp(argv[1], "fp32")   ? HIPSOFTMAX_DTYPE_F32
                                : !strcmp(argv[1], "fp16") ? HIPSOFTMAX_DTYPE_F16
                                : !strcmp(argv[1], "bf16") ? HIPSOFTMAX_DTYPE_BF16
                                                           : (hipsoftmax_dtype)-1;
    if (dt == (hipsoftmax_dtype)-1) {
        fprintf(stderr, "unknown dtype %s\n", argv[1]);
        return 2;
    }
    const size_t es = dt == HIPSOFTMAX_DTYPE_F32 ? 4 : 2;
    job j;
    memset(&j, 0, sizeof j);
    if (hipsoftmax_create(&j.h) != HIPSOFTMAX_STATUS_SUCCESS) {
        fprintf(stderr, "no GPU\n");
        return 1;
    }
    /* The copy ceiling: 1 GiB device to device, two sets. */
    j.bytes = (size_t)1 << 30;
    for (int k = 0; k < 2; k++) {
        CHECK(hipMalloc(&j.x[k], j.bytes));
        CHECK(hipMalloc(&j.y[k], j.bytes));
    }
    const float copy_ms = median_ms(run_copy, &j, 2, 20);
    const double peak = 2.0 * (double)j.bytes / (copy_ms * 1e6);
    for (int k = 0; k < 2; k++) {
        CHECK(hipFree(j.x[k]));
        CHECK(hipFree(j.y[k]));
    }
    printf("library %s; copy_peak %.0f GB/s\n| rows | cols | us | GB/s | %% of copy_peak |\n|---:|---:|---:|---:|---:|\n",
           hipsoftmax_version_string(), peak);
    for (int a = 2; a < argc; a++) {
        long long rows = 0, cols = 0;
        if (sscanf(argv[a], "%lldx%lld", &rows, &cols) != 2 || rows <= 0 || cols <= 0) {
            fprintf(stderr, "bad shape %s\n", argv[a]);
            return 2;
        }
        hipsoftmax_problem_init(&j.p, dt, rows, cols);
        j.bytes = (size_t)rows * (size_t)cols * es;
        int sets = (int)(((size_t)256 << 20) / (2 * j.bytes)) + 1;
        sets = sets > MAX_SETS ? MAX_SETS : sets;
        for (int k = 0; k < sets; k++) {
            CHECK(hipMalloc(&j.x[k], j.bytes));
            CHECK(hipMalloc(&j.y[k], j.bytes));
            CHECK(hipMemset(j.x[k], 0x3c, j.bytes)); /* finite values in every dtype */
        }
        const float ms = median_ms(run_forward, &j, sets, 200);
        const double gbs = 2.0 * (double)j.bytes / (ms * 1e6);
        printf("| %lld | %lld | %.1f | %.0f | %.1f |\n", rows, cols, ms * 1e3, gbs, 100.0 * gbs / peak);
        for (int k = 0; k < sets; k++) {
            CHECK(hipFree(j.x[k]));
            CHECK(hipFree(j.y[k]));
        }
    }
    hipsoftmax_destroy(j.h);
    return 0;
}
