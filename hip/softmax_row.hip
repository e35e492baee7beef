/* softmax_row.hip: the persistent row family (the Triton tutorial's kernel). A block holds one row in
 * registers, C elements per thread, reads it once and writes it once, then moves on to the row
 * `gridDim.x` further; the grid is sized from the kernel's occupancy so every block stays resident. */
#include "softmax_common.h"

#define HSM_ROW_MAX_BLOCK 1024

template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_row_body(const hsm_args a)
{
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS];
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    float v[C];

    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
        const float m = hsm_block_max(
            hsm_chunk_load<T, VEC, C>(x + row * a.x_stride, 0, a.cols, threadIdx.x, blockDim.x, v), red_max);
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < C; i++) {
            v[i] = hsm_exp(v[i], m);
            s += v[i];
        }
        s = hsm_block_sum(s, red_sum);
        hsm_chunk_store<T, VEC, C>(y + row * a.y_stride, 0, a.cols, threadIdx.x, blockDim.x, v, 1.0f / s);
    }
}

/* The pipelined variant: the next row's loads are issued before the current row's reductions, so
 * each block keeps DRAM busy while it waits at its barriers (hsm_raw_*, softmax_common.h). */
template <typename T, int VEC, int NP>
__device__ __forceinline__ void hsm_rowp_one(const hsm_args &a, int64_t row, const hsm_raw<T, VEC, NP> &cur,
                                             hsm_raw<T, VEC, NP> &nxt, float *red_max, float *red_sum)
{
    const int64_t next = row + gridDim.x;
    if (next < a.rows)
        hsm_raw_fetch((const T *)a.x + next * a.x_stride, 0, a.cols, nxt);
    const float m = hsm_block_max(hsm_raw_max(cur), red_max);
    const float inv = 1.0f / hsm_block_sum(hsm_raw_sumexp(cur, m), red_sum);
    hsm_raw_store((T *)a.y + row * a.y_stride, 0, a.cols, cur, m, inv);
}

template <typename T, int VEC, int NP>
__device__ __forceinline__ void hsm_rowp_body(const hsm_args a)
{
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS];
    hsm_raw<T, VEC, NP> ra, rb;
    int64_t row = blockIdx.x;
    if (row < a.rows)
        hsm_raw_fetch((const T *)a.x + row * a.x_stride, 0, a.cols, ra);
    /* Two rows per trip, so the two buffers trade places without a copy. */
    for (; row < a.rows; row += 2 * (int64_t)gridDim.x) {
        hsm_rowp_one(a, row, ra, rb, red_max, red_sum);
        if (row + gridDim.x >= a.rows)
            break;
        hsm_rowp_one(a, row + gridDim.x, rb, ra, red_max, red_sum);
    }
}

static int hsm_row_launch(const hsm_kernel *k, const hsm_launch *a)
{
    return hsm_launch_plain((void (*)(hsm_args))k->func, a);
}

#define HSM_ROW_KERNEL(NAME, T, VEC, C)                                                               \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_body<T, VEC, C>(a);                                                                   \
    }
#define HSM_ROW_ENTRY(NAME, DT, VEC, C)                                                               \
    {#NAME, (const void *)NAME, HSM_FAMILY_ROW, DT, VEC, C, HSM_ROW_MAX_BLOCK, hsm_row_launch, 0}
#define HSM_ROWP_KERNEL(NAME, T, VEC, NP)                                                             \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_rowp_body<T, VEC, NP>(a);                                                                 \
    }
#define HSM_ROWP_ENTRY(NAME, DT, VEC, C)                                                              \
    {#NAME, (const void *)NAME, HSM_FAMILY_ROW, DT, VEC, C, HSM_ROW_MAX_BLOCK, hsm_row_launch, 1}

/* Elements per thread: at most 32 fp32 values on the vector path and 16 on the scalar one (whose
 * per-element addressing costs registers), so a 1024-thread block fits in its 64 registers per thread
 * without spilling: rows of up to 32K (16K unaligned) elements stay in registers. */
#define HSM_ROW_SET(SFX, T, VEC)                                                                      \
    HSM_ROW_KERNEL(hsm_row_##SFX##_s1, T, 1, 1)                                                       \
    HSM_ROW_KERNEL(hsm_row_##SFX##_s2, T, 1, 2)                                                       \
    HSM_ROW_KERNEL(hsm_row_##SFX##_s4, T, 1, 4)                                                       \
    HSM_ROW_KERNEL(hsm_row_##SFX##_s8, T, 1, 8)                                                       \
    HSM_ROW_KERNEL(hsm_row_##SFX##_s16, T, 1, 16)                                                     \
    HSM_ROW_KERNEL(hsm_row_##SFX##_v8, T, VEC, 8)                                                     \
    HSM_ROW_KERNEL(hsm_row_##SFX##_v16, T, VEC, 16)                                                   \
    HSM_ROW_KERNEL(hsm_row_##SFX##_v32, T, VEC, 32)
#define HSM_ROW_SET_ENTRIES(SFX, DT, VEC)                                                             \
    HSM_ROW_ENTRY(hsm_row_##SFX##_s1, DT, 1, 1), HSM_ROW_ENTRY(hsm_row_##SFX##_s2, DT, 1, 2),         \
        HSM_ROW_ENTRY(hsm_row_##SFX##_s4, DT, 1, 4), HSM_ROW_ENTRY(hsm_row_##SFX##_s8, DT, 1, 8),     \
        HSM_ROW_ENTRY(hsm_row_##SFX##_s16, DT, 1, 16), \
        HSM_ROW_ENTRY(hsm_row_##SFX##_v8, DT, VEC, 8), HSM_ROW_ENTRY(hsm_row_##SFX##_v16, DT, VEC, 16), \
        HSM_ROW_ENTRY(hsm_row_##SFX##_v32, DT, VEC, 32)

HSM_ROW_SET(f32, float, 4)
HSM_ROW_SET(f16, hsm_f16, 8)
HSM_ROW_SET(bf16, hsm_bf16, 8)
/* Pipelined: two chunks per thread in flight, 16-byte accesses only, up to 16 values per chunk
 * (more spills at 1024 threads). */
HSM_ROWP_KERNEL(hsm_row_f32_p8, float, 4, 2)
HSM_ROWP_KERNEL(hsm_row_f32_p16, float, 4, 4)
HSM_ROWP_KERNEL(hsm_row_f16_p8, hsm_f16, 8, 1)
HSM_ROWP_KERNEL(hsm_row_f16_p16, hsm_f16, 8, 2)
HSM_ROWP_KERNEL(hsm_row_bf16_p8, hsm_bf16, 8, 1)
HSM_ROWP_KERNEL(hsm_row_bf16_p16, hsm_bf16, 8, 2)

static const hsm_kernel hsm_row_table[] = {
    HSM_ROW_SET_ENTRIES(f32, HSM_F32, 4),
    HSM_ROW_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_ROW_SET_ENTRIES(bf16, HSM_BF16, 8),
    HSM_ROWP_ENTRY(hsm_row_f32_p8, HSM_F32, 4, 8),
    HSM_ROWP_ENTRY(hsm_row_f32_p16, HSM_F32, 4, 16),
    HSM_ROWP_ENTRY(hsm_row_f16_p8, HSM_F16, 8, 8),
    HSM_ROWP_ENTRY(hsm_row_f16_p16, HSM_F16, 8, 16),
    HSM_ROWP_ENTRY(hsm_row_bf16_p8, HSM_BF16, 8, 8),
    HSM_ROWP_ENTRY(hsm_row_bf16_p16, HSM_BF16, 8, 16),
};

extern "C" const hsm_kernel *hsm_row_kernels(size_t *count)
{
    *count = sizeof hsm_row_table / sizeof hsm_row_table[0];
    return hsm_row_table;
}
