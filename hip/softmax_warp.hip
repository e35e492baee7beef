/* softmax_warp.hip: the tiny-row family. A group of `group_width` lanes (a power of two up to the warp
 * size) holds one row in registers, C elements per lane, so a warp serves several rows at once and no
 * block barrier is needed. Reads each element once and writes it once. Three bodies: the plain
 * forward, the forward with every option (softmax_ops.h), the backward (y and dy held, 2C values). */
#include "softmax_ops.h"

#define HSM_WARP_BLOCK 128

/* How a group walks its rows. The loop bound is the first group of the warp, so all lanes of a warp
 * run the same iterations and every shuffle has all its lanes; groups past the last row only skip
 * their loads and stores: for (base = first; base < rows; base += step), row = base + offset. */
struct hsm_warp_walk {
    int64_t first, step, offset;
};
__device__ __forceinline__ hsm_warp_walk hsm_warp_walk_of(int W)
{
    const int64_t groups_per_block = blockDim.x / W;
    const int64_t group = (int64_t)blockIdx.x * groups_per_block + threadIdx.x / W;
    hsm_warp_walk w;
    w.first = (int64_t)blockIdx.x * groups_per_block + (threadIdx.x / HSM_WARP_SIZE) * (HSM_WARP_SIZE / W);
    w.step = (int64_t)gridDim.x * groups_per_block;
    w.offset = group - w.first;
    return w;
}

template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_warp_body(const hsm_args a)
{
    const int W = a.group_width;
    const int lane = threadIdx.x % W;
    const hsm_warp_walk w = hsm_warp_walk_of(W);
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    float v[C];

    for (int64_t base = w.first; base < a.rows; base += w.step) {
        const int64_t row = base + w.offset;
        const bool live = row < a.rows;
        const T *xr = x + (live ? row : 0) * a.x_stride;
        const float m = hsm_warp_max(hsm_chunk_load<T, VEC, C>(xr, 0, live ? a.cols : 0, lane, W, v), W);
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < C; i++) {
            v[i] = hsm_exp(v[i], m);
            s += v[i];
        }
        s = hsm_warp_sum(s, W);
        const float inv = 1.0f / s;
        if (live)
            hsm_chunk_store<T, VEC, C>(y + row * a.y_stride, 0, a.cols, lane, W, v, inv);
    }
}

/* The plain forward peeled (issue 14): rows at any element offset from 16 bytes, x and y rows at the
 * same offset (the plan gives other rows to the scalar kernels). A group lays its row out from the 16
 * bytes that hold its start, so every pack lies on 16 bytes; a pack wholly in the row is read and
 * written whole, one that straddles an end an element at a time, each element bounded by the row
 * (nothing outside it is read: an exact-size allocation's last row ends anywhere in its last 16
 * bytes). The plan sizes the group for cols + VEC - 1 columns: the lead is under VEC. */
template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_warp_peel_body(const hsm_args a)
{
    const int W = a.group_width;
    const int lane = threadIdx.x % W;
    const hsm_warp_walk w = hsm_warp_walk_of(W);
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    float v[C];

    for (int64_t base = w.first; base < a.rows; base += w.step) {
        const int64_t row = base + w.offset;
        const bool live = row < a.rows;
        const int64_t cols = live ? a.cols : 0;
        const T *xr = x + (live ? row : 0) * a.x_stride;
        const int64_t col0 = -(int64_t)(((uintptr_t)xr % 16) / sizeof(T));
        float lm = HSM_NEG_INF;
#pragma unroll
        for (int p = 0; p < C / VEC; p++) {
            const int64_t col = col0 + ((int64_t)p * W + lane) * VEC;
            if (col >= 0 && col + VEC <= cols) {
                hsm_load<T, VEC>(xr + col, v + p * VEC);
            } else {
#pragma unroll
                for (int i = 0; i < VEC; i++)
                    v[p * VEC + i] = col + i >= 0 && col + i < cols ? hsm_to_float(xr[col + i]) : HSM_NEG_INF;
            }
#pragma unroll
            for (int i = 0; i < VEC; i++)
                lm = hsm_max(lm, v[p * VEC + i]);
        }
        const float m = hsm_warp_max(lm, W);
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < C; i++) {
            v[i] = hsm_exp(v[i], m);
            s += v[i];
        }
        s = hsm_warp_sum(s, W);
        const float inv = 1.0f / s;
        T *yr = y + (live ? row : 0) * a.y_stride;
#pragma unroll
        for (int p = 0; p < C / VEC; p++) {
            const int64_t col = col0 + ((int64_t)p * W + lane) * VEC;
            if (col >= 0 && col + VEC <= cols) {
                hsm_store<T, VEC>(yr + col, v + p * VEC, inv);
            } else {
#pragma unroll
                for (int i = 0; i < VEC; i++)
                    if (col + i >= 0 && col + i < cols)
                        yr[col + i] = hsm_from_float<T>(v[p * VEC + i] * inv);
            }
        }
    }
}

template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_warp_fwd_body(const hsm_args a)
{
    const int W = a.group_width;
    const int lane = threadIdx.x % W;
    const hsm_warp_walk w = hsm_warp_walk_of(W);
    const T *x = (const T *)a.x;
    float v[C];
    for (int64_t base = w.first; base < a.rows; base += w.step) {
        const int64_t row = base + w.offset;
        const bool live = row < a.rows;
        const int64_t r0 = live ? row : 0;
        hsm_row_ctx rc = hsm_fwd_row(a, r0);
        if (!live)
            rc.lim = 0;
        const float mraw = hsm_warp_max(hsm_fwd_chunk_load<T, VEC, C>(a, rc, x + r0 * a.x_stride, 0, lane, W, v), W);
        const bool given = a.op.stats_in != NULL; /* as in hsm_row_fwd_body */
        hsm_epi e = given ? hsm_epi_given(a, r0) : hsm_epi_begin(a, mraw);
        const float ts = a.op.causal ? hsm_fwd_sum_causal<VEC, C>(a, v, e, 0, rc.lim, lane, W, 0) : hsm_fwd_sum<C>(a, v, e);
        const float s = hsm_warp_sum(ts, W);
        if (!given)
            hsm_epi_end(a, e, mraw, s, row, live && lane == 0);
        if (live && !a.op.no_out)
            hsm_fwd_chunk_store<VEC, C>(a, hsm_out_row(a, row), 0, lane, W, v, e);
    }
}

template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_warp_bwd_body(const hsm_args a)
{
    const int W = a.group_width;
    const int lane = threadIdx.x % W;
    const hsm_warp_walk w = hsm_warp_walk_of(W);
    const T *y = (const T *)a.x;
    float yv[C], dv[C];
    for (int64_t base = w.first; base < a.rows; base += w.step) {
        const int64_t row = base + w.offset;
        const bool live = row < a.rows;
        const int64_t r0 = live ? row : 0;
        const float ls = hsm_bwd_chunk_load<T, VEC, C>(a, y + r0 * a.x_stride, hsm_in2_row(a, r0), 0,
                                                       live ? a.cols : 0, lane, W, yv, dv);
        const float s = a.op.stats_in != NULL ? hsm_bwd_given(a, r0) : hsm_warp_sum(ls, W);
        if (live && a.op.no_out && lane == 0)
            hsm_bwd_stats(a, s, row);
        if (live && !a.op.no_out)
            hsm_bwd_chunk_store<VEC, C>(a, hsm_out_row(a, row), 0, a.cols, lane, W, yv, dv, s);
    }
}

#define HSM_WARP_KERNEL(NAME, T, VEC, C, BODY)                                                        \
    extern "C" __global__ void __launch_bounds__(HSM_WARP_BLOCK) NAME(hsm_args a)                    \
    {                                                                                                 \
        BODY<T, VEC, C>(a);                                                                           \
    }
#define HSM_WARP_ENTRY_P(NAME, KOP, DT, VEC, C, PEEL)                                                 \
    {#NAME, (const void *)NAME, HSM_FAMILY_WARP, KOP, DT, VEC, C, HSM_WARP_BLOCK, hsm_launch_plain, PEEL}
#define HSM_WARP_ENTRY(NAME, KOP, DT, VEC, C) HSM_WARP_ENTRY_P(NAME, KOP, DT, VEC, C, 0)

/* Elements per lane: the vector paths hold 1 to 8 accesses of 16 bytes, the scalar paths 1 to 32
 * elements; 32 fp32 values per lane is where register use starts to cost occupancy. One set per body:
 * plain (no suffix), forward with options (_fwd), backward (_bwd). */
#define HSM_WARP_SET(SFX, KS, T, VEC, BODY)                                                           \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s1##KS, T, 1, 1, BODY)                                           \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s2##KS, T, 1, 2, BODY)                                           \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s4##KS, T, 1, 4, BODY)                                           \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s8##KS, T, 1, 8, BODY)                                           \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s16##KS, T, 1, 16, BODY)                                         \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s32##KS, T, 1, 32, BODY)                                         \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v1##KS, T, VEC, VEC, BODY)                                       \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v2##KS, T, VEC, 2 * VEC, BODY)                                   \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v4##KS, T, VEC, 4 * VEC, BODY)                                   \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v8##KS, T, VEC, 8 * VEC, BODY)
#define HSM_WARP_SET_ENTRIES(SFX, KS, KOP, DT, VEC)                                                   \
    HSM_WARP_ENTRY(hsm_warp_##SFX##_s1##KS, KOP, DT, 1, 1), HSM_WARP_ENTRY(hsm_warp_##SFX##_s2##KS, KOP, DT, 1, 2), \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s4##KS, KOP, DT, 1, 4),                                       \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s8##KS, KOP, DT, 1, 8),                                       \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s16##KS, KOP, DT, 1, 16),                                     \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s32##KS, KOP, DT, 1, 32),                                     \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_v1##KS, KOP, DT, VEC, VEC),                                   \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_v2##KS, KOP, DT, VEC, 2 * VEC),                               \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_v4##KS, KOP, DT, VEC, 4 * VEC),                               \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_v8##KS, KOP, DT, VEC, 8 * VEC)
#define HSM_WARP_ALL(SFX, T, VEC)                                                                     \
    HSM_WARP_SET(SFX, , T, VEC, hsm_warp_body)                                                        \
    HSM_WARP_SET(SFX, _fwd, T, VEC, hsm_warp_fwd_body)                                                \
    HSM_WARP_SET(SFX, _bwd, T, VEC, hsm_warp_bwd_body)
#define HSM_WARP_ALL_ENTRIES(SFX, DT, VEC)                                                            \
    HSM_WARP_SET_ENTRIES(SFX, , HSM_KOP_PLAIN, DT, VEC), HSM_WARP_SET_ENTRIES(SFX, _fwd, HSM_KOP_FWD, DT, VEC), \
        HSM_WARP_SET_ENTRIES(SFX, _bwd, HSM_KOP_BWD, DT, VEC)

/* The plain forward's vector kernels peeled (hsm_warp_peel_body), _peel: 1 to 8 accesses a lane. */
#define HSM_WARP_PEEL_SET(SFX, T, VEC)                                                                \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v1_peel, T, VEC, VEC, hsm_warp_peel_body)                        \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v2_peel, T, VEC, 2 * VEC, hsm_warp_peel_body)                    \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v4_peel, T, VEC, 4 * VEC, hsm_warp_peel_body)                    \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v8_peel, T, VEC, 8 * VEC, hsm_warp_peel_body)
#define HSM_WARP_PEEL_ENTRIES(SFX, DT, VEC)                                                           \
    HSM_WARP_ENTRY_P(hsm_warp_##SFX##_v1_peel, HSM_KOP_PLAIN, DT, VEC, VEC, 1),                       \
        HSM_WARP_ENTRY_P(hsm_warp_##SFX##_v2_peel, HSM_KOP_PLAIN, DT, VEC, 2 * VEC, 1),               \
        HSM_WARP_ENTRY_P(hsm_warp_##SFX##_v4_peel, HSM_KOP_PLAIN, DT, VEC, 4 * VEC, 1),               \
        HSM_WARP_ENTRY_P(hsm_warp_##SFX##_v8_peel, HSM_KOP_PLAIN, DT, VEC, 8 * VEC, 1)

HSM_WARP_ALL(f32, float, 4)
HSM_WARP_ALL(f16, hsm_f16, 8)
HSM_WARP_ALL(bf16, hsm_bf16, 8)
HSM_WARP_PEEL_SET(f32, float, 4)
HSM_WARP_PEEL_SET(f16, hsm_f16, 8)
HSM_WARP_PEEL_SET(bf16, hsm_bf16, 8)

static const hsm_kernel hsm_warp_table[] = {
    HSM_WARP_ALL_ENTRIES(f32, HSM_F32, 4),
    HSM_WARP_ALL_ENTRIES(f16, HSM_F16, 8),
    HSM_WARP_ALL_ENTRIES(bf16, HSM_BF16, 8),
    HSM_WARP_PEEL_ENTRIES(f32, HSM_F32, 4),
    HSM_WARP_PEEL_ENTRIES(f16, HSM_F16, 8),
    HSM_WARP_PEEL_ENTRIES(bf16, HSM_BF16, 8),
};

extern "C" const hsm_kernel *hsm_warp_kernels(size_t *count)
{
    *count = sizeof hsm_warp_table / sizeof hsm_warp_table[0];
    return hsm_warp_table;
}
