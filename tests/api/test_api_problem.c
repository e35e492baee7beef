/* api.problem: the versioned structs and every bad-input class of the 0.2 descriptor fields, on an
 * offline handle (no GPU). Host buffers stand in for device memory and must stay untouched; structs of
 * other versions are allocated to their exact size, so under ASan a write or read past what a caller
 * of that version owns fails the test. */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include "api_expect.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures; /* counted by api_expect.h's checks */

#define BUF_FLOATS 8192
static _Alignas(256) float buf[BUF_FLOATS];
#define CANARY 12345.0f

/* Version 0.1's struct as a binary built against 0.1 declares it: everything up to causal_offset. */
typedef struct problem_v01 {
    size_t struct_size;
    hipsoftmax_algorithm algorithm;
    hipsoftmax_mode mode;
    hipsoftmax_dtype x_dtype, y_dtype;
    int64_t rows, cols, x_row_stride, y_row_stride, inner;
    float scale, alpha, beta;
    hipsoftmax_mask mask;
    hipsoftmax_dtype mask_dtype;
    const void *mask_ptr;
    int64_t mask_row_stride, causal_offset;
} problem_v01;
#define V01_SIZE sizeof(problem_v01)
_Static_assert(sizeof(problem_v01) == offsetof(hipsoftmax_problem, causal_offset) + sizeof(int64_t),
               "0.1's fields keep their place");
/* The first fields of the info structs, as the smallest caller may declare them. */
typedef struct plan_info_min { size_t struct_size; hipsoftmax_family family; } plan_info_min;
typedef struct kernel_info_min { size_t struct_size; char name[64]; } kernel_info_min;

static void test_versions(hipsoftmax_handle h)
{
    float *x = buf, *y = buf + 1024;
    /* A 0.1 binary: its struct is 112 bytes and it calls the 0.1 symbol, which must not write past. */
    EXPECT(V01_SIZE == 112);
    problem_v01 *old_v = malloc(V01_SIZE);
    if (old_v == NULL)
        exit(1);
    hipsoftmax_problem *old = (hipsoftmax_problem *)(void *)old_v;
    (hipsoftmax_problem_init)(old, HIPSOFTMAX_DTYPE_F32, 4, 100);
    EXPECT(old_v->struct_size == V01_SIZE && old_v->rows == 4 && old_v->cols == 100 && old_v->scale == 1.0f);
    EXPECT_STATUS(hipsoftmax_forward(h, old, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    EXPECT_STATUS(hipsoftmax_backward(h, old, y, x + 2048, x), HIPSOFTMAX_STATUS_NO_DEVICE);
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    EXPECT_STATUS(hipsoftmax_get_plan(h, old, &info), HIPSOFTMAX_STATUS_SUCCESS);
    /* The sized init writes exactly the size it is given. */
    memset(old, 0x77, V01_SIZE);
    EXPECT_STATUS(hipsoftmax_problem_init_sized(old, V01_SIZE, HIPSOFTMAX_DTYPE_BF16, 2, 8), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(old_v->struct_size == V01_SIZE && old_v->x_dtype == HIPSOFTMAX_DTYPE_BF16 && old_v->causal_offset == 0);
    EXPECT_STATUS(hipsoftmax_problem_init_sized(old, V01_SIZE - 8, HIPSOFTMAX_DTYPE_F32, 2, 8),
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    EXPECT_STATUS(hipsoftmax_problem_init_sized(NULL, sizeof(hipsoftmax_problem), HIPSOFTMAX_DTYPE_F32, 2, 8),
                  HIPSOFTMAX_STATUS_INVALID_POINTER);
    free(old_v);

    /* A newer caller: a larger struct is accepted while the fields this library lacks are zero. */
    const size_t big = sizeof(hipsoftmax_problem) + 32;
    hipsoftmax_problem *newer = malloc(big);
    if (newer == NULL)
        exit(1);
    memset(newer, 0x55, big);
    EXPECT_STATUS(hipsoftmax_problem_init_sized(newer, big, HIPSOFTMAX_DTYPE_F32, 4, 100), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(newer->struct_size == big && ((unsigned char *)newer)[big - 1] == 0);
    EXPECT_STATUS(hipsoftmax_forward(h, newer, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    ((unsigned char *)newer)[big - 3] = 1; /* an option this library does not have */
    EXPECT_STATUS(hipsoftmax_forward(h, newer, x, y), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_get_plan(h, newer, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    free(newer);
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 4, 100);
    EXPECT(p.struct_size == sizeof p);
    p.struct_size = SIZE_MAX;
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    p.struct_size = 4097;
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    p.struct_size = V01_SIZE - 1;
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);

    /* Info structs: struct_size set by the caller, never written past. */
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 4, 100);
    info.struct_size = 0;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_INVALID_VALUE);
    info.struct_size = SIZE_MAX;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_INVALID_VALUE);
    plan_info_min *si = malloc(sizeof *si);
    if (si == NULL)
        exit(1);
    si->struct_size = sizeof *si;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, (hipsoftmax_plan_info *)(void *)si), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(si->struct_size == sizeof *si && si->family != HIPSOFTMAX_FAMILY_AUTO);
    free(si);
    hipsoftmax_kernel_info ki;
    ki.struct_size = 3;
    EXPECT_STATUS(hipsoftmax_get_kernel_info(h, 0, &ki), HIPSOFTMAX_STATUS_INVALID_VALUE);
    kernel_info_min *sk = malloc(sizeof *sk);
    if (sk == NULL)
        exit(1);
    sk->struct_size = sizeof *sk;
    EXPECT_STATUS(hipsoftmax_get_kernel_info(h, 0, (hipsoftmax_kernel_info *)(void *)sk), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT(strncmp(sk->name, "hsm_", 4) == 0);
    free(sk);

    /* Plans validate the problem alone: a large valid problem is not an overlap of made-up pointers. */
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, INT64_C(1) << 60, 1);
    info.struct_size = sizeof info;
    const hipsoftmax_status st = hipsoftmax_get_plan(h, &p, &info);
    EXPECT(st == HIPSOFTMAX_STATUS_SUCCESS || st == HIPSOFTMAX_STATUS_NOT_SUPPORTED);
}

/* Every bad-input class of the 0.2 fields, forward and backward. */
static void test_fields(hipsoftmax_handle h)
{
    hipsoftmax_problem p, q;
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 4, 100);
    float *x = buf, *y = buf + 1024, *m = buf + 2048, *st = buf + 4096;
    const float inf = INFINITY, nan = NAN;

    /* scale, alpha, beta */
    const float bad_scale[] = {nan, inf, -inf, 0.0f, -1.0f};
    for (size_t i = 0; i < sizeof bad_scale / sizeof bad_scale[0]; i++) {
        q = p, q.scale = bad_scale[i];
        EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
        EXPECT_STATUS(hipsoftmax_backward(h, &q, y, m, x), HIPSOFTMAX_STATUS_INVALID_VALUE);
    }
    q = p, q.alpha = inf;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.beta = -inf;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.beta = nan;
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, m, x), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.scale = 0.125f, q.alpha = 2.0f, q.beta = -1.0f;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    /* flags */
    q = p, q.flags = 2;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.flags = HIPSOFTMAX_FLAG_SAFE_ROWS;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    /* dtypes: y, dy out of range; mixed pairs valid */
    q = p, q.y_dtype = (hipsoftmax_dtype)153;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.dy_dtype = (hipsoftmax_dtype)HIPSOFTMAX_MASK_NONE;
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, m, x), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.y_dtype = HIPSOFTMAX_DTYPE_BF16;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    q = p, q.dy_dtype = HIPSOFTMAX_DTYPE_F16, q.x_dtype = HIPSOFTMAX_DTYPE_BF16;
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, m, x), HIPSOFTMAX_STATUS_NO_DEVICE);
    /* backward: every pointer before any stride; dy's own stride, overlap and wrap-around */
    q = p, q.dy_row_stride = 5;
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, NULL, x), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, m, x), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    EXPECT_STATUS(hipsoftmax_backward(h, &p, y, x + 50, x), HIPSOFTMAX_STATUS_OVERLAP);
    EXPECT_STATUS(hipsoftmax_backward(h, &p, y, x, x), HIPSOFTMAX_STATUS_NO_DEVICE); /* dx == dy */
    EXPECT_STATUS(hipsoftmax_backward(h, &p, x, m, x), HIPSOFTMAX_STATUS_NO_DEVICE); /* dx == y */
    EXPECT_STATUS(hipsoftmax_backward(h, &p, y, y, x), HIPSOFTMAX_STATUS_NO_DEVICE); /* y == dy: inputs */
    q = p, q.x_dtype = HIPSOFTMAX_DTYPE_F16;
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, x, x), HIPSOFTMAX_STATUS_OVERLAP); /* dx == dy, other dtype */
    EXPECT_STATUS(hipsoftmax_backward(h, &p, y, (const void *)(UINTPTR_MAX - 64), x), HIPSOFTMAX_STATUS_MISALIGNED);
    EXPECT_STATUS(hipsoftmax_backward(h, &p, y, (const void *)(UINTPTR_MAX - 63), x),
                  HIPSOFTMAX_STATUS_INVALID_POINTER);
    /* combinations that make no sense */
    q = p, q.stats = st; /* statistics out of a backward that writes dx */
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, m, x), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.mode = HIPSOFTMAX_MODE_CHANNEL, q.inner = 2, q.x_row_stride = q.y_row_stride = 200,
    q.mask = HIPSOFTMAX_MASK_CAUSAL;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.heads = -1;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.queries = -2;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.heads = INT64_MAX / 2, q.queries = 4;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    /* stats: alignment (16 bytes: a record of four floats), overlap with any tensor */
    q = p, q.stats = st + 2;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_MISALIGNED);
    q = p, q.stats = y + 396;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_OVERLAP);
    q = p, q.stats = x + 4;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_OVERLAP);
    q = p, q.stats = st;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    /* statistics alone: stats required, no stats_in; the backward's records too */
    EXPECT_STATUS(hipsoftmax_forward_stats(h, &p, x), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_forward_stats(NULL, &p, x), HIPSOFTMAX_STATUS_INVALID_HANDLE);
    q = p, q.stats = st;
    EXPECT_STATUS(hipsoftmax_forward_stats(h, &q, NULL), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_forward_stats(h, &q, x), HIPSOFTMAX_STATUS_NO_DEVICE);
    EXPECT_STATUS(hipsoftmax_backward_stats(h, &q, y, m), HIPSOFTMAX_STATUS_NO_DEVICE);
    EXPECT_STATUS(hipsoftmax_backward_stats(h, &q, y, NULL), HIPSOFTMAX_STATUS_INVALID_POINTER);
    EXPECT_STATUS(hipsoftmax_backward_stats(h, &p, y, m), HIPSOFTMAX_STATUS_INVALID_POINTER);
    q = p, q.stats = x + 4; /* the records over an input */
    EXPECT_STATUS(hipsoftmax_backward_stats(h, &q, y, x), HIPSOFTMAX_STATUS_OVERLAP);
    /* statistics in: with stats out (or alone) makes no sense; shards, stride, alignment, overlap */
    q = p, q.stats_in = st;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, m, x), HIPSOFTMAX_STATUS_NO_DEVICE);
    q.stats = st + 1024;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    EXPECT_STATUS(hipsoftmax_forward_stats(h, &q, x), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.stats_in = st, q.stats_in_shards = -1;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.stats_in = st, q.stats_in_shards = 3, q.stats_in_shard_stride = 8; /* records of shards overlap */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    q = p, q.stats_in = st, q.stats_in_shards = 3, q.stats_in_shard_stride = 18; /* not a whole record */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    q = p, q.stats_in = st, q.stats_in_shards = 3, q.stats_in_shard_stride = 20;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    q = p, q.stats_in = st, q.stats_in_shards = INT64_MAX / 2;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = p, q.stats_in = st + 1;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_MISALIGNED);
    q = p, q.stats_in = y + 392; /* overlaps the output */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_OVERLAP);
    q = p, q.stats_in = x; /* inputs may share memory */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    /* causal: any offset */
    q = p, q.mask = HIPSOFTMAX_MASK_CAUSAL, q.causal_offset = -7;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);

    /* mask tensors: pointer, dtype, alignment, strides, broadcast extent, overlap */
    hipsoftmax_problem a = p;
    a.mask = HIPSOFTMAX_MASK_ADDITIVE, a.mask_dtype = HIPSOFTMAX_DTYPE_BF16, a.mask_ptr = m, a.mask_row_stride = 100;
    EXPECT_STATUS(hipsoftmax_forward(h, &a, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    q = a, q.mask_ptr = NULL;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_POINTER);
    q = a, q.mask_dtype = (hipsoftmax_dtype)149;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = a, q.mask_ptr = (const char *)m + 1;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_MISALIGNED);
    q = a, q.mask = HIPSOFTMAX_MASK_BOOL, q.mask_ptr = (const char *)m + 1; /* bytes: any address */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    q = a, q.mask_row_stride = 99;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    q = a, q.mask_row_stride = -100;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    q = a, q.mask_rows = 1, q.mask_row_stride = 0; /* one mask row shared by every row */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    q = a, q.mask_rows = 3; /* four rows read four mask rows */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    /* [batch 2][heads 2][queries 1] rows with a [2][1][cols] mask: batch stride needed, batches checked */
    q = a, q.heads = 2, q.queries = 1, q.mask_batches = 2, q.mask_batch_stride = 100;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    q.mask_batch_stride = -1;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    q = a, q.heads = 1, q.queries = 1, q.mask_batches = 2, q.mask_batch_stride = 100; /* 4 batches needed */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = a, q.mask_batches = -1;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = a, q.heads = 1, q.queries = 1, q.mask_batches = 4, q.mask_batch_stride = INT64_MAX / 2;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = a, q.mask_ptr = y + 300; /* the mask overlaps the output */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_OVERLAP);
    q = a, q.mask_ptr = x; /* inputs may share memory */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    q = a, q.mask_ptr = (const void *)(UINTPTR_MAX - 63);
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_POINTER);
    /* the mask fields are not read by a backward */
    q = a, q.mask_ptr = NULL, q.mask_dtype = (hipsoftmax_dtype)3;
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, m, x), HIPSOFTMAX_STATUS_NO_DEVICE);
    /* get_plan checks the problem but not pointers */
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    q = a, q.mask_rows = 3;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &q, &info), HIPSOFTMAX_STATUS_INVALID_SIZE);

    for (int i = 0; i < BUF_FLOATS; i++)
        if (buf[i] != CANARY) {
            fprintf(stderr, "buffer element %d was written\n", i);
            failures++;
            break;
        }
}

int main(void)
{
    for (int i = 0; i < BUF_FLOATS; i++)
        buf[i] = CANARY;
    /* The first target this library was built for. */
    char target[32];
    snprintf(target, sizeof target, "%s", HSM_TEST_TARGETS);
    target[strcspn(target, ";")] = '\0';
    hipsoftmax_handle h = NULL;
    EXPECT_STATUS(hipsoftmax_create_offline(&h, target), HIPSOFTMAX_STATUS_SUCCESS);
    if (h == NULL)
        return 1;
    test_versions(h);
    test_fields(h);
    hipsoftmax_destroy(h);
    printf("%s\n", failures == 0 ? "api.problem: all checks passed" : "api.problem: FAILED");
    return failures == 0 ? 0 : 1;
}
