/* api.validate: every bad-input class of the public API returns its status and writes nothing.
 * Runs without a GPU: handles are offline (hipsoftmax_create_offline), buffers are host memory that
 * the library must never touch (a launch would fail on them; a write would change the canaries). */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include "api_expect.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures; /* counted by api_expect.h's checks */

/* Host buffers standing in for device memory; 16-byte aligned, filled with a canary. */
#define BUF_FLOATS 4096
static _Alignas(16) float xbuf[BUF_FLOATS];
static _Alignas(16) float ybuf[BUF_FLOATS];
#define CANARY 12345.0f

static void fill_canary(void)
{
    for (int i = 0; i < BUF_FLOATS; i++)
        xbuf[i] = ybuf[i] = CANARY;
}

static void check_canary(const char *what)
{
    for (int i = 0; i < BUF_FLOATS; i++) {
        if (xbuf[i] != CANARY || ybuf[i] != CANARY) {
            fprintf(stderr, "%s: buffer element %d was written\n", what, i);
            failures++;
            return;
        }
    }
}

static void test_handles(const char *target)
{
    hipsoftmax_handle h = NULL;
    EXPECT_STATUS(hipsoftmax_create(NULL), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_create_for_device(NULL, 0), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_create_for_device(&h, -1), HIPSOFTMAX_STATUS_INVALID_VALUE);
    EXPECT_STATUS(hipsoftmax_create_offline(NULL, target), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_create_offline(&h, NULL), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_create_offline(&h, "gfx1234"), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    if (h != NULL) {
        fprintf(stderr, "a failed create left a handle behind\n");
        failures++;
    }
    EXPECT_STATUS(hipsoftmax_destroy(NULL), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(hipsoftmax_set_stream(NULL, NULL), HIPSOFTMAX_STATUS_INVALID_HANDLE);
    hipsoftmax_stream s;
    EXPECT_STATUS(hipsoftmax_get_stream(NULL, &s), HIPSOFTMAX_STATUS_INVALID_HANDLE);
    char buf[8];
    EXPECT_STATUS(hipsoftmax_get_target(NULL, buf, sizeof buf), HIPSOFTMAX_STATUS_INVALID_HANDLE);
    EXPECT_STATUS(hipsoftmax_set_family(NULL, HIPSOFTMAX_FAMILY_AUTO), HIPSOFTMAX_STATUS_INVALID_HANDLE);
    size_t n;
    EXPECT_STATUS(hipsoftmax_kernel_count(NULL, &n), HIPSOFTMAX_STATUS_INVALID_HANDLE);

    /* No GPU on this machine (CPU tests), or a GPU: create either succeeds or says NO_DEVICE. */
    const hipsoftmax_status st = hipsoftmax_create(&h);
    if (st != HIPSOFTMAX_STATUS_SUCCESS && st != HIPSOFTMAX_STATUS_NO_DEVICE) {
        fprintf(stderr, "hipsoftmax_create returned %s\n", hipsoftmax_status_string(st));
        failures++;
    }
    hipsoftmax_destroy(h);
}

static void test_forward(hipsoftmax_handle h)
{
    hipsoftmax_problem p, q;
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 4, 100);
    float *x = xbuf, *y = ybuf;
    fill_canary();

    EXPECT_STATUS(hipsoftmax_forward(NULL, &p, x, y), HIPSOFTMAX_STATUS_INVALID_HANDLE);
    EXPECT_STATUS(hipsoftmax_forward(h, NULL, x, y), HIPSOFTMAX_STATUS_INVALID_POINTER);
    q = p, q.struct_size = 8;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    /* sizes */
    q = p, q.rows = 0;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = p, q.cols = 0;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = p, q.rows = -3;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = p, q.cols = -1;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    /* sizes are checked before pointers: an empty problem with NULL pointers is still a size error */
    q = p, q.rows = 0;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, NULL, NULL), HIPSOFTMAX_STATUS_INVALID_SIZE);
    /* pointers */
    EXPECT_STATUS(hipsoftmax_forward(h, &p, NULL, y), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, NULL), HIPSOFTMAX_STATUS_INVALID_POINTER);
    /* strides shorter than a row */
    q = p, q.x_row_stride = 99;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    q = p, q.y_row_stride = -100;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    /* 64-bit overflow of the byte extent: rows x stride x 4 bytes past 2^63 */
    q = p, q.rows = INT64_C(1) << 40, q.cols = INT64_C(1) << 22, q.x_row_stride = q.y_row_stride = q.cols;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = p, q.rows = 2, q.cols = INT64_MAX / 2, q.x_row_stride = q.y_row_stride = INT64_MAX / 2;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = p, q.rows = INT64_MAX, q.cols = 1, q.x_row_stride = q.y_row_stride = 1;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    /* one row whose bytes alone overflow (found by the random test below) */
    q = p, q.rows = 1, q.cols = INT64_MAX / 2, q.x_row_stride = q.y_row_stride = INT64_MAX / 2;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    /* enum values out of range, including a value of another enum (disjoint ranges) */
    q = p, q.x_dtype = (hipsoftmax_dtype)HIPSOFTMAX_ALGO_SOFTMAX;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.y_dtype = (hipsoftmax_dtype)7;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.algorithm = (hipsoftmax_algorithm)HIPSOFTMAX_DTYPE_F32;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.mode = (hipsoftmax_mode)0;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.mask = (hipsoftmax_mask)304;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.inner = 2;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.scale = 0.0f / 0.0f;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    /* CHANNEL mode reaches the device check (tests/api/test_api_channel.c has its own classes) */
    q = p, q.mode = HIPSOFTMAX_MODE_CHANNEL, q.inner = 4, q.x_row_stride = q.y_row_stride = 400;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y + 1600), HIPSOFTMAX_STATUS_NO_DEVICE);
    /* misaligned pointers */
    EXPECT_STATUS(hipsoftmax_forward(h, &p, (const char *)x + 2, y + 1024), HIPSOFTMAX_STATUS_MISALIGNED);
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, (char *)(y + 1024) + 1), HIPSOFTMAX_STATUS_MISALIGNED);
    q = p, q.x_dtype = q.y_dtype = HIPSOFTMAX_DTYPE_BF16;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, (const char *)x + 1, y), HIPSOFTMAX_STATUS_MISALIGNED);
    /* overlap that is not exact in-place */
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, x + 1), HIPSOFTMAX_STATUS_OVERLAP);
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x + 399, x), HIPSOFTMAX_STATUS_OVERLAP);
    q = p, q.y_row_stride = 101;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, x), HIPSOFTMAX_STATUS_OVERLAP);
    /* valid requests reach the device check: an offline handle has none */
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, x), HIPSOFTMAX_STATUS_NO_DEVICE);
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, x + 400), HIPSOFTMAX_STATUS_NO_DEVICE);
    EXPECT_STATUS(hipsoftmax_softmax(h, HIPSOFTMAX_DTYPE_F16, 2, 3, x, 3, y, 8), HIPSOFTMAX_STATUS_NO_DEVICE);
    EXPECT_STATUS(hipsoftmax_softmax(h, HIPSOFTMAX_DTYPE_F16, 2, 3, x, 2, y, 8), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    /* backward: validated like forward (tests/api/test_api_problem.c has its own classes) */
    EXPECT_STATUS(hipsoftmax_backward(h, &p, y, NULL, x), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_backward(h, &p, y, x + 1024, x), HIPSOFTMAX_STATUS_NO_DEVICE);
    q = p, q.rows = 0;
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, x, x), HIPSOFTMAX_STATUS_INVALID_SIZE);
    check_canary("forward");
}

/* Whether kernel k is one of WARP's scalar kernels (hsm_warp_<dtype>_s<C>, with a suffix or none). */
static int warp_scalar(const char *k)
{
    const char *u = strncmp(k, "hsm_warp_", 9) == 0 ? strchr(k + 9, '_') : NULL;
    return u != NULL && u[1] == 's' && u[2] >= '1' && u[2] <= '9';
}

/* Whether kernel k is one of the _log kernels (the plain log-softmax's). */
static int log_kernel(const char *k)
{
    const size_t n = strlen(k);
    return n > 4 && strcmp(k + n - 4, "_log") == 0;
}

/* WARP's staged kernels (_flat): the plain forward of dense 16-bit rows of up to 511 columns whose
 * rows are not all on 16 bytes, over 4 MB (x and y), on the fewest lanes of 16 elements that hold the
 * row (the kernel of that group width); smaller problems and fp32 rows take the scalar kernels
 * (plan.c's scalar_rows), rows on 16 bytes keep the vector kernels, padded rows the peeled or scalar
 * ones, options the forward-with-options kernels. A forced staged kernel refuses rows that are not
 * dense. */
static void test_flat_plan(hipsoftmax_handle h)
{
    hipsoftmax_problem p;
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    static const long long shapes[][2] = {{65536, 77}, {16384, 127}, {8192, 301}, {4097, 509}, {4113, 255}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F16, shapes[s][0], shapes[s][1]);
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
        EXPECT(strncmp(info.kernel, "hsm_warp_f16_flat_w", 19) == 0 && info.group_width * 16 > shapes[s][1] &&
               info.group_width * 8 <= shapes[s][1]);
    }
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols;
    } scalar[] = {{HIPSOFTMAX_DTYPE_F16, 1823, 301}, {HIPSOFTMAX_DTYPE_F16, 7, 1}, {HIPSOFTMAX_DTYPE_BF16, 4096, 127},
                  {HIPSOFTMAX_DTYPE_F16, 4112, 255} /* 4 MB */, {HIPSOFTMAX_DTYPE_F32, 65536, 127},
                  {HIPSOFTMAX_DTYPE_F32, 4096, 509}, {HIPSOFTMAX_DTYPE_F32, 1, 33}};
    for (size_t s = 0; s < sizeof scalar / sizeof scalar[0]; s++) {
        hipsoftmax_problem_init(&p, scalar[s].dt, scalar[s].rows, scalar[s].cols);
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
        EXPECT(info.family == HIPSOFTMAX_FAMILY_WARP && warp_scalar(info.kernel));
    }
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_BF16, 65536, 80);
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(strstr(info.kernel, "_flat_") == NULL && info.family == HIPSOFTMAX_FAMILY_WARP);
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_BF16, 65536, 77);
    p.x_row_stride = 78;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(strstr(info.kernel, "_flat_") == NULL);
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "hsm_warp_bf16_flat_w16"), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    p.x_row_stride = 77;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(strcmp(info.kernel, "hsm_warp_bf16_flat_w16") == 0 && info.group_width == 16);
    p.cols = p.x_row_stride = p.y_row_stride = 256; /* 16-bit: 16 lanes of 16 hold 255 columns */
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    p.cols = p.x_row_stride = p.y_row_stride = 77;
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "hsm_warp_bf16_flat_w32"), HIPSOFTMAX_STATUS_SUCCESS);
    p.cols = p.x_row_stride = p.y_row_stride = 512; /* 16-bit: rows of up to 511 columns */
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    p.cols = p.x_row_stride = p.y_row_stride = 511;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.group_width == 32);
    p.scale = 0.5f;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_set_kernel(h, NULL), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(strstr(info.kernel, "_flat_") == NULL);
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "hsm_warp_f32_flat_w8"), HIPSOFTMAX_STATUS_INVALID_VALUE); /* 16-bit only */
}

static void test_plan(hipsoftmax_handle h)
{
    hipsoftmax_problem p;
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 1823, 781);
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, NULL), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_set_family(h, (hipsoftmax_family)9), HIPSOFTMAX_STATUS_INVALID_VALUE);
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    if (info.grid <= 0 || info.block <= 0 || info.regs <= 0 || !info.metadata_from_code_object) {
        fprintf(stderr, "plan for 1823x781: grid %d block %d regs %d from code object %d\n", info.grid, info.block,
                info.regs, info.metadata_from_code_object);
        failures++;
    }
    /* A forced family that cannot hold the row says so. */
    EXPECT_STATUS(hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_WARP), HIPSOFTMAX_STATUS_SUCCESS);
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 8, 1 << 20);
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_SPLIT), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_AUTO), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "no_such_kernel"), HIPSOFTMAX_STATUS_INVALID_VALUE);
    EXPECT_STATUS(hipsoftmax_set_kernel(NULL, NULL), HIPSOFTMAX_STATUS_INVALID_HANDLE);
    EXPECT_STATUS(hipsoftmax_set_kernel(h, NULL), HIPSOFTMAX_STATUS_SUCCESS);
    size_t n = 0;
    EXPECT_STATUS(hipsoftmax_kernel_count(h, &n), HIPSOFTMAX_STATUS_SUCCESS);
    hipsoftmax_kernel_info ki = {.struct_size = sizeof ki};
    EXPECT_STATUS(hipsoftmax_get_kernel_info(h, n, &ki), HIPSOFTMAX_STATUS_INVALID_VALUE);
    EXPECT_STATUS(hipsoftmax_get_kernel_info(h, 0, NULL), HIPSOFTMAX_STATUS_INVALID_POINTER);
    int bpc;
    EXPECT_STATUS(hipsoftmax_kernel_occupancy(h, 0, 0, &bpc), HIPSOFTMAX_STATUS_INVALID_VALUE);
    test_flat_plan(h);
}

/* A plain log-softmax runs on the _log kernels where the forward with options would run the same
 * family's kernels, and keeps the forward with options' plan elsewhere (plan.c's hsm_plan_get). The
 * forward with options' plan is that of the same call at scale 0.5, on which no plan depends. WARP's
 * rows on 16 bytes take the _log twin of the plain softmax's kernel, on as many lanes (planned as the
 * plain forward is: the forward with options' chunk, or fewer lanes of more values where plan.c's
 * fewer_lanes says). */
static void test_log_plan(hipsoftmax_handle h)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols;
        int warp_log; /* 1: WARP's _log kernel of the forward with options' chunk expected; 2: a staged
                         one (_flat_w<W>_log: dense 16-bit rows off 16 bytes, over 4 MB); 3: a scalar
                         one (_s<C>_log: dense fp32 rows off 16 bytes, smaller 16-bit problems) */
    } cases[] = {{HIPSOFTMAX_DTYPE_F32, 4096, 512, 1}, {HIPSOFTMAX_DTYPE_F32, 4096, 64, 1},
                 {HIPSOFTMAX_DTYPE_F32, 65536, 4, 1},  {HIPSOFTMAX_DTYPE_BF16, 4096, 256, 1},
                 {HIPSOFTMAX_DTYPE_F16, 16384, 128, 1}, {HIPSOFTMAX_DTYPE_F32, 4096, 511, 3},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 77, 3},  {HIPSOFTMAX_DTYPE_F16, 16384, 127, 2},
                 {HIPSOFTMAX_DTYPE_F32, 4096, 4096, 0}, {HIPSOFTMAX_DTYPE_BF16, 4096, 50257, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 64, 128256, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hipsoftmax_problem p;
        hipsoftmax_plan_info lg = {.struct_size = sizeof lg}, fw = {.struct_size = sizeof fw};
        hipsoftmax_problem_init(&p, cases[i].dt, cases[i].rows, cases[i].cols);
        p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &lg), HIPSOFTMAX_STATUS_SUCCESS);
        p.scale = 0.5f;
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &fw), HIPSOFTMAX_STATUS_SUCCESS);
        const int is_log = log_kernel(lg.kernel);
        if (is_log ? lg.family != fw.family : strcmp(lg.kernel, fw.kernel) != 0) {
            fprintf(stderr, "log-softmax %lldx%lld: %s, the forward with options %s\n", cases[i].rows, cases[i].cols,
                    lg.kernel, fw.kernel);
            failures++;
        }
        if (cases[i].warp_log == 2)
            EXPECT(lg.family == HIPSOFTMAX_FAMILY_WARP && strstr(lg.kernel, "_flat_w") != NULL && is_log);
        if (cases[i].warp_log == 3)
            EXPECT(lg.family == HIPSOFTMAX_FAMILY_WARP && warp_scalar(lg.kernel) && is_log);
        if (cases[i].warp_log == 1) {
            hipsoftmax_plan_info sm = {.struct_size = sizeof sm};
            hipsoftmax_problem_init(&p, cases[i].dt, cases[i].rows, cases[i].cols);
            EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &sm), HIPSOFTMAX_STATUS_SUCCESS);
            char want[sizeof sm.kernel + 4];
            snprintf(want, sizeof want, "%s_log", sm.kernel);
            EXPECT(fw.family == HIPSOFTMAX_FAMILY_WARP && sm.family == HIPSOFTMAX_FAMILY_WARP &&
                   strcmp(lg.kernel, want) == 0 && lg.group_width == sm.group_width);
        }
    }
}

/* WARP's fp32 rows of 65-256 columns on 16 bytes, plain forward and log-softmax: two rows a warp or
 * more (plan.c's fewer_lanes: the kernel of twice the values a lane, where one row would take the
 * whole warp); rows off 16 bytes (the scalar kernels) where the warp would hold at most two values a
 * lane (33 columns). Longer rows and 16-bit rows of 512 columns keep a row a warp (the forward with
 * options and shorter 16-bit rows: test_fewer_lanes_plan). */
static void test_two_rows_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long cols;
        int log, half; /* half: a group of at most half the warp expected, else the whole warp */
    } cases[] = {{HIPSOFTMAX_DTYPE_F32, 128, 0, 1},      {HIPSOFTMAX_DTYPE_F32, 200, 0, 1},
                 {HIPSOFTMAX_DTYPE_F32, 256, 0, 1},      {HIPSOFTMAX_DTYPE_F32, 256, 1, 1},
                 {HIPSOFTMAX_DTYPE_F32, 512, 0, 0},      {HIPSOFTMAX_DTYPE_BF16, 8 * 64, 0, 0},
                 {HIPSOFTMAX_DTYPE_F16, 8 * 64, 1, 0},   {HIPSOFTMAX_DTYPE_F32, 33, 0, 1},
                 {HIPSOFTMAX_DTYPE_F32, 33, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hipsoftmax_problem p;
        hipsoftmax_plan_info info = {.struct_size = sizeof info};
        hipsoftmax_problem_init(&p, cases[i].dt, 4096, cases[i].cols);
        if (cases[i].log)
            p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
        EXPECT((cases[i].cols % 4 != 0) == warp_scalar(info.kernel));
        const int ok = info.family == HIPSOFTMAX_FAMILY_WARP &&
                       (cases[i].half ? info.group_width * 2 <= warp : info.group_width == warp);
        if (!ok) {
            fprintf(stderr, "4096x%lld (dtype %d, log %d): %s, %d lanes a row on a warp of %d\n", cases[i].cols,
                    (int)cases[i].dt, cases[i].log, info.kernel, info.group_width, warp);
            failures++;
        }
    }
}

/* The plan of an fp32 problem of the row-plan tests: rows x cols, rows `stride` apart; log-softmax;
 * bwd: the backward with alpha/beta (the plain backward takes WARP's packed kernels). */
static hipsoftmax_plan_info fp32_plan_of(hipsoftmax_handle h, long long rows, long long cols, long long stride,
                                         int log, int bwd)
{
    hipsoftmax_problem p;
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, rows, cols);
    p.x_row_stride = p.y_row_stride = stride;
    if (log)
        p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
    if (bwd)
        p.alpha = 0.5f, p.beta = 0.5f;
    EXPECT_STATUS(bwd ? hipsoftmax_get_backward_plan(h, &p, &info) : hipsoftmax_get_plan(h, &p, &info),
                  HIPSOFTMAX_STATUS_SUCCESS);
    return info;
}

/* ROW's fp32 plain forward and log-softmax on rows of 513-1024 columns (plan.c's plan_row): a warp a
 * row (32 values a lane) where the rows give every SM/CU HSM_ROW_WARP_A_ROW_WARPS warps (65536 rows
 * are past that on every target), two warps of 16 values on fewer (1024 rows are short of it on every
 * target; rows on 16 bytes under 32 MB go to WARP's _v8 on 32-lane warps, test_warp_f32_wide_plan, so
 * rows off 16 bytes here: 781 columns, dense, which take the peeled twins alike). The backward keeps
 * blocks of at least 64 threads (one with alpha/beta here: the plain backward takes WARP's packed
 * kernels, test_packed_bwd_plan). A 64-lane wave is the least block either way. */
static void test_row_warp_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        long long rows, cols;
        int log, bwd, block_nv; /* the block expected on 32-lane warps */
    } cases[] = {{65536, 1024, 0, 0, 32}, {65536, 1024, 1, 0, 32}, {65536, 520, 0, 0, 32},
                 {65536, 781, 0, 0, 32},  {65536, 781, 1, 0, 32},  {1024, 781, 0, 0, 64},
                 {1024, 781, 1, 0, 64},   {65536, 1024, 0, 1, 64}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const hipsoftmax_plan_info info =
            fp32_plan_of(h, cases[i].rows, cases[i].cols, cases[i].cols, cases[i].log, cases[i].bwd);
        const int want = warp == 32 ? cases[i].block_nv : 64;
        if (info.family != HIPSOFTMAX_FAMILY_ROW || info.block != want) {
            fprintf(stderr, "fp32 %lldx%lld (log %d, bwd %d): %s, family %d, %d threads a row, want %d\n",
                    cases[i].rows, cases[i].cols, cases[i].log, cases[i].bwd, info.kernel, (int)info.family,
                    info.block, want);
            failures++;
        }
    }
}

/* fp32's plain forward and log-softmax on rows of 513-1024 columns on 16 bytes (src/plan.c's
 * plan_auto): WARP's _v8 and _v8_log (a row a warp of 32 lanes) at any row count where the input is
 * under 32 MB, on 32-lane warps only; ROW otherwise: 32 MB or more, rows off 16 bytes (dense 781
 * columns, 1024 columns 1025 apart), the backward, 64-lane waves. */
static void test_warp_f32_wide_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        long long rows, cols, stride;
        int log, bwd, warp_nv; /* whether 32-lane warps take WARP */
    } cases[] = {{4096, 1024, 1024, 0, 0, 1}, {4096, 1024, 1024, 1, 0, 1}, {4096, 520, 520, 0, 0, 1},
                 {8191, 1024, 1024, 0, 0, 1}, {8192, 1024, 1024, 0, 0, 0}, {2048, 1024, 1024, 0, 0, 1},
                 {4096, 781, 781, 0, 0, 0},   {4096, 1024, 1025, 0, 0, 0}, {4096, 1024, 1024, 0, 1, 0},
                 {4096, 781, 781, 1, 0, 0},   {8192, 1024, 1024, 1, 0, 0}, {2048, 1024, 1024, 1, 0, 1},
                 {1024, 1024, 1024, 0, 0, 1}, {1024, 1024, 1024, 1, 0, 1}, {1, 1024, 1024, 0, 0, 1},
                 {128, 768, 768, 1, 0, 1},    {256, 520, 520, 0, 0, 1},    {1024, 1024, 1025, 0, 0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const hipsoftmax_plan_info info =
            fp32_plan_of(h, cases[i].rows, cases[i].cols, cases[i].stride, cases[i].log, cases[i].bwd);
        const int want_warp = warp == 32 && cases[i].warp_nv;
        const int ok = want_warp ? info.family == HIPSOFTMAX_FAMILY_WARP && strstr(info.kernel, "_v8") != NULL &&
                                       info.group_width == 32 &&
                                       (strstr(info.kernel, "_log") != NULL) == (cases[i].log != 0)
                                 : info.family == HIPSOFTMAX_FAMILY_ROW;
        if (!ok) {
            fprintf(stderr, "fp32 %lldx%lld stride %lld (log %d, bwd %d): %s, family %d, want %s\n", cases[i].rows,
                    cases[i].cols, cases[i].stride, cases[i].log, cases[i].bwd, info.kernel, (int)info.family,
                    want_warp ? "WARP's _v8" : "ROW");
            failures++;
        }
    }
}

/* The plan of a backward problem in the packed-backward plan tests, of a variant: 0 plain, 1
 * log-softmax, 2 scale, 3 alpha/beta, 4 fp32 dy, 5 bf16 dx (fp32 y), 6 statistics given. */
static hipsoftmax_plan_info bwd_plan_of(hipsoftmax_handle h, hipsoftmax_dtype dt, long long rows, long long cols,
                                        int variant)
{
    static float records[8] __attribute__((aligned(16)));
    hipsoftmax_problem p;
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    hipsoftmax_problem_init(&p, dt, rows, cols);
    switch (variant) {
    case 1: p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX; break;
    case 2: p.scale = 0.125f; break;
    case 3: p.alpha = 2.0f, p.beta = 0.5f; break;
    case 4: p.dy_dtype = HIPSOFTMAX_DTYPE_F32; break;
    case 5: p.x_dtype = HIPSOFTMAX_DTYPE_BF16; break;
    case 6: p.stats_in = records; break;
    default: break;
    }
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    return info;
}

/* WARP's packed backward (plan.c's plan_auto): the plain backward (dy and dx in y's dtype, no
 * alpha/beta, no statistics; scale and log-softmax allowed) of rows on 16 bytes of up to 4 KB that
 * need the whole warp: p16 on 32 lanes for 257-512 columns, p32 for 513-1024, on 64 lanes 513-1024
 * and 1025-2048; any other backward of those rows, and rows it does not take, another kernel. It does
 * not loop over rows: past 2^24 blocks of 128 threads (2^26 rows on 32 lanes, 2^25 on 64) the rows
 * take another kernel. */
static void test_packed_bwd_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols;
        int variant; /* bwd_plan_of's */
        int want;    /* packed values a lane expected on 32 lanes (0: not the packed kernels) */
        int want64;  /* the same on 64 lanes */
    } cases[] = {{HIPSOFTMAX_DTYPE_BF16, 4096, 1024, 0, 32, 16}, {HIPSOFTMAX_DTYPE_BF16, 4096, 1024, 1, 32, 16},
                 {HIPSOFTMAX_DTYPE_F16, 4096, 512, 2, 16, 0},    {HIPSOFTMAX_DTYPE_F32, 4096, 1024, 0, 32, 16},
                 {HIPSOFTMAX_DTYPE_F32, 65536, 304, 1, 16, 0},   {HIPSOFTMAX_DTYPE_BF16, 64, 768, 0, 32, 16},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 2048, 0, 0, 32},  {HIPSOFTMAX_DTYPE_F32, 4096, 2048, 0, 0, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 256, 0, 0, 0},    {HIPSOFTMAX_DTYPE_BF16, 4096, 1000, 0, 32, 16},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 1020, 0, 0, 0},   {HIPSOFTMAX_DTYPE_BF16, 4096, 1024, 3, 0, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 1024, 4, 0, 0},   {HIPSOFTMAX_DTYPE_F32, 4096, 1024, 5, 0, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 1024, 6, 0, 0},   {HIPSOFTMAX_DTYPE_BF16, 1LL << 26, 1024, 0, 32, 0},
                 {HIPSOFTMAX_DTYPE_BF16, (1LL << 26) + 1, 1024, 0, 0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const hipsoftmax_plan_info info = bwd_plan_of(h, cases[i].dt, cases[i].rows, cases[i].cols, cases[i].variant);
        const int want = warp == 32 ? cases[i].want : cases[i].want64;
        char name[64] = "";
        if (want != 0)
            snprintf(name, sizeof name, "_p%d_bwd", want);
        const int packed = info.family == HIPSOFTMAX_FAMILY_WARP &&
                           (strstr(info.kernel, "_p16_bwd") != NULL || strstr(info.kernel, "_p32_bwd") != NULL);
        if (want != 0 ? info.family != HIPSOFTMAX_FAMILY_WARP || strstr(info.kernel, name) == NULL ||
                            info.group_width != warp
                      : packed) {
            fprintf(stderr, "backward %lldx%lld (dtype %d, variant %d): %s on %d lanes, want %s\n", cases[i].rows,
                    cases[i].cols, (int)cases[i].dt, cases[i].variant, info.kernel, info.group_width,
                    want != 0 ? name : "another kernel");
            failures++;
        }
    }
}

/* ROW's packed backward (plan.c's plan_auto and plan_row_packed): the plain backward of rows on 16
 * bytes longer than a warp of 32 values a lane holds, up to 16 KB, on rows many enough (2 an SM/CU): a
 * block a row of the least chunk whose block has at most 256 threads, the grid the rows; on 32-lane
 * targets 16-bit rows of more than 24 KB (more than three quarters of its block), up to 32 KB, on
 * _p32_b512 (blocks of 512 always); any other backward of those rows, rows past that, few rows, and
 * grids past 2^31 threads, another kernel. */
static void test_row_packed_bwd_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols;
        int variant; /* bwd_plan_of's */
        int want;    /* the chunk expected (0: not these kernels), 32 lanes; 512: _p32_b512 (64 lanes: none) */
        int block;   /* its block on 32 lanes (64: rounded to 64 lanes) */
    } cases[] = {{HIPSOFTMAX_DTYPE_BF16, 4096, 4096, 0, 16, 256},  {HIPSOFTMAX_DTYPE_BF16, 4096, 4096, 1, 16, 256},
                 {HIPSOFTMAX_DTYPE_F16, 4096, 4096, 2, 16, 256},   {HIPSOFTMAX_DTYPE_BF16, 4096, 2048, 0, 16, 128},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 1544, 0, 16, 128},  {HIPSOFTMAX_DTYPE_BF16, 4096, 8192, 0, 32, 256},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 8200, 0, 0, 0},     {HIPSOFTMAX_DTYPE_BF16, 4096, 16384, 0, 512, 512},
                 {HIPSOFTMAX_DTYPE_F16, 4096, 16384, 1, 512, 512}, {HIPSOFTMAX_DTYPE_BF16, 4096, 16392, 0, 0, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 8, 16384, 0, 0, 0},       {HIPSOFTMAX_DTYPE_BF16, 4096, 12296, 0, 512, 512},
                 {HIPSOFTMAX_DTYPE_F32, 4096, 2048, 0, 8, 256},    {HIPSOFTMAX_DTYPE_F32, 4096, 4096, 1, 16, 256},
                 {HIPSOFTMAX_DTYPE_F32, 4096, 4104, 0, 0, 0},      {HIPSOFTMAX_DTYPE_F32, 4096, 8192, 0, 0, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 12288, 0, 0, 0},    {HIPSOFTMAX_DTYPE_BF16, 4096, 4096, 3, 0, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 4096, 4, 0, 0},     {HIPSOFTMAX_DTYPE_BF16, 4096, 4096, 6, 0, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 8, 4096, 0, 0, 0},        {HIPSOFTMAX_DTYPE_BF16, 4096, 1024, 0, 0, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 1LL << 23, 4096, 0, 16, 256},
                 {HIPSOFTMAX_DTYPE_BF16, (1LL << 23) + 1, 4096, 0, 0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const hipsoftmax_plan_info info = bwd_plan_of(h, cases[i].dt, cases[i].rows, cases[i].cols, cases[i].variant);
        /* On 64 lanes a warp of 32 values holds 2048 columns (WARP's packed kernels take them) */
        int want = cases[i].want;
        if (warp == 64 && (cases[i].cols <= 2048 || want == 512))
            want = 0;
        const int block = (cases[i].block + warp - 1) / warp * warp;
        char name[64] = "";
        if (want != 0)
            snprintf(name, sizeof name, want == 512 ? "_p32_b512_bwd" : "_p%d_bwd", want);
        const int row_packed = info.family == HIPSOFTMAX_FAMILY_ROW && strstr(info.kernel, "_p") != NULL &&
                               strstr(info.kernel, "_bwd") != NULL && strstr(info.kernel, "_peel") == NULL;
        if (want != 0 ? !row_packed || strstr(info.kernel, name) == NULL || info.block != block ||
                            info.grid != cases[i].rows
                      : row_packed) {
            fprintf(stderr, "backward %lldx%lld (dtype %d, variant %d): %s, %d threads, grid %d; want %s\n",
                    cases[i].rows, cases[i].cols, (int)cases[i].dt, cases[i].variant, info.kernel, info.block,
                    info.grid, want != 0 ? name : "another kernel");
            failures++;
        }
    }
}

/* Rows on which ROW leaves one block a SM/CU, under 88 KiB (16-bit) or 84 KiB (fp32) (plan.c's
 * HSM_ROW_ALONE_ROWS_PER_CU): ROW where there are 16 rows a SM or more (65536 rows: past the bound on
 * every target), SPLIT's one block a row on fewer. On 32-lane targets (NVIDIA) also: 1024 rows, short
 * of the bound, on SPLIT (on CDNA's offline targets ROW keeps them, the rule's other terms unmet); 4096
 * rows, past it, on ROW; 16-bit rows of 32776-36864 columns, which ROW's p64 (held to 56 registers)
 * serves with two blocks a SM whatever the rows, on p64 at 1024 rows too; their log-softmax on ROW's
 * _log kernels. */
static void test_row_alone_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols;
        int log, warp32; /* warp32: on 32-lane targets only */
        hipsoftmax_family want;
        const char *kernel; /* or NULL: any */
        int block;
    } cases[] = {{HIPSOFTMAX_DTYPE_BF16, 65536, 40960, 0, 0, HIPSOFTMAX_FAMILY_ROW, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F32, 65536, 20000, 0, 0, HIPSOFTMAX_FAMILY_ROW, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F32, 65536, 18432, 1, 0, HIPSOFTMAX_FAMILY_ROW, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 1024, 40960, 0, 1, HIPSOFTMAX_FAMILY_SPLIT, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F32, 1024, 20000, 0, 1, HIPSOFTMAX_FAMILY_SPLIT, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F32, 4096, 16388, 0, 1, HIPSOFTMAX_FAMILY_ROW, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 45048, 0, 1, HIPSOFTMAX_FAMILY_ROW, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 32776, 1, 1, HIPSOFTMAX_FAMILY_ROW, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 1024, 32776, 0, 1, HIPSOFTMAX_FAMILY_ROW, "hsm_row_bf16_p64", 544},
                 {HIPSOFTMAX_DTYPE_F16, 4096, 36864, 0, 1, HIPSOFTMAX_FAMILY_ROW, "hsm_row_f16_p64", 576}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].warp32 && warp != 32)
            continue;
        hipsoftmax_problem p;
        hipsoftmax_plan_info info = {.struct_size = sizeof info};
        hipsoftmax_problem_init(&p, cases[i].dt, cases[i].rows, cases[i].cols);
        if (cases[i].log)
            p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
        const int block_ok =
            cases[i].kernel == NULL || (strcmp(info.kernel, cases[i].kernel) == 0 && info.block == cases[i].block);
        if (info.family != cases[i].want || !block_ok || (cases[i].log && !log_kernel(info.kernel))) {
            fprintf(stderr, "%lldx%lld (dtype %d, log %d): %s, %d threads, grid %d; want family %d %s\n", cases[i].rows,
                    cases[i].cols, (int)cases[i].dt, cases[i].log, info.kernel, info.block, info.grid,
                    (int)cases[i].want, cases[i].kernel != NULL ? cases[i].kernel : "");
            failures++;
        }
    }
}

/* Whether the handle plans for sm_90, the target whose SM count and registers the cases below that
 * name it are sized for (the H200 measured). */
static int on_sm90(hipsoftmax_handle h)
{
    char target[32] = "";
    EXPECT_STATUS(hipsoftmax_get_target(h, target, sizeof target), HIPSOFTMAX_STATUS_SUCCESS);
    return strcmp(target, "sm_90") == 0;
}

/* ROW's 16-bit plain forward on 32-lane targets where the chunk picked would leave more than a quarter
 * of its block's columns idle (plan.c's row_fewer_idle): the chunk of a block no larger that leaves the
 * fewest (2056 columns: p40 on 64 threads, not p64; 4104: p48 on 96); peeled rows up to 7 columns
 * past a chunk fill it (plan.c's row_block: 4097 on p64's 64 threads, 2049 on 64 of 32 values, p32's
 * _stage twin where x and y lie at different offsets, test_shift16_plan); the rows a
 * power-of-two chunk fills as before (2048: v32, 3072 and 4096: p64); the log-softmax as before (its
 * _log kernels of ROW, none of p40 or p48). 64-lane targets: no such case asserted. */
static void test_row_idle_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long cols, x_pad;
        int log;
        const char *kernel; /* on 32-lane targets */
        int block;
    } cases[] = {{HIPSOFTMAX_DTYPE_BF16, 2056, 0, 0, "hsm_row_bf16_p40", 64},
                 {HIPSOFTMAX_DTYPE_F16, 2560, 0, 0, "hsm_row_f16_p40", 64},
                 {HIPSOFTMAX_DTYPE_BF16, 2816, 0, 0, "hsm_row_bf16_p48", 64},
                 {HIPSOFTMAX_DTYPE_F16, 4104, 0, 0, "hsm_row_f16_p48", 96},
                 {HIPSOFTMAX_DTYPE_BF16, 2049, 1, 0, "hsm_row_bf16_p32_stage", 64},
                 {HIPSOFTMAX_DTYPE_BF16, 4097, 0, 0, "hsm_row_bf16_p64_peel", 64},
                 {HIPSOFTMAX_DTYPE_BF16, 2048, 0, 0, "hsm_row_bf16_v32", 64},
                 {HIPSOFTMAX_DTYPE_BF16, 3072, 0, 0, "hsm_row_bf16_p64", 64},
                 {HIPSOFTMAX_DTYPE_F16, 4096, 0, 0, "hsm_row_f16_p64", 64},
                 {HIPSOFTMAX_DTYPE_BF16, 2056, 0, 1, "hsm_row_bf16_p64_log", 64}};
    if (warp != 32)
        return;
    const int sm90 = on_sm90(h);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hipsoftmax_problem p;
        hipsoftmax_plan_info info = {.struct_size = sizeof info};
        /* p32's _stage twin on sm_90 only (test_shift16_plan says why) */
        const char *want = strstr(cases[i].kernel, "p32_stage") != NULL && !sm90
                               ? "hsm_row_bf16_p32_shift"
                               : cases[i].kernel;
        hipsoftmax_problem_init(&p, cases[i].dt, 4096, cases[i].cols);
        p.x_row_stride = cases[i].cols + cases[i].x_pad;
        if (cases[i].log)
            p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
        if (strcmp(info.kernel, want) != 0 || info.block != cases[i].block) {
            fprintf(stderr, "4096x%lld (dtype %d, x stride %lld, log %d): %s, %d threads; want %s, %d\n", cases[i].cols,
                    (int)cases[i].dt, (long long)p.x_row_stride, cases[i].log, info.kernel, info.block, want,
                    cases[i].block);
            failures++;
        }
    }
}

/* WARP's 16-bit rows of at most 256 columns on 16 bytes where rows are many enough (262144: past
 * plan.c's fewer_lanes bound on every target): two packs a lane where one pack would take 16 lanes or
 * more; on the plain forward and log-softmax four where that takes fewer lane passes a row (80 and 192
 * columns, not 128; 320, not 448) on tensors past 32 MB, or on 64-lane targets, the forward with
 * options and the backward no more than two; 64 columns (8 lanes of one) and few rows as before.
 * fp32's forward with options and backward likewise (a pack of four: 128 columns on 16 lanes of two,
 * not 256 on 16 of four); its plain forward keeps its own rule (test_two_rows_plan). The peeled kernels (rows off 16 bytes at x's and y's same offsets: every
 * stride cols + pad) the first step, every dtype; 16-bit rows of 64 columns or more on rows many
 * enough (plan.c's scalar16_fewer) take the scalar kernels instead, which there pass over the whole
 * warp to 8 values a lane (the plain forward and log-softmax; 2048 rows keep 32 lanes). */
static void test_fewer_lanes_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols;
        int log, scaled, bwd;
        const char *want; /* the kernel's name after hsm_warp_<dtype>_ */
        int lanes, pad;
        const char *want64; /* on 64-lane waves where it differs, else NULL */
        int lanes64;
    } cases[] = {{HIPSOFTMAX_DTYPE_F16, 262144, 80, 0, 0, 0, "v4", 4, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 80, 1, 0, 0, "v4_log", 4, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 128, 0, 0, 0, "v2", 8, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F16, 262144, 192, 0, 0, 0, "v4", 8, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F16, 262144, 192, 1, 0, 0, "v4_log", 8, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F16, 262144, 256, 1, 0, 0, "v2_log", 16, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 64, 0, 0, 0, "v1", 8, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F16, 1024, 128, 0, 0, 0, "v1", 16, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 80, 0, 1, 0, "v2_fwd", 8, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F16, 262144, 192, 0, 1, 0, "v2_fwd", 16, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F16, 262144, 80, 0, 0, 1, "v2_bwd", 8, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 256, 0, 0, 1, "v2_bwd", 16, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 64, 0, 0, 1, "v1_bwd", 8, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F16, 1024, 128, 0, 1, 0, "v1_fwd", 16, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F32, 262144, 128, 0, 1, 0, "v2_fwd", 16, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F32, 262144, 64, 0, 0, 1, "v2_bwd", 8, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F32, 262144, 256, 0, 1, 0, "v2_fwd", 32, 0, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F32, 262144, 77, 0, 0, 0, "v2_peel", 16, 3, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F16, 262144, 33, 0, 0, 0, "v1_peel", 8, 1, NULL, 0},
                 {HIPSOFTMAX_DTYPE_F16, 1024, 77, 0, 0, 0, "v1_peel", 16, 1, NULL, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 200, 0, 0, 0, "s8", 32, 1, NULL, 0},
                 /* 64-lane waves: these rows take half the wave at most, which the rule leaves */
                 {HIPSOFTMAX_DTYPE_F16, 262144, 77, 0, 0, 0, "s8", 16, 1, "s4", 32},
                 {HIPSOFTMAX_DTYPE_F16, 262144, 77, 1, 0, 0, "s8_log", 16, 1, "s4_log", 32},
                 {HIPSOFTMAX_DTYPE_F16, 262144, 33, 1, 0, 0, "s4_log", 16, 1, "s2_log", 32},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 127, 0, 0, 0, "s8", 16, 1, "s4", 32},
                 {HIPSOFTMAX_DTYPE_BF16, 2048, 127, 0, 0, 0, "s4", 32, 1, "s2", 64},
                 /* 16-bit rows of 257-512 columns on 16 bytes: 16 lanes of four packs where that takes
                  * fewer lane passes than 32 of two (not 448); 64-lane waves keep one pack a lane */
                 {HIPSOFTMAX_DTYPE_F16, 262144, 320, 0, 0, 0, "v4", 16, 0, "v1", 64},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 384, 1, 0, 0, "v4_log", 16, 0, "v1_log", 64},
                 {HIPSOFTMAX_DTYPE_F16, 262144, 448, 0, 0, 0, "v2", 32, 0, "v1", 64},
                 /* tensors of up to 32 MB: two packs on 32-lane targets (held to 32 registers) */
                 {HIPSOFTMAX_DTYPE_F16, 131072, 80, 0, 0, 0, "v2", 8, 0, "v4", 4},
                 {HIPSOFTMAX_DTYPE_BF16, 131072, 80, 1, 0, 0, "v2_log", 8, 0, "v4_log", 4},
                 {HIPSOFTMAX_DTYPE_F16, 8192, 320, 0, 0, 0, "v2", 32, 0, "v1", 64},
                 /* 129-256 columns on fewer rows: two packs on 16 lanes from 10 warps a SM on them
                  * (32-lane targets; 64-lane waves keep one pack a lane), not at 2048 rows */
                 {HIPSOFTMAX_DTYPE_F16, 4096, 256, 0, 0, 0, "v2", 16, 0, "v1", 32},
                 {HIPSOFTMAX_DTYPE_BF16, 3072, 192, 1, 0, 0, "v2_log", 16, 0, "v1_log", 32},
                 {HIPSOFTMAX_DTYPE_F16, 2048, 256, 0, 0, 0, "v1", 32, 0, NULL, 0},
                 /* 16-bit rows on 8 bytes, not 16 (the _h kernels): half the warp where a row would
                  * take it all and the rows fill every SM/CU, dense or padded to 8 bytes */
                 {HIPSOFTMAX_DTYPE_F16, 262144, 300, 0, 0, 0, "h8", 16, 0, "h4", 32},
                 {HIPSOFTMAX_DTYPE_F16, 262144, 300, 0, 0, 0, "h8", 16, 4, "h4", 32},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 100, 1, 0, 0, "h2_log", 16, 0, "h1_log", 32},
                 {HIPSOFTMAX_DTYPE_F16, 1024, 300, 0, 0, 0, "h4", 32, 0, "h2", 64},
                 /* on 4 bytes, not 8 (the _q kernels): as few lanes as hold the row */
                 {HIPSOFTMAX_DTYPE_F16, 262144, 302, 0, 0, 0, "q8", 32, 0, "q4", 64},
                 {HIPSOFTMAX_DTYPE_BF16, 262144, 302, 1, 0, 0, "q8_log", 32, 2, "q4_log", 64},
                 /* dense such rows of 65-256 columns: on half the lanes that would hold them, where
                  * the rows fill every SM (32-lane targets; 64-lane ones keep the staged kernels) */
                 {HIPSOFTMAX_DTYPE_F16, 65536, 98, 0, 0, 0, "q4", 16, 0, "flat_w8", 8},
                 {HIPSOFTMAX_DTYPE_BF16, 65536, 98, 1, 0, 0, "q4_log", 16, 0, "flat_w8_log", 8},
                 {HIPSOFTMAX_DTYPE_F16, 65536, 130, 0, 0, 0, "q8", 16, 0, "flat_w16", 16}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hipsoftmax_problem p;
        hipsoftmax_plan_info info = {.struct_size = sizeof info};
        hipsoftmax_problem_init(&p, cases[i].dt, cases[i].rows, cases[i].cols);
        if (cases[i].log)
            p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
        if (cases[i].scaled)
            p.scale = 0.5f;
        p.x_row_stride = p.y_row_stride = cases[i].cols + cases[i].pad;
        EXPECT_STATUS(cases[i].bwd ? hipsoftmax_get_backward_plan(h, &p, &info) : hipsoftmax_get_plan(h, &p, &info),
                      HIPSOFTMAX_STATUS_SUCCESS);
        const int wide = warp == 64 && cases[i].want64 != NULL;
        const int lanes = wide ? cases[i].lanes64 : cases[i].lanes;
        char want[64];
        snprintf(want, sizeof want, "hsm_warp_%s_%s",
                 cases[i].dt == HIPSOFTMAX_DTYPE_F16 ? "f16" : cases[i].dt == HIPSOFTMAX_DTYPE_BF16 ? "bf16" : "f32",
                 wide ? cases[i].want64 : cases[i].want);
        if (info.family != HIPSOFTMAX_FAMILY_WARP || strcmp(info.kernel, want) != 0 || info.group_width != lanes) {
            fprintf(stderr, "%lldx%lld (dtype %d, log %d, scaled %d, bwd %d): %s on %d lanes, expected %s on %d\n",
                    cases[i].rows, cases[i].cols, (int)cases[i].dt, cases[i].log, cases[i].scaled, cases[i].bwd,
                    info.kernel, info.group_width, want, lanes);
            failures++;
        }
    }
}

/* The packs of WARP's _h or _q kernel k (hsm_warp_<dtype>_<h|q><N>[_log]): 8 or 4 bytes, else 0. */
static int sub_kernel(const char *k)
{
    const char *u = strncmp(k, "hsm_warp_", 9) == 0 ? strchr(k + 9, '_') : NULL;
    if (u == NULL || u[2] < '1' || u[2] > '9')
        return 0;
    return u[1] == 'h' ? 8 : u[1] == 'q' ? 4 : 0;
}

/* WARP's _h and _q kernels (plan.c's sub_pack_bytes) take only the plain forward's and log-softmax's
 * 16-bit rows that lie whole in packs of 8 (or else 4) bytes and not all in 16, of 65-512 (_q:
 * 257-512, and on 32-lane targets dense rows of 65-256 too where they fill the GPU: 65536 rows do)
 * columns; a forced one any rows its packs allow, and no others. */
static void test_sub_pack_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long cols, stride;
        int scaled, want; /* want: the packs' bytes of the _h or _q kernel expected, or 0 */
        int want32;       /* on 32-lane targets where it differs, else 0 */
    } cases[] = {{HIPSOFTMAX_DTYPE_F16, 300, 300, 0, 8, 0},  {HIPSOFTMAX_DTYPE_BF16, 508, 512, 0, 8, 0},
                 {HIPSOFTMAX_DTYPE_F16, 68, 68, 0, 8, 0},    {HIPSOFTMAX_DTYPE_F16, 300, 301, 0, 0, 0},
                 {HIPSOFTMAX_DTYPE_F16, 304, 304, 0, 0, 0},  {HIPSOFTMAX_DTYPE_F16, 60, 60, 0, 0, 0},
                 {HIPSOFTMAX_DTYPE_F16, 516, 516, 0, 0, 0},  {HIPSOFTMAX_DTYPE_F32, 300, 300, 0, 0, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 300, 300, 1, 0, 0}, {HIPSOFTMAX_DTYPE_F16, 302, 302, 0, 4, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 258, 258, 0, 4, 0}, {HIPSOFTMAX_DTYPE_F16, 300, 302, 0, 4, 0},
                 {HIPSOFTMAX_DTYPE_F16, 302, 303, 0, 0, 0},  {HIPSOFTMAX_DTYPE_F16, 62, 62, 0, 0, 0},
                 {HIPSOFTMAX_DTYPE_F16, 254, 254, 0, 0, 4},
                 {HIPSOFTMAX_DTYPE_F16, 66, 66, 0, 0, 4}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hipsoftmax_problem p;
        hipsoftmax_plan_info info = {.struct_size = sizeof info};
        hipsoftmax_problem_init(&p, cases[i].dt, 65536, cases[i].cols);
        p.x_row_stride = p.y_row_stride = cases[i].stride;
        if (cases[i].scaled)
            p.scale = 0.5f;
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
        const int want = warp == 32 && cases[i].want32 != 0 ? cases[i].want32 : cases[i].want;
        if (sub_kernel(info.kernel) != want) {
            fprintf(stderr, "65536x%lld stride %lld (dtype %d, scaled %d): %s\n", cases[i].cols, cases[i].stride,
                    (int)cases[i].dt, cases[i].scaled, info.kernel);
            failures++;
        }
    }
    /* Forced: rows on 16 bytes served; _h rows on 4 bytes refused, _q ones served; rows off 4 bytes
     * refused. */
    hipsoftmax_problem p;
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "hsm_warp_f16_h8"), HIPSOFTMAX_STATUS_SUCCESS);
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F16, 4096, 512);
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(strcmp(info.kernel, "hsm_warp_f16_h8") == 0);
    p.x_row_stride = p.y_row_stride = 514; /* rows on 4 bytes */
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "hsm_warp_f16_q16"), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(strcmp(info.kernel, "hsm_warp_f16_q16") == 0);
    p.x_row_stride = p.y_row_stride = 513;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_set_kernel(h, NULL), HIPSOFTMAX_STATUS_SUCCESS);
}

/* Few rows (64: fewer than two a CU/SM on every target) of up to 64 KB of x take ROW, a block a row, in
 * every call but those reading each row once (plan.c's HSM_FEW_ROWS_ROW_MAX_BYTES): the plain
 * softmax, the log-softmax on ROW's _log kernel, scale and mixed dtypes, and the backward where ROW's
 * backward holds the row; longer rows keep SPLIT. */
static void test_few_rows_plan(hipsoftmax_handle h)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long cols;
        hipsoftmax_family want, want_bwd; /* ROW's backward holds 16384 columns, 32768 in 16 bits with
                                             dy in y's dtype (below, dy in fp32: SPLIT) */
    } cases[] = {{HIPSOFTMAX_DTYPE_F32, 4096, HIPSOFTMAX_FAMILY_ROW, HIPSOFTMAX_FAMILY_ROW},
                 {HIPSOFTMAX_DTYPE_F32, 12344, HIPSOFTMAX_FAMILY_ROW, HIPSOFTMAX_FAMILY_ROW},
                 {HIPSOFTMAX_DTYPE_F32, 16384, HIPSOFTMAX_FAMILY_ROW, HIPSOFTMAX_FAMILY_ROW},
                 {HIPSOFTMAX_DTYPE_F32, 16392, HIPSOFTMAX_FAMILY_SPLIT, HIPSOFTMAX_FAMILY_SPLIT},
                 {HIPSOFTMAX_DTYPE_BF16, 32768, HIPSOFTMAX_FAMILY_ROW, HIPSOFTMAX_FAMILY_ROW},
                 {HIPSOFTMAX_DTYPE_BF16, 65536, HIPSOFTMAX_FAMILY_SPLIT, HIPSOFTMAX_FAMILY_SPLIT}};
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int v = 0; v < 4; v++) { /* plain, log-softmax, scale, the other output dtype */
            hipsoftmax_problem p;
            hipsoftmax_problem_init(&p, cases[i].dt, 64, cases[i].cols);
            if (v == 1)
                p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
            if (v == 2)
                p.scale = 0.125f;
            if (v == 3)
                p.y_dtype = cases[i].dt == HIPSOFTMAX_DTYPE_F32 ? HIPSOFTMAX_DTYPE_BF16 : HIPSOFTMAX_DTYPE_F32;
            EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
            if (info.family != cases[i].want || (v == 1 && !log_kernel(info.kernel))) {
                fprintf(stderr, "few rows 64x%lld (%d): %s\n", cases[i].cols, v, info.kernel);
                failures++;
            }
        }
        /* The backward likewise where ROW's backward holds the row. */
        for (int v = 0; v < 3; v++) { /* plain, log-softmax, dy in fp32 */
            hipsoftmax_problem p;
            hipsoftmax_problem_init(&p, cases[i].dt, 64, cases[i].cols);
            if (v == 1)
                p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
            if (v == 2)
                p.dy_dtype = HIPSOFTMAX_DTYPE_F32;
            EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
            const int wide = cases[i].dt != HIPSOFTMAX_DTYPE_F32 && cases[i].cols > 16384 && v == 2;
            if (info.family != (wide ? HIPSOFTMAX_FAMILY_SPLIT : cases[i].want_bwd)) {
                fprintf(stderr, "few rows 64x%lld backward (%d): %s\n", cases[i].cols, v, info.kernel);
                failures++;
            }
        }
    }
}

/* SPLIT's held kernels for the plain forward of decode rows (plan.c's split_consider, prefer_held): rows
 * of 131072 columns or more that the held kernel holds whole in one round (every row's group resident
 * at once) take it on 32-lane targets, where the staged kernel's larger grid took them before; rows
 * whose groups do not fit one round (fp32 64 x 131072) keep the staged kernel. Rows on their 128-byte
 * line (the plan takes a problem's x at 256) take the held kernels' lean twins (_held_lean), rows
 * whose stride puts them off it (8 columns more) the held kernels; the plain log-softmax the same, on
 * their _log twins. Checked on sm_90, whose SM count the cases are sized for (the H200 measured);
 * elsewhere the plans need only succeed. */
static void test_decode_held_plan(hipsoftmax_handle h, int warp)
{
    const int sm90 = on_sm90(h), check = warp == 32 && sm90;
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols;
        int held; /* 1: a held kernel (32-lane targets), 0: not one */
    } cases[] = {{HIPSOFTMAX_DTYPE_F32, 8, 262144, 1},   {HIPSOFTMAX_DTYPE_F32, 4, 262144, 1},
                 {HIPSOFTMAX_DTYPE_F32, 16, 131072, 1},  {HIPSOFTMAX_DTYPE_F32, 32, 131072, 1},
                 {HIPSOFTMAX_DTYPE_F32, 1, 524288, 1},   {HIPSOFTMAX_DTYPE_BF16, 8, 262144, 1},
                 {HIPSOFTMAX_DTYPE_BF16, 64, 128256, 1}, {HIPSOFTMAX_DTYPE_F32, 64, 131072, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int v = 0; v < 4; v++) {
            const int pad = v % 2, log = v / 2;
            hipsoftmax_problem p;
            hipsoftmax_plan_info info = {.struct_size = sizeof info};
            hipsoftmax_problem_init(&p, cases[i].dt, cases[i].rows, cases[i].cols);
            if (pad)
                p.x_row_stride = p.y_row_stride = cases[i].cols + 8;
            if (log)
                p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
            EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
            const int held = info.family == HIPSOFTMAX_FAMILY_SPLIT && strstr(info.kernel, "_held") != NULL;
            const int lean = held && strstr(info.kernel, "_held_lean") != NULL;
            /* One row has no stride: on its line either way. */
            const int want_lean = cases[i].held && (!pad || cases[i].rows == 1);
            if (check && (held != cases[i].held || lean != want_lean)) {
                fprintf(stderr, "decode %lldx%lld (dtype %d, stride %lld, log %d): %s, grid %d, %d a row; want %s\n",
                        cases[i].rows, cases[i].cols, (int)cases[i].dt, (long long)p.x_row_stride, log, info.kernel,
                        info.grid, info.blocks_per_row,
                        want_lean ? "a lean held kernel" : cases[i].held ? "a held kernel" : "another kernel");
                failures++;
            }
        }
    }
}

/* ROW's _shift twins for a plain forward whose x rows lie at other offsets from 16 bytes than its y
 * rows (x stride cols + 1, y dense; plan.c's plan_peeled): fp32 rows of 10000 columns or more on any
 * number of rows, the twin being as resident as the peeled kernel on every target (their registers:
 * a twin that lost that on some target would show here); shorter fp32 rows, rows at the same offsets
 * (x dense too) and the forward with options never on a twin, the log-softmax never on a _shift one
 * (its _stage_log kernels: below). On 32-lane targets the _stage kernels (y through shared memory)
 * take the twins' rows where the peeled kernel keeps two blocks a SM or more, they keep as many with
 * the row's cols + 3 values of dynamic shared memory and
 * the rows give each resident block five or more: 4096 rows of 12344-12345 columns (416 threads) on
 * sm_80 and sm_90; not 128 rows of them, nor 30001 columns (960 threads, one block a SM). The
 * log-softmax of such rows (it has no _shift twins) takes the _stage_log twin of its peeled kernel
 * on 32-lane targets on rows of 10000 columns or more where the peeled kernel keeps one block a SM
 * or the rows give each resident block five or more: 4096 rows of 12344-12345 and 30001 columns; not
 * 128 rows of 12345, nor rows of 5001 and 8001 columns. */
static void test_shift_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        long long rows, cols;
        int x_pad, shift, stage, log_stage; /* x_pad: x stride cols + 1, y dense, else both dense; shift:
                                               a twin expected; stage: a _stage kernel on 32-lane
                                               targets; log_stage: a _stage_log one there */
    } cases[] = {{4096, 12345, 1, 1, 1, 1}, {4096, 12344, 1, 1, 1, 1}, {128, 12345, 1, 1, 0, 0},
                 {4096, 30001, 1, 1, 0, 1}, {8192, 5001, 1, 0, 0, 0},  {4096, 8001, 1, 0, 0, 0},
                 {4096, 12345, 0, 0, 0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int v = 0; v < 3; v++) { /* plain, log-softmax, scale */
            hipsoftmax_problem p;
            hipsoftmax_plan_info info = {.struct_size = sizeof info};
            hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, cases[i].rows, cases[i].cols);
            p.x_row_stride = cases[i].cols + cases[i].x_pad;
            if (v == 1)
                p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
            if (v == 2)
                p.scale = 0.5f;
            EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
            const int is_shift = strstr(info.kernel, "_shift") != NULL, is_stage = strstr(info.kernel, "_stage") != NULL;
            const int want_stage =
                warp == 32 && ((v == 0 && cases[i].shift && cases[i].stage) || (v == 1 && cases[i].log_stage));
            const int want_shift = v == 0 && cases[i].shift && !want_stage;
            const long long smem = want_stage ? (cases[i].cols + 3) * 4 : 0;
            if (is_shift != want_shift || is_stage != want_stage || ((is_shift || is_stage) && info.dynamic_smem != smem)) {
                fprintf(stderr, "fp32 %lldx%lld x stride %lld (%d): %s, %d bytes of dynamic shared memory\n",
                        cases[i].rows, cases[i].cols, (long long)p.x_row_stride, v, info.kernel, info.dynamic_smem);
                failures++;
            }
        }
    }
}

/* The plain log-softmax of rows whose x and y lie at different offsets from 16 bytes (x rows cols + 1
 * apart, y dense) takes the family the same rows take with x dense (odd rows at y's offsets): ROW's
 * peeled _log kernels (or fp32's _stage_log) where those take them, also past the 16384 columns ROW's
 * scalar kernels hold, where the forward with options' plan (its peeled twins need x and y at the same
 * offsets) is SPLIT's scalar kernels (plan.c's hsm_plan_get). On every target. */
static void test_log_shift_plan(hipsoftmax_handle h)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols;
    } cases[] = {{HIPSOFTMAX_DTYPE_BF16, 4096, 20001}, {HIPSOFTMAX_DTYPE_BF16, 4096, 50257},
                 {HIPSOFTMAX_DTYPE_BF16, 8, 30435},    {HIPSOFTMAX_DTYPE_F32, 4096, 20001},
                 {HIPSOFTMAX_DTYPE_F32, 128, 23834},   {HIPSOFTMAX_DTYPE_F32, 4096, 12345},
                 {HIPSOFTMAX_DTYPE_F16, 1024, 8963},   {HIPSOFTMAX_DTYPE_F32, 4096, 65537}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hipsoftmax_plan_info mis = {.struct_size = sizeof mis}, odd = {.struct_size = sizeof odd};
        hipsoftmax_problem p;
        hipsoftmax_problem_init(&p, cases[i].dt, cases[i].rows, cases[i].cols);
        p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &odd), HIPSOFTMAX_STATUS_SUCCESS);
        p.x_row_stride = cases[i].cols + 1;
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &mis), HIPSOFTMAX_STATUS_SUCCESS);
        if (mis.family != odd.family || (odd.family == HIPSOFTMAX_FAMILY_ROW && strstr(mis.kernel, "_log") == NULL)) {
            fprintf(stderr, "log-softmax dtype %d %lldx%lld: x stride cols + 1 %s (family %d), dense %s (family %d)\n",
                    (int)cases[i].dt, cases[i].rows, cases[i].cols, mis.kernel, (int)mis.family, odd.kernel,
                    (int)odd.family);
            failures++;
        }
    }
}

/* ROW's 16-bit _shift twins (plan.c's plan_peeled), x rows cols + 1 apart and y dense or the reverse,
 * on 32-lane targets: where the peeled kernel keeps two blocks a SM or more, the twins of p40 and p48
 * on any number of rows (2049-4097 columns: the peeled kernel's chunk; 3585 and 8193: in place of
 * p64's, on 96 and 192 threads), never p64's (whose twin spills: 9300 columns, where p48's would take
 * 224 threads, and 12345-30001 keep the peeled kernel); where it keeps one (50257 columns), the twin
 * on HSM_ROW_SHIFT_MIN_ROWS (16) rows a SM or more (4096 rows, not 264). p32's twin in place of the
 * v32 peeled kernel where the block leaves a quarter of its columns idle or fewer and the rows fill
 * every resident block (1793 and 2047 columns on 4096 and 16384 rows; not 1100, half idle, nor 1056
 * rows), on rows at the same offsets too (2049, 16384 x 1793; not 1153), where no other twin takes
 * them (4097: p64's peeled kernel). v16's has none (700), but p32's on one warp takes the rows it
 * holds with a quarter idle or fewer (769-1031 columns) on 24 warps a SM or more (4096 x 769 and
 * 1025, at any offsets; not 2048 rows). The log-softmax: never a twin.
 * In place of p40's and p48's twins the _stage twin of their chunk (y through shared memory, cols + 7
 * elements of it) where the rows are 1.5 times the blocks the SMs hold with it or more (4096 and 16384
 * rows; not 2700 rows of 2049 on the 132 SMs of an H100 or H200, 20 blocks each, nor 264 or 8);
 * likewise p32's where the row runs past its block's 32 columns a thread (4096 x 2049 on 64
 * threads, x or y apart), not where the block holds it (1793, 2047), on sm_90, where it keeps the
 * _shift twin's blocks a SM (41 registers against 60); not on sm_80 (59 against 54: plan.c's
 * bound); never p56's (50257). */
static void test_shift16_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols;
        int pad, shift; /* pad: 1 x stride cols + 1, 2 y stride cols + 1, 0 both dense; shift: 1 a
                           _shift twin on 32-lane targets, 2 a _stage twin, 3 a _stage twin on
                           sm_90 and a _shift twin on other 32-lane targets, 0 neither */
    } cases[] = {{HIPSOFTMAX_DTYPE_BF16, 4096, 2049, 1, 3},   {HIPSOFTMAX_DTYPE_F16, 4096, 2049, 2, 3},
                 {HIPSOFTMAX_DTYPE_F16, 264, 3001, 1, 1},     {HIPSOFTMAX_DTYPE_BF16, 8, 4097, 2, 1},
                 {HIPSOFTMAX_DTYPE_BF16, 16384, 4097, 1, 2},  {HIPSOFTMAX_DTYPE_BF16, 4096, 12345, 1, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 16384, 20001, 1, 0}, {HIPSOFTMAX_DTYPE_F16, 65536, 30001, 2, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 50257, 1, 1},  {HIPSOFTMAX_DTYPE_BF16, 264, 50257, 1, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 3585, 1, 2},   {HIPSOFTMAX_DTYPE_F16, 16384, 8193, 2, 2},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 9300, 1, 0},   {HIPSOFTMAX_DTYPE_BF16, 4096, 2049, 0, 1},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 1793, 1, 1},   {HIPSOFTMAX_DTYPE_F16, 16384, 2047, 2, 1},
                 {HIPSOFTMAX_DTYPE_F16, 4096, 1100, 1, 0},    {HIPSOFTMAX_DTYPE_BF16, 1056, 1793, 2, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 700, 1, 0},    {HIPSOFTMAX_DTYPE_BF16, 2700, 2049, 1, 1},
                 {HIPSOFTMAX_DTYPE_F16, 4096, 1025, 1, 1},    {HIPSOFTMAX_DTYPE_BF16, 4096, 769, 0, 1},
                 {HIPSOFTMAX_DTYPE_BF16, 2048, 1025, 1, 0},   {HIPSOFTMAX_DTYPE_F16, 16384, 1793, 0, 1},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 1153, 0, 0},   {HIPSOFTMAX_DTYPE_BF16, 4096, 4097, 0, 0}};
    const int sm90 = on_sm90(h);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int v = 0; v < 2; v++) { /* plain, log-softmax */
            hipsoftmax_problem p;
            hipsoftmax_plan_info info = {.struct_size = sizeof info};
            hipsoftmax_problem_init(&p, cases[i].dt, cases[i].rows, cases[i].cols);
            p.x_row_stride = cases[i].cols + (cases[i].pad == 1);
            p.y_row_stride = cases[i].cols + (cases[i].pad == 2);
            if (v == 1)
                p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
            EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
            const int kind = strstr(info.kernel, "_shift") != NULL ? 1 : strstr(info.kernel, "_stage") != NULL ? 2 : 0;
            const long long smem = kind == 2 ? (cases[i].cols + 7) * 2 : 0;
            const int want = cases[i].shift == 3 ? (sm90 ? 2 : 1) : cases[i].shift;
            if (v == 1 ? kind != 0
                       : (warp == 32 && kind != want) || (warp != 32 && (kind == 2 || (cases[i].pad == 0 && kind != 0))) ||
                             (kind != 0 && info.dynamic_smem != smem)) {
                fprintf(stderr, "dtype %d %lldx%lld x stride %lld y stride %lld (%d): %s, %d bytes of dynamic shared memory\n",
                        (int)cases[i].dt, cases[i].rows, cases[i].cols, (long long)p.x_row_stride,
                        (long long)p.y_row_stride, v, info.kernel, info.dynamic_smem);
                failures++;
            }
        }
    }
}

/* WARP's one-pass kernels (the plain forward's and log-softmax's but the peeled and staged ones): a
 * block for every block / group_width rows, at most 2^20 blocks a launch (src/plan.c's
 * HSM_WARP_ONCE_MAX_GRID; the launch covers the rest with more launches, kernel.warp_launches). */
static void test_warp_once_grid(hipsoftmax_handle h)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols, stride;
        int log_softmax;
    } cases[] = {{HIPSOFTMAX_DTYPE_F32, (1LL << 26) + 37, 2, 2, 0},
                 {HIPSOFTMAX_DTYPE_F32, (1LL << 26) + 5, 2, 3, 1},
                 {HIPSOFTMAX_DTYPE_BF16, (1LL << 26) + 61, 2, 3, 0},
                 {HIPSOFTMAX_DTYPE_F32, 4096, 256, 256, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 65536, 128, 128, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hipsoftmax_problem p;
        hipsoftmax_plan_info info = {.struct_size = sizeof info};
        hipsoftmax_problem_init(&p, cases[i].dt, cases[i].rows, cases[i].cols);
        p.x_row_stride = p.y_row_stride = cases[i].stride;
        if (cases[i].log_softmax)
            p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
        EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
        EXPECT(info.family == HIPSOFTMAX_FAMILY_WARP && info.group_width > 0);
        if (info.family != HIPSOFTMAX_FAMILY_WARP || info.group_width <= 0)
            continue;
        const long long groups = info.block / info.group_width, blocks = (cases[i].rows + groups - 1) / groups;
        const long long want = blocks < (1LL << 20) ? blocks : 1LL << 20;
        if (info.grid != want) {
            fprintf(stderr, "%lld x %lld stride %lld: %s grid %d, want %lld\n", cases[i].rows, cases[i].cols,
                    cases[i].stride, info.kernel, info.grid, want);
            failures++;
        }
    }
}

/* ROW's grid: a block a row where x is more than 16 MiB, in rows of 3 KiB or more, for the plain
 * forward and log-softmax (src/plan.c's HSM_ROW_PLAIN_A_ROW_MIN_BYTES and _ROW_BYTES), 32 MiB or more
 * (of y, dy and dx together for the backward) for the rest (HSM_BLOCK_A_ROW_MIN_BYTES), the blocks
 * the device holds at once below that; the same for ONLINE's full backward. a_row 2: a block a row on
 * 32-lane targets (the plain rule, measured there), resident on 64-lane ones. The 16-bit v32 peeled
 * kernel keeps the resident grid under 32 MiB (bf16 8192 x 1104); p32's _shift twin, which takes its
 * rows where the block leaves a quarter of its columns idle or fewer (x's and y's at the same offsets
 * too: 8192 x 1537), does not (8192 x 1793, x's rows 1794 apart). */
static void test_block_a_row_plan(hipsoftmax_handle h, int warp)
{
    static const struct {
        hipsoftmax_dtype dt;
        long long rows, cols;
        int bwd, scaled, a_row, xpad; /* xpad: x's rows cols + xpad apart, y dense */
    } cases[] = {{HIPSOFTMAX_DTYPE_F32, 4096, 4096, 0, 0, 1, 0},   {HIPSOFTMAX_DTYPE_BF16, 4096, 16384, 0, 0, 1, 0},
                 {HIPSOFTMAX_DTYPE_F32, 2048, 4096, 0, 0, 1, 0},   {HIPSOFTMAX_DTYPE_F32, 2047, 4096, 0, 0, 2, 0},
                 {HIPSOFTMAX_DTYPE_F32, 2560, 1600, 0, 0, 0, 0},   {HIPSOFTMAX_DTYPE_F32, 4096, 1028, 0, 0, 2, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 2048, 0, 0, 0, 0},  {HIPSOFTMAX_DTYPE_BF16, 4096, 2056, 0, 0, 2, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 1536, 0, 0, 0, 0},  {HIPSOFTMAX_DTYPE_BF16, 6000, 1536, 0, 0, 2, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 8192, 1104, 0, 0, 0, 0},  {HIPSOFTMAX_DTYPE_BF16, 8192, 1537, 0, 0, 2, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 8192, 1793, 0, 0, 2, 1},  {HIPSOFTMAX_DTYPE_F32, 4096, 1999, 0, 0, 2, 1},
                 {HIPSOFTMAX_DTYPE_F32, 2047, 4096, 0, 1, 0, 0},   {HIPSOFTMAX_DTYPE_F32, 2048, 4096, 0, 1, 1, 0},
                 {HIPSOFTMAX_DTYPE_F32, 4096, 4096, 1, 0, 1, 0},   {HIPSOFTMAX_DTYPE_BF16, 4096, 16384, 1, 0, 1, 0},
                 {HIPSOFTMAX_DTYPE_BF16, 4096, 1024, 1, 0, 0, 0}};
    int checked = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hipsoftmax_problem p;
        hipsoftmax_plan_info info = {.struct_size = sizeof info};
        hipsoftmax_problem_init(&p, cases[i].dt, cases[i].rows, cases[i].cols);
        p.x_row_stride = cases[i].cols + cases[i].xpad;
        if (cases[i].scaled)
            p.scale = 0.125f; /* the forward with options */
        EXPECT_STATUS(cases[i].bwd ? hipsoftmax_get_backward_plan(h, &p, &info) : hipsoftmax_get_plan(h, &p, &info),
                      HIPSOFTMAX_STATUS_SUCCESS);
        if (info.family != HIPSOFTMAX_FAMILY_ROW && info.family != HIPSOFTMAX_FAMILY_ONLINE)
            continue; /* another family's plan: its grid is not this rule's */
        checked++;
        const long long resident = (long long)info.blocks_per_cu * info.num_cus;
        const int a_row = cases[i].a_row == 2 ? warp == 32 : cases[i].a_row;
        const long long want = a_row ? cases[i].rows : (resident < cases[i].rows ? resident : cases[i].rows);
        if ((long long)info.grid != want) {
            fprintf(stderr, "%lldx%lld (dtype %d, bwd %d, scaled %d): %s grid %d, want %lld (%d blocks/CU x %d CUs)\n",
                    cases[i].rows, cases[i].cols, (int)cases[i].dt, cases[i].bwd, cases[i].scaled, info.kernel,
                    info.grid, want, info.blocks_per_cu, info.num_cus);
            failures++;
        }
    }
    if (checked < 4) { /* four ROW shapes at least, on every target */
        fprintf(stderr, "block a row: only %d ROW or ONLINE plans among the cases\n", checked);
        failures++;
    }
}

/* Every kernel in the library can be forced (hipsoftmax_set_kernel) and then plans some problem of its
 * dtype: a kernel the plan could never reach would go untested on the GPU (its per-kernel test skips
 * every shape it cannot plan, and fails when that is all of them). */
/* hipsoftmax_get_stats_plan: validated like the statistics-only calls, and one-pass plans for the
 * sharded softmax's calls on long rows (ONLINE without the tiles it keeps for a second pass). */
static void test_stats_plan(hipsoftmax_handle h)
{
    static float records[4 * 8] __attribute__((aligned(16)));
    hipsoftmax_problem p;
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_BF16, 4096, 64128);
    EXPECT_STATUS(hipsoftmax_get_stats_plan(NULL, &p, 0, &info), HIPSOFTMAX_STATUS_INVALID_HANDLE);
    EXPECT_STATUS(hipsoftmax_get_stats_plan(h, &p, 0, &info), HIPSOFTMAX_STATUS_INVALID_POINTER); /* no stats */
    p.stats = records;
    EXPECT_STATUS(hipsoftmax_get_stats_plan(h, &p, 2, &info), HIPSOFTMAX_STATUS_INVALID_VALUE);
    EXPECT_STATUS(hipsoftmax_get_stats_plan(h, &p, -1, &info), HIPSOFTMAX_STATUS_INVALID_VALUE);
    EXPECT_STATUS(hipsoftmax_get_stats_plan(h, &p, 0, NULL), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_get_stats_plan(NULL, NULL, 0, NULL), HIPSOFTMAX_STATUS_INVALID_HANDLE);
    EXPECT_STATUS(hipsoftmax_get_stats_plan(h, NULL, 0, &info), HIPSOFTMAX_STATUS_INVALID_POINTER);
    p.stats_in = records + 16;
    EXPECT_STATUS(hipsoftmax_get_stats_plan(h, &p, 0, &info), HIPSOFTMAX_STATUS_INVALID_VALUE);
    p.stats_in = NULL, p.rows = 0;
    EXPECT_STATUS(hipsoftmax_get_stats_plan(h, &p, 0, &info), HIPSOFTMAX_STATUS_INVALID_SIZE);
    p.rows = 4096;

    /* One pass over rows longer than a ROW block holds, many of them: both statistics calls, and the
     * forward and backward given the statistics (stats_in), stream the row once on ONLINE, which then
     * keeps no tiles. */
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 100000;
    for (int bwd = 0; bwd <= 1; bwd++) {
        info.family = HIPSOFTMAX_FAMILY_AUTO, info.dynamic_smem = -1;
        EXPECT_STATUS(hipsoftmax_get_stats_plan(h, &p, bwd, &info), HIPSOFTMAX_STATUS_SUCCESS);
        EXPECT(info.family == HIPSOFTMAX_FAMILY_ONLINE && info.dynamic_smem == 0);
        hipsoftmax_problem g = p;
        g.stats = NULL, g.stats_in = records, g.stats_in_shards = 2;
        g.rows = 2;
        info.family = HIPSOFTMAX_FAMILY_AUTO, info.dynamic_smem = -1;
        EXPECT_STATUS(bwd ? hipsoftmax_get_backward_plan(h, &g, &info) : hipsoftmax_get_plan(h, &g, &info),
                      HIPSOFTMAX_STATUS_SUCCESS);
        /* Two rows: the backward on ONLINE, the forward (a block per row) not. */
        EXPECT(bwd ? info.family == HIPSOFTMAX_FAMILY_ONLINE && info.dynamic_smem == 0
                   : info.family != HIPSOFTMAX_FAMILY_ONLINE);
    }
    /* The full forward of the same rows keeps its plan (not ONLINE's); a row a ROW block holds keeps
     * ROW for its statistics. */
    p.stats = NULL;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family != HIPSOFTMAX_FAMILY_ONLINE);
    p.stats = records, p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 64128;
    EXPECT_STATUS(hipsoftmax_get_stats_plan(h, &p, 0, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ROW);
    /* The full backward of such rows: ONLINE for 16-bit dtypes, not for fp32. */
    p.stats = NULL;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ONLINE);
    p.x_dtype = p.y_dtype = p.dy_dtype = HIPSOFTMAX_DTYPE_F32;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family != HIPSOFTMAX_FAMILY_ONLINE);
    if (!on_sm90(h))
        return;
    /* On sm_90 (228 KiB of shared memory an SM): ONLINE's backward in half blocks, two a SM, where
     * each keeps three quarters of its row or more (bf16 y with fp32 dy, 4096 x 16384: two tiles of
     * 8192 columns, y and dy kept; with dy in y's dtype ROW holds the row); in whole blocks where they
     * would keep less (log-softmax keeps dy alone: 7 of 1024 x 131072's 8 tiles). fp32 rows of two ONLINE tiles or more go to ONLINE where it keeps
     * half of them and ROW does not hold the row (4096 x 24576, 3 tiles kept), not otherwise (4096 x
     * 16384: ROW's, one block a SM; 4096 x 65536, 3 tiles of 8; 4096 x 8192, one). */
    p.x_dtype = p.y_dtype = HIPSOFTMAX_DTYPE_BF16, p.dy_dtype = HIPSOFTMAX_DTYPE_F32;
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 16384;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ONLINE && info.block == 512 && info.blocks_per_cu == 2 &&
           info.dynamic_smem == 2 * 8192 * 6);
    p.dy_dtype = HIPSOFTMAX_DTYPE_BF16;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ROW && info.block == 512 && info.blocks_per_cu == 2);
    p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
    p.rows = 1024, p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 131072;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ONLINE && info.block == 1024 && info.dynamic_smem == 7 * 16384 * 2);
    p.algorithm = HIPSOFTMAX_ALGO_SOFTMAX;
    p.x_dtype = p.y_dtype = p.dy_dtype = HIPSOFTMAX_DTYPE_F32;
    p.rows = 4096, p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 24576;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ONLINE && info.dynamic_smem > 0);
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 16384;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ROW && info.block == 1024 && info.blocks_per_cu == 1);
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 65536;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family != HIPSOFTMAX_FAMILY_ONLINE);
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 8192;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family != HIPSOFTMAX_FAMILY_ONLINE);
    /* dx wider than y (bf16 y and dy, fp32 dx): one 1024-thread block a SM keeps nothing (4096 x
     * 65536); two 512-thread ones keep their tiles (4096 x 16384: not ROW's, as with a bf16 dx). */
    p.x_dtype = HIPSOFTMAX_DTYPE_F32, p.y_dtype = p.dy_dtype = HIPSOFTMAX_DTYPE_BF16;
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 65536;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ONLINE && info.block == 1024 && info.dynamic_smem == 0);
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 16384;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ONLINE && info.block == 512 && info.dynamic_smem == 2 * 8192 * 4);
    /* Rows ROW's backward holds in one block a SM (fp32 4096 x 12288: 768 threads) stay ROW's, where
     * the forward's one-block-a-SM rule would give SPLIT's one block a row; but where dx is wider than
     * y. bf16 y and dy take the kernels that hold them as stored, 32 values of each a thread, two
     * 384-thread blocks a SM (whatever dx), and bf16 rows of 32768 columns in one block. */
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 12288;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ROW && info.block == 384 && strstr(info.kernel, "_w32_bwd") != NULL);
    p.x_dtype = HIPSOFTMAX_DTYPE_BF16;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ROW && info.block == 384 && info.blocks_per_cu == 2);
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 32768;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ROW && info.block == 1024 && info.blocks_per_cu == 1);
    p.dy_dtype = HIPSOFTMAX_DTYPE_F32; /* dy in another dtype: the fp32-held kernels, 16384 columns */
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ONLINE);
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 12288;
    p.x_dtype = p.y_dtype = p.dy_dtype = HIPSOFTMAX_DTYPE_F32;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ROW && info.block == 768 && info.blocks_per_cu == 1);
    /* ONLINE's peeled twins are planned for the whole packs they take (fp16 4096 x 32771: those of
     * 32768 columns, as its aligned neighbour: two 512-thread blocks a SM, 3 of 4 tiles kept). */
    p.x_dtype = p.y_dtype = p.dy_dtype = HIPSOFTMAX_DTYPE_F16;
    p.cols = p.x_row_stride = p.y_row_stride = p.dy_row_stride = 32771;
    EXPECT_STATUS(hipsoftmax_get_backward_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(info.family == HIPSOFTMAX_FAMILY_ONLINE && info.block == 512 && info.dynamic_smem == 3 * 8192 * 4 &&
           strstr(info.kernel, "_peel_bwd") != NULL);
}

static void test_forced_kernels(hipsoftmax_handle h)
{
    /* Row lengths in every kernel's range, each aligned (vector kernels) and odd (scalar kernels); 4000:
     * WARP's packed p64 on 64-lane waves (2049-4096 columns). */
    static const long long shapes[][2] = {
        {4096, 1},     {4096, 2},     {4096, 3},     {4096, 8},     {4096, 15},    {4096, 16},    {4096, 33},
        {4096, 64},    {4096, 65},    {4096, 128},   {4096, 129},   {4096, 256},   {4096, 257},   {4096, 512},
        {4096, 513},   {4096, 1001},  {4096, 1024},  {4096, 2048},  {4096, 3001},  {4096, 4000},  {4096, 9001},
        {4096, 15001}, {4096, 16392}, {4096, 20480}, {4096, 24576}, {4096, 28672}, {4096, 32776}, {4096, 40960},
        {4096, 49152}, {4096, 57344}, {4096, 65536}, {4096, 65537}, {4096, 262144}, {4, 8388608},  {4, 8388609},
        {8, 262144}};
    size_t n = 0;
    EXPECT_STATUS(hipsoftmax_kernel_count(h, &n), HIPSOFTMAX_STATUS_SUCCESS);
    for (size_t i = 0; i < n; i++) {
        hipsoftmax_kernel_info ki = {.struct_size = sizeof ki};
        EXPECT_STATUS(hipsoftmax_get_kernel_info(h, i, &ki), HIPSOFTMAX_STATUS_SUCCESS);
        const hipsoftmax_dtype dt = strstr(ki.name, "_bf16_") != NULL  ? HIPSOFTMAX_DTYPE_BF16
                                    : strstr(ki.name, "_f16_") != NULL ? HIPSOFTMAX_DTYPE_F16
                                                                       : HIPSOFTMAX_DTYPE_F32;
        EXPECT_STATUS(hipsoftmax_set_kernel(h, ki.name), HIPSOFTMAX_STATUS_SUCCESS);
        /* The kernel's op from its name: _fwd (forward with options: a log-softmax here), _log (the
         * plain log-softmax), _bwd. */
        const size_t len = strlen(ki.name);
        const int fwd = len > 4 && (strcmp(ki.name + len - 4, "_fwd") == 0 || strcmp(ki.name + len - 4, "_log") == 0);
        const int bwd = len > 4 && strcmp(ki.name + len - 4, "_bwd") == 0;
        /* CHANNEL's vector and word kernels: a wide inner (16-bit word kernels: rows on 16 bytes) */
        const int vchannel = strncmp(ki.name, "hsm_channel_", 12) == 0 &&
                             (strstr(ki.name, "_v") != NULL || strstr(ki.name, "_w") != NULL);
        int planned = 0;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0] && !planned; s++) {
            hipsoftmax_problem p;
            hipsoftmax_plan_info info = {.struct_size = sizeof info};
            hipsoftmax_problem_init(&p, dt, shapes[s][0], shapes[s][1]);
            if (vchannel) { /* V (or two) columns a thread: inner a multiple of V */
                p.mode = HIPSOFTMAX_MODE_CHANNEL, p.inner = 64;
                p.x_row_stride = p.y_row_stride = p.dy_row_stride = p.cols * p.inner;
            }
            if (fwd)
                p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
            const hipsoftmax_status st = bwd ? hipsoftmax_get_backward_plan(h, &p, &info) : hipsoftmax_get_plan(h, &p, &info);
            planned = st == HIPSOFTMAX_STATUS_SUCCESS && strcmp(info.kernel, ki.name) == 0;
        }
        if (!planned) {
            fprintf(stderr, "kernel %s, forced, plans none of the test shapes\n", ki.name);
            failures++;
        }
    }
    EXPECT_STATUS(hipsoftmax_set_kernel(h, NULL), HIPSOFTMAX_STATUS_SUCCESS);
}

/* SPLIT needs every block of its grid resident at once (a cooperative launch fails otherwise): its
 * plans, with the dynamic shared memory they ask for, must fit the device, for every dtype, for rows on
 * and off their 128-byte line, and for row lengths on both sides of every capacity step up to 2^27. */
static void test_split_coresident(hipsoftmax_handle h)
{
    static const long long rows[] = {1, 2, 3, 4, 8, 16, 32, 64, 128, 263, 264, 1000, 4096};
    static const hipsoftmax_dtype dts[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
    int checked = 0;
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
            for (double c = 4096; c <= (double)(1 << 27); c *= 1.06)
                for (int pad = 0; pad <= 8; pad += 8) {
                    const long long cols = (long long)c / 8 * 8;
                    hipsoftmax_problem p;
                    hipsoftmax_plan_info info = {.struct_size = sizeof info};
                    hipsoftmax_problem_init(&p, dts[d], rows[r], cols);
                    p.x_row_stride = p.y_row_stride = cols + pad;
                    if (hipsoftmax_get_plan(h, &p, &info) != HIPSOFTMAX_STATUS_SUCCESS)
                        continue;
                    if (info.family != HIPSOFTMAX_FAMILY_SPLIT)
                        continue;
                    checked++;
                    if (info.blocks_per_cu <= 0 || info.num_cus <= 0 ||
                        (long long)info.grid > (long long)info.blocks_per_cu * info.num_cus) {
                        fprintf(stderr, "SPLIT plan for %lldx%lld (dtype %d, pad %d): %s grid %d, %d blocks/CU x %d CUs\n",
                                rows[r], cols, (int)dts[d], pad, info.kernel, info.grid, info.blocks_per_cu, info.num_cus);
                        failures++;
                    }
                }
    if (checked == 0) {
        fprintf(stderr, "no SPLIT plan among the co-residency shapes\n");
        failures++;
    }
}

/* Random problems, pointers and enum values (deterministic seed): every call returns a status of the
 * enum, host buffers standing in for device memory are never written, and valid problems get a plan
 * whose geometry is positive. Run under ASan and UBSan in CI, so an overflow or out-of-bounds access
 * in validation or planning fails the test. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int64_t rnd_size(void)
{
    static const int64_t edge[] = {0, 1, -1, 2, 3, 127, 781, 1823, 4096, 65537, INT64_C(1) << 20, INT64_C(1) << 31,
                                   INT64_C(1) << 40, INT64_MAX, INT64_MIN, INT64_MAX / 2, INT64_MAX / 4 + 1};
    switch (rnd() % 3) {
    case 0: return edge[rnd() % (sizeof edge / sizeof edge[0])];
    case 1: return (int64_t)(rnd() % 300000);
    default: return (int64_t)rnd();
    }
}

static void test_random(hipsoftmax_handle h)
{
    fill_canary();
    for (int i = 0; i < 20000; i++) {
        hipsoftmax_problem p;
        const hipsoftmax_dtype dts[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
        hipsoftmax_problem_init(&p, dts[rnd() % 3], rnd_size(), rnd_size());
        /* A stride a little past the row (saturating: cols may be INT64_MAX), or anything. */
        if (rnd() % 2)
            p.x_row_stride = rnd() % 2 ? (p.cols > INT64_MAX - 8 ? INT64_MAX : p.cols + (int64_t)(rnd() % 9)) : rnd_size();
        if (rnd() % 2)
            p.y_row_stride = rnd() % 2 ? (p.cols > INT64_MAX - 8 ? INT64_MAX : p.cols + (int64_t)(rnd() % 9)) : rnd_size();
        if (rnd() % 8 == 0)
            p.x_dtype = (hipsoftmax_dtype)(int)(rnd() % 400);
        if (rnd() % 8 == 0)
            p.algorithm = (hipsoftmax_algorithm)(int)(rnd() % 400);
        if (rnd() % 8 == 0)
            p.mode = (hipsoftmax_mode)(int)(rnd() % 400);
        if (rnd() % 8 == 0)
            p.mask = (hipsoftmax_mask)(int)(rnd() % 400);
        if (rnd() % 16 == 0)
            p.inner = rnd_size();
        if (rnd() % 16 == 0)
            p.struct_size = (size_t)(rnd() % (sizeof p + 1)); /* the caller owns sizeof p bytes */
        /* Pointers inside the host buffers, sometimes misaligned, sometimes overlapping, or NULL. */
        char *bx = (char *)xbuf, *by = rnd() % 4 == 0 ? (char *)xbuf : (char *)ybuf;
        const void *x = rnd() % 32 == 0 ? NULL : bx + rnd() % 64;
        void *y = rnd() % 32 == 0 ? NULL : by + rnd() % 64;
        const hipsoftmax_status st = hipsoftmax_forward(h, &p, x, y);
        const hipsoftmax_status sb = hipsoftmax_backward(h, &p, x, y, y);
        hipsoftmax_plan_info info = {.struct_size = sizeof info};
        const hipsoftmax_status sp = hipsoftmax_get_plan(h, &p, &info);
        if ((int)st < 0 || st >= HIPSOFTMAX_STATUS_MAX_ || (int)sb < 0 || sb >= HIPSOFTMAX_STATUS_MAX_ ||
            (int)sp < 0 || sp >= HIPSOFTMAX_STATUS_MAX_ || st == HIPSOFTMAX_STATUS_SUCCESS) {
            fprintf(stderr, "random case %d: forward %d, backward %d, plan %d\n", i, (int)st, (int)sb, (int)sp);
            failures++;
        }
        if (sp == HIPSOFTMAX_STATUS_SUCCESS && (info.grid <= 0 || info.block <= 0 || info.blocks_per_row <= 0)) {
            fprintf(stderr, "random case %d (%lld x %lld): plan grid %d block %d per row %d\n", i, (long long)p.rows,
                    (long long)p.cols, info.grid, info.block, info.blocks_per_row);
            failures++;
        }
    }
    check_canary("random");
}

static void test_strings(void)
{
    for (int s = -2; s <= HIPSOFTMAX_STATUS_MAX_ + 2; s++) {
        const char *str = hipsoftmax_status_string((hipsoftmax_status)s);
        if (str == NULL || strncmp(str, "HIPSOFTMAX_STATUS_", 18) != 0) {
            fprintf(stderr, "status %d has no string\n", s);
            failures++;
        }
    }
    if (hipsoftmax_version_number() != HIPSOFTMAX_VERSION_NUMBER ||
        strcmp(hipsoftmax_version_string(), HIPSOFTMAX_VERSION_STRING) != 0) {
        fprintf(stderr, "header and library versions differ\n");
        failures++;
    }
}

/* Whether `t` is in HSM_TEST_TARGETS, the ;-separated targets this library was built for. */
static int built_for(const char *t)
{
    const char *list = HSM_TEST_TARGETS;
    const size_t n = strlen(t);
    for (const char *p = list; (p = strstr(p, t)) != NULL; p += n)
        if ((p == list || p[-1] == ';') && (p[n] == '\0' || p[n] == ';'))
            return 1;
    return 0;
}

int main(void)
{
    /* Offline handles exist for the targets this library was built for; any other known target
     * (another vendor's, or one not built) has no kernels and is refused at creation. */
    static const char *const targets[] = {"gfx942", "gfx90a", "gfx908", "sm_90", "sm_80"};
    test_strings();
    test_handles("sm_90");
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        hipsoftmax_handle h = NULL;
        if (!built_for(targets[i])) {
            EXPECT_STATUS(hipsoftmax_create_offline(&h, targets[i]), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
            continue;
        }
        EXPECT_STATUS(hipsoftmax_create_offline(&h, targets[i]), HIPSOFTMAX_STATUS_SUCCESS);
        if (h == NULL)
            continue;
        test_forward(h);
        test_plan(h);
        test_stats_plan(h);
        test_log_plan(h);
        test_few_rows_plan(h);
        const int warp = strncmp(targets[i], "sm_", 3) == 0 ? 32 : 64; /* the target's lanes */
        test_two_rows_plan(h, warp);
        test_row_warp_plan(h, warp);
        test_warp_f32_wide_plan(h, warp);
        test_packed_bwd_plan(h, warp);
        test_row_packed_bwd_plan(h, warp);
        test_fewer_lanes_plan(h, warp);
        test_row_alone_plan(h, warp);
        test_row_idle_plan(h, warp);
        test_decode_held_plan(h, warp);
        test_sub_pack_plan(h, warp);
        test_block_a_row_plan(h, warp);
        test_warp_once_grid(h);
        test_shift_plan(h, warp);
        test_shift16_plan(h, warp);
        test_log_shift_plan(h);
        test_forced_kernels(h);
        test_split_coresident(h);
        test_random(h);
        hipsoftmax_destroy(h);
    }
    printf("%s\n", failures == 0 ? "api.validate: all checks passed" : "api.validate: FAILED");
    return failures == 0 ? 0 : 1;
}
