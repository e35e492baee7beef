/* api.channel: CHANNEL mode ([outer][C][inner], softmax over C) through the public API without a GPU:
 * one check per bad-input class (sizes, overflow of outer * C * inner, strides, masks, statistics,
 * alignment, overlap), the calls that must reach the device check, and the plans: inner 1 takes the
 * row families, inner > 1 CHANNEL's kernels, a forced family that cannot serve says so, and every
 * plan's grid resident on the device or, on 32 MB and more, a block a unit of work. Offline handles;
 * host buffers the library must not touch. */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include "api_expect.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures; /* counted by api_expect.h's checks */

#define BUF_FLOATS 8192
static _Alignas(16) float buf[BUF_FLOATS];
#define CANARY 4321.0f

/* [3][5][7] in floats: 105 a slice. */
static void channel_problem(hipsoftmax_problem *p)
{
    hipsoftmax_problem_init(p, HIPSOFTMAX_DTYPE_F32, 3, 5);
    p->mode = HIPSOFTMAX_MODE_CHANNEL;
    p->inner = 7;
    p->x_row_stride = p->y_row_stride = 35;
}

static void test_bad_inputs(hipsoftmax_handle h)
{
    hipsoftmax_problem p, q;
    channel_problem(&p);
    float *x = buf, *y = buf + 2048, *dy = buf + 4096, *st = buf + 6144;
    /* inner */
    q = p, q.inner = 0;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = p, q.inner = -7;
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, dy, x), HIPSOFTMAX_STATUS_INVALID_SIZE);
    /* C * inner past int64 */
    q = p, q.cols = INT64_C(1) << 32, q.inner = INT64_C(1) << 32;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    /* row strides below C * inner, each tensor */
    q = p, q.x_row_stride = 34;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    q = p, q.y_row_stride = 5; /* a ROW-mode stride */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    q = p, q.dy_row_stride = 30;
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, dy, x), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    q = p, q.x_row_stride = 34; /* backward: dx */
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, dy, x), HIPSOFTMAX_STATUS_INVALID_STRIDE);
    /* outer * stride + C * inner past int64, and its bytes past int64 */
    q = p, q.rows = INT64_C(1) << 40, q.cols = INT64_C(1) << 12, q.inner = INT64_C(1) << 12;
    q.x_row_stride = q.y_row_stride = q.cols * q.inner;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    q = p, q.rows = 2, q.cols = INT64_C(1) << 30, q.inner = INT64_C(1) << 30;
    q.x_row_stride = q.y_row_stride = q.cols * q.inner;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    /* masks make no sense over channels */
    q = p, q.mask = HIPSOFTMAX_MASK_ADDITIVE, q.mask_ptr = st, q.mask_dtype = HIPSOFTMAX_DTYPE_F32;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.mask = HIPSOFTMAX_MASK_BOOL, q.mask_ptr = st;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    q = p, q.mask = HIPSOFTMAX_MASK_CAUSAL;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_INVALID_VALUE);
    /* statistics: none over inner > 1 */
    q = p, q.stats = st;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_forward_stats(h, &q, x), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_backward_stats(h, &q, y, dy), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    q = p, q.stats_in = st;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, dy, x), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    /* ... but inner 1 is a ROW problem, statistics and all */
    q = p, q.inner = 1, q.x_row_stride = q.y_row_stride = 5, q.stats = st;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    /* alignment */
    EXPECT_STATUS(hipsoftmax_forward(h, &p, (const char *)x + 2, y), HIPSOFTMAX_STATUS_MISALIGNED);
    q = p, q.x_dtype = q.y_dtype = HIPSOFTMAX_DTYPE_BF16;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, (char *)y + 1), HIPSOFTMAX_STATUS_MISALIGNED);
    /* overlap: the extent is (outer - 1) * stride + C * inner elements */
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, x + 104), HIPSOFTMAX_STATUS_OVERLAP);
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x + 104, x), HIPSOFTMAX_STATUS_OVERLAP);
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, x + 105), HIPSOFTMAX_STATUS_NO_DEVICE);
    q = p, q.y_row_stride = 36; /* same start, another layout */
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, x), HIPSOFTMAX_STATUS_OVERLAP);
    EXPECT_STATUS(hipsoftmax_backward(h, &p, y, dy, dy + 1), HIPSOFTMAX_STATUS_OVERLAP);
    /* valid calls reach the device check: in place, padded slices, mixed dtypes, options */
    EXPECT_STATUS(hipsoftmax_forward(h, &p, x, x), HIPSOFTMAX_STATUS_NO_DEVICE);
    q = p, q.x_row_stride = 40, q.y_row_stride = 36, q.y_dtype = HIPSOFTMAX_DTYPE_BF16;
    q.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX, q.scale = 0.5f, q.alpha = 2.0f, q.beta = 1.0f;
    q.flags = HIPSOFTMAX_FLAG_SAFE_ROWS;
    EXPECT_STATUS(hipsoftmax_forward(h, &q, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    EXPECT_STATUS(hipsoftmax_backward(h, &p, y, dy, dy), HIPSOFTMAX_STATUS_NO_DEVICE);
    q = p, q.dy_dtype = HIPSOFTMAX_DTYPE_F16, q.dy_row_stride = 64;
    EXPECT_STATUS(hipsoftmax_backward(h, &q, y, dy, x), HIPSOFTMAX_STATUS_NO_DEVICE);
}

static hipsoftmax_status plan(hipsoftmax_handle h, hipsoftmax_dtype dt, int64_t outer, int64_t C, int64_t inner,
                              int bwd, hipsoftmax_plan_info *info)
{
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, dt, outer, C);
    p.mode = HIPSOFTMAX_MODE_CHANNEL;
    p.inner = inner;
    p.x_row_stride = p.y_row_stride = C * inner;
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
    return bwd ? hipsoftmax_get_backward_plan(h, &p, info) : hipsoftmax_get_plan(h, &p, info);
}

/* The acceptance shapes' plans: CHANNEL for inner > 1, a row family for inner 1, every grid positive
 * and resident or (32 MB and more) a block a unit of work, blocks within the kernel's bound. */
static void test_plans(hipsoftmax_handle h)
{
    static const int64_t inners[] = {1, 2, 3, 7, 31, 32, 33, 4096, 16384};
    static const int64_t cs[] = {1, 2, 21, 150, 1000, 50000};
    static const int64_t outers[] = {1, 7, 1024};
    static const hipsoftmax_dtype dts[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
    const long long large_bytes = 32ll << 20; /* the library's block-a-unit floor (plan.c) */
    int large = 0;
    for (size_t d = 0; d < 3; d++)
        for (size_t a = 0; a < sizeof inners / sizeof inners[0]; a++)
            for (size_t b = 0; b < sizeof cs / sizeof cs[0]; b++)
                for (size_t o = 0; o < sizeof outers / sizeof outers[0]; o++)
                    for (int bwd = 0; bwd < 2; bwd++) {
                        hipsoftmax_plan_info info;
                        EXPECT_STATUS(plan(h, dts[d], outers[o], cs[b], inners[a], bwd, &info),
                                      HIPSOFTMAX_STATUS_SUCCESS);
                        const int channel = info.family == HIPSOFTMAX_FAMILY_CHANNEL;
                        /* A grid is its resident blocks, or on 32 MB and more a block a unit of work:
                         * a row (a row family, inner 1), a tile of CHANNEL (at most outer x inner) */
                        const long long resident = (long long)info.blocks_per_cu * info.num_cus;
                        const long long bytes = (long long)outers[o] * cs[b] * inners[a] *
                                                (dts[d] == HIPSOFTMAX_DTYPE_F32 ? 4 : 2);
                        const long long units = outers[o] * inners[a];
                        const long long most = bytes >= large_bytes && units > resident ? units : resident;
                        if (channel && bytes >= large_bytes && info.grid > resident)
                            large++;
                        if (channel != (inners[a] > 1) || info.grid <= 0 || info.block <= 0 || info.block > 1024 ||
                            (long long)info.grid > most) {
                            fprintf(stderr, "plan %lldx%lldx%lld dtype %d bwd %d: family %d %s grid %d block %d, %d/CU\n",
                                    (long long)outers[o], (long long)cs[b], (long long)inners[a], (int)dts[d], bwd,
                                    (int)info.family, info.kernel, info.grid, info.block, info.blocks_per_cu);
                            failures++;
                        }
                    }
    /* the block-a-tile grid is reached (the test would pass vacuously otherwise): outer 1024 with
     * inner 4096 or 16384 and C of 21 and more, every dtype, forward and backward (152 plans on
     * sm_90) */
    if (large < 6) {
        fprintf(stderr, "CHANNEL plans on 32 MB and more with a grid past the resident blocks: %d\n", large);
        failures++;
    }
    /* C longer than the register kernels hold streams it */
    hipsoftmax_plan_info info;
    EXPECT_STATUS(plan(h, HIPSOFTMAX_DTYPE_F32, 4, 50000, 4096, 0, &info), HIPSOFTMAX_STATUS_SUCCESS);
    if (strstr(info.kernel, "_o") == NULL && strstr(info.kernel, "_vo") == NULL) {
        fprintf(stderr, "C = 50000 planned %s, not a streaming kernel\n", info.kernel);
        failures++;
    }
    /* forced families: CHANNEL runs a ROW problem as inner 1; a row family cannot run inner > 1 */
    EXPECT_STATUS(hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_ROW), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(plan(h, HIPSOFTMAX_DTYPE_F32, 16, 150, 128, 0, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_CHANNEL), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(plan(h, HIPSOFTMAX_DTYPE_F32, 16, 150, 1, 1, &info), HIPSOFTMAX_STATUS_SUCCESS);
    if (info.family != HIPSOFTMAX_FAMILY_CHANNEL) {
        fprintf(stderr, "forced CHANNEL planned family %d\n", (int)info.family);
        failures++;
    }
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 8, 100);
    p.mask = HIPSOFTMAX_MASK_CAUSAL; /* CHANNEL's kernels take no mask */
    info.struct_size = sizeof info;
    EXPECT_STATUS(hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_set_family(h, (hipsoftmax_family)6), HIPSOFTMAX_STATUS_INVALID_VALUE);
    EXPECT_STATUS(hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_AUTO), HIPSOFTMAX_STATUS_SUCCESS);
    /* a forced kernel of another family cannot run inner > 1 */
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "hsm_online_f32_s_fwd"), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(plan(h, HIPSOFTMAX_DTYPE_F32, 16, 150, 128, 0, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    /* a forced tile kernel: a shape it serves, and a C no tile holds (fp32 backward, 2^60 at inner 1:
     * its y and dy tiles would be 2^63 bytes; UBSan reports the overflow where the plan computed it) */
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "hsm_channel_bf16_t_fwd"), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(plan(h, HIPSOFTMAX_DTYPE_BF16, 16, 150, 33, 0, &info), HIPSOFTMAX_STATUS_SUCCESS);
    if (strcmp(info.kernel, "hsm_channel_bf16_t_fwd") != 0) {
        fprintf(stderr, "forced tile kernel planned %s\n", info.kernel);
        failures++;
    }
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "hsm_channel_f32_t_bwd"), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(plan(h, HIPSOFTMAX_DTYPE_F32, 1, (int64_t)1 << 60, 1, 1, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    /* a forced word kernel: at most 32 warps (16 on wave64) a column, 16-bit only on 16-byte rows */
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "hsm_channel_f32_w16_fwd"), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(plan(h, HIPSOFTMAX_DTYPE_F32, 16, 150, 33, 0, &info), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(plan(h, HIPSOFTMAX_DTYPE_F32, 16, 1000, 4096, 0, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(hipsoftmax_set_kernel(h, "hsm_channel_bf16_w16_fwd"), HIPSOFTMAX_STATUS_SUCCESS);
    EXPECT_STATUS(plan(h, HIPSOFTMAX_DTYPE_BF16, 16, 150, 33, 0, &info), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    EXPECT_STATUS(plan(h, HIPSOFTMAX_DTYPE_BF16, 16, 150, 4096, 0, &info), HIPSOFTMAX_STATUS_SUCCESS);
    if (info.block != 10 * 32 && info.block != 10 * 64) { /* G = ceil(150 / 16) warps of 32 or 64 */
        fprintf(stderr, "forced word kernel, C = 150: block %d\n", info.block);
        failures++;
    }
    EXPECT_STATUS(hipsoftmax_set_kernel(h, NULL), HIPSOFTMAX_STATUS_SUCCESS);
}

/* The auto plan's word kernels where they were measured (sm_90, an H100; plan_channel_word): fp32
 * before the tiles (K = 32 where one warp holds C, else 16; C of 33 to 64 on the register kernels),
 * 16-bit where no tile kernel serves. */
static void test_word_plans(hipsoftmax_handle h)
{
    static const struct {
        hipsoftmax_dtype dt;
        int64_t outer, C, inner;
        const char *kernel;
    } cases[] = {
        {HIPSOFTMAX_DTYPE_F32, 16, 150, 16384, "hsm_channel_f32_w16_fwd"},
        {HIPSOFTMAX_DTYPE_F32, 64, 21, 4096, "hsm_channel_f32_w32_fwd"},
        {HIPSOFTMAX_DTYPE_F32, 32, 64, 16384, "hsm_channel_f32_r16_fwd"},
        {HIPSOFTMAX_DTYPE_BF16, 128, 21, 1024, "hsm_channel_bf16_w16_fwd"},
        {HIPSOFTMAX_DTYPE_F16, 2, 150, 4096, "hsm_channel_f16_w16_fwd"},
        {HIPSOFTMAX_DTYPE_BF16, 16, 150, 16384, "hsm_channel_bf16_vt_fwd"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hipsoftmax_plan_info info;
        EXPECT_STATUS(plan(h, cases[i].dt, cases[i].outer, cases[i].C, cases[i].inner, 0, &info),
                      HIPSOFTMAX_STATUS_SUCCESS);
        if (strcmp(info.kernel, cases[i].kernel) != 0) {
            fprintf(stderr, "sm_90 %lldx%lldx%lld: planned %s, not %s\n", (long long)cases[i].outer,
                    (long long)cases[i].C, (long long)cases[i].inner, info.kernel, cases[i].kernel);
            failures++;
        }
    }
}

int main(void)
{
    for (int i = 0; i < BUF_FLOATS; i++)
        buf[i] = CANARY;
    static const char *const targets[] = {"sm_90", "sm_80", "gfx942", "gfx90a", "gfx908"};
    int handles = 0;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        hipsoftmax_handle h = NULL;
        if (hipsoftmax_create_offline(&h, targets[i]) != HIPSOFTMAX_STATUS_SUCCESS)
            continue; /* not built for it (api.validate checks which) */
        handles++;
        test_bad_inputs(h);
        test_plans(h);
        if (strcmp(targets[i], "sm_90") == 0)
            test_word_plans(h);
        hipsoftmax_destroy(h);
    }
    for (int i = 0; i < BUF_FLOATS; i++)
        if (buf[i] != CANARY) {
            fprintf(stderr, "buffer element %d was written\n", i);
            failures++;
            break;
        }
    if (handles == 0) {
        fprintf(stderr, "no offline handle for any target\n");
        failures++;
    }
    printf("%s\n", failures == 0 ? "api.channel: all checks passed" : "api.channel: FAILED");
    return failures == 0 ? 0 : 1;
}
