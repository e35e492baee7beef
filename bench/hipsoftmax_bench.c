/* hipsoftmax-bench: achieved bandwidth of hipsoftmax_forward per shape, as a share of the
 * device-to-device copy bandwidth measured in the same process.
 *
 * GB/s = 2 * rows * cols * element bytes / time (each element read once and written once at best),
 * time = the median of repeated launches, each timed with events. Inputs rotate over enough buffers
 * (>= 512 MiB together) that a launch never finds its input in L2. Two copy references:
 *   copy_peak: hipMemcpy device-to-device of 1 GiB (read + write bytes / time), the ceiling;
 *   copy_same: a device-to-device copy of rows * cols elements with the same rotation, the fair
 *              limit for shapes small enough that launch overhead counts.
 * --pad K gives rows a stride of cols + K elements (x and y alike; GB/s still counts only the
 * elements of the rows): padded rows that start off the 128-byte line are a common layout. copy_same
 * stays a contiguous copy of rows * cols elements (hipMemcpy2D of the padded rows runs at half the
 * bandwidth on an H200, no fair limit).
 * Output: a markdown table on stdout, optionally CSV (--csv FILE). */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <math.h>
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

static int cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

typedef struct {
    int kind; /* 0 softmax, 1 copy */
    hipsoftmax_handle h;
    hipsoftmax_dtype dt;
    int64_t rows, cols, stride;
    size_t bytes; /* of one buffer: rows x stride elements */
    void *x[MAX_SETS], *y[MAX_SETS];
    int sets;
} job;

static void run_once(const job *j, int i, hipStream_t s)
{
    const int k = i % j->sets;
    if (j->kind == 0)
        CHECK_HSM(hipsoftmax_softmax(j->h, j->dt, j->rows, j->cols, j->x[k], j->stride, j->y[k], j->stride));
    else
        CHECK(hipMemcpyAsync(j->y[k], j->x[k], j->bytes, hipMemcpyDeviceToDevice, s));
}

/* Median milliseconds of `reps` event-timed launches after untimed ones: at least `warm`, and at least
 * WARM_MS of GPU time. Five launches were not enough: on an H200, the first shape measured after
 * copy_peak ran slower for some milliseconds (fp32 4096x16384: 78.9% of copy_peak over 50 launches,
 * 86.1% measured again in the same process, 85.8% over 400 launches; bf16 4096x32768: 76.6%, 83.2%). */
#define WARM_MS 25.0f
static float time_job(const job *j, hipStream_t s, int warm, int reps)
{
    hipEvent_t a, b;
    CHECK(hipEventCreate(&a));
    CHECK(hipEventCreate(&b));
    float *t = malloc(sizeof(float) * (size_t)reps);
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

static void fill(void *p, size_t bytes)
{
    /* Small values of either dtype: bytes 0x3c00 read as fp16 1.0, as bf16 ~0.0078, as fp32 ~0.0078. */
    CHECK(hipMemset(p, 0x3c, bytes));
}

static void alloc_sets(job *j)
{
    j->sets = (int)((ROTATE_BYTES + j->bytes - 1) / j->bytes);
    j->sets = j->sets < 2 ? 2 : j->sets > MAX_SETS ? MAX_SETS : j->sets;
    for (int k = 0; k < j->sets; k++) {
        CHECK(hipMalloc(&j->x[k], j->bytes));
        CHECK(hipMalloc(&j->y[k], j->bytes));
        fill(j->x[k], j->bytes);
    }
}

static void free_sets(job *j)
{
    for (int k = 0; k < j->sets; k++) {
        CHECK(hipFree(j->x[k]));
        CHECK(hipFree(j->y[k]));
    }
}

static const char *family_name(hipsoftmax_family f)
{
    static const char *const n[] = {"auto", "warp", "row", "online", "split"};
    return (int)f >= 0 && (int)f <= 4 ? n[f] : "?";
}

int main(int argc, char **argv)
{
    hipsoftmax_dtype dt = HIPSOFTMAX_DTYPE_F32;
    const char *dt_name = "fp32", *csv = NULL, *kernel = NULL;
    hipsoftmax_family fam = HIPSOFTMAX_FAMILY_AUTO;
    int64_t rows_list[64], cols_list[64];
    int nshapes = 0, reps = 50;
    long long pad = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dtype") && i + 1 < argc) {
            dt_name = argv[++i];
            dt = !strcmp(dt_name, "fp16") ? HIPSOFTMAX_DTYPE_F16 : !strcmp(dt_name, "bf16") ? HIPSOFTMAX_DTYPE_BF16
                                                                                            : HIPSOFTMAX_DTYPE_F32;
        } else if (!strcmp(argv[i], "--shape") && i + 1 < argc && nshapes < 64) {
            long long r, c;
            if (sscanf(argv[++i], "%lldx%lld", &r, &c) == 2) {
                rows_list[nshapes] = r;
                cols_list[nshapes++] = c;
            }
        } else if (!strcmp(argv[i], "--family") && i + 1 < argc) {
            const char *f = argv[++i];
            for (int k = 0; k <= 4; k++)
                if (!strcmp(f, family_name((hipsoftmax_family)k)))
                    fam = (hipsoftmax_family)k;
        } else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
            kernel = argv[++i];
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--pad") && i + 1 < argc) {
            pad = atoll(argv[++i]);
            if (pad < 0) {
                fprintf(stderr, "--pad: a count of elements, >= 0\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
            csv = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--dtype fp32|fp16|bf16] [--shape MxN]... [--family auto|warp|row|online|split]"
                            " [--kernel NAME] [--reps N] [--pad K] [--csv FILE]\n", argv[0]);
            return 2;
        }
    }
    if (nshapes == 0) /* the default table: M = 4096, N = 128 .. 65536 */
        for (int64_t n = 128; n <= 65536; n *= 2, nshapes++)
            rows_list[nshapes] = 4096, cols_list[nshapes] = n;
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

    job peak = {1, h, dt, 1, (int64_t)1 << 30, (int64_t)1 << 30, (size_t)1 << 30, {0}, {0}, 0};
    alloc_sets(&peak);
    const float peak_ms = time_job(&peak, s, 3, 20);
    const double peak_gbs = 2.0 * (double)peak.bytes / (peak_ms * 1e6);
    free_sets(&peak);

    FILE *out = csv ? fopen(csv, "w") : NULL;
    if (out)
        fprintf(out, "device,dtype,rows,cols,family,kernel,grid,block,blocks_per_row,us,gbs,copy_peak_gbs,share_peak,copy_same_gbs,share_same,row_stride\n");
    printf("device: %s, dtype %s, copy_peak %.0f GB/s (hipMemcpy D2D 1 GiB), median of %d launches", prop.name,
           dt_name, peak_gbs, reps);
    if (pad > 0)
        printf(", row stride cols + %lld", pad);
    printf("\n\n");
    printf("| rows | cols | family | kernel | grid x block | us | GB/s | %% of copy_peak | %% of copy_same |\n");
    printf("|---:|---:|---|---|---|---:|---:|---:|---:|\n");
    const size_t es = dt == HIPSOFTMAX_DTYPE_F32 ? 4 : 2;
    for (int i = 0; i < nshapes; i++) {
        hipsoftmax_problem p;
        hipsoftmax_problem_init(&p, dt, rows_list[i], cols_list[i]);
        p.x_row_stride = p.y_row_stride = cols_list[i] + pad;
        hipsoftmax_plan_info info;
        if (hipsoftmax_get_plan(h, &p, &info) != HIPSOFTMAX_STATUS_SUCCESS) {
            printf("| %lld | %lld | %s | (no plan) | | | | | |\n", (long long)p.rows, (long long)p.cols, family_name(fam));
            continue;
        }
        job sm = {0, h, dt, p.rows, p.cols, p.x_row_stride, (size_t)(p.rows * p.x_row_stride) * es, {0}, {0}, 0};
        alloc_sets(&sm);
        const float ms = time_job(&sm, s, 5, reps);
        job cp = sm;
        cp.kind = 1;
        cp.stride = cp.cols;
        cp.bytes = (size_t)(p.rows * p.cols) * es; /* within sm's buffers */
        const float cms = time_job(&cp, s, 5, reps);
        free_sets(&sm);
        const double moved = 2.0 * (double)(p.rows * p.cols) * (double)es;
        const double gbs = moved / (ms * 1e6), cgbs = moved / (cms * 1e6);
        char geo[64];
        if (info.blocks_per_row > 1)
            snprintf(geo, sizeof geo, "%dx%d (%d/row)", info.grid, info.block, info.blocks_per_row);
        else
            snprintf(geo, sizeof geo, "%dx%d", info.grid, info.block);
        printf("| %lld | %lld | %s | %s | %s | %.1f | %.0f | %.1f | %.1f |\n", (long long)p.rows, (long long)p.cols,
               family_name(info.family), info.kernel, geo, ms * 1e3, gbs, 100.0 * gbs / peak_gbs, 100.0 * gbs / cgbs);
        fflush(stdout);
        if (out)
            fprintf(out, "%s,%s,%lld,%lld,%s,%s,%d,%d,%d,%.2f,%.1f,%.1f,%.4f,%.1f,%.4f,%lld\n", prop.name, dt_name,
                    (long long)p.rows, (long long)p.cols, family_name(info.family), info.kernel, info.grid, info.block,
                    info.blocks_per_row, ms * 1e3, gbs, peak_gbs, gbs / peak_gbs, cgbs, gbs / cgbs,
                    (long long)p.x_row_stride);
    }
    if (out)
        fclose(out);
    CHECK(hipStreamDestroy(s));
    hipsoftmax_destroy(h);
    return 0;
}
