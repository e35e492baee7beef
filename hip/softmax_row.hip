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

    /* Each row is laid out from the line that holds its start (hsm_line_lead); the columns its lead
     * leaves at the end go to the first access of the lanes before the start (hsm_chunk_load's wrap:
     * the plan's rows are never longer than a block's chunk). The scalar path has no lead. */
    const int64_t wrap = sizeof(hsm_pack<T, VEC>) == 16 ? (int64_t)blockDim.x * C : 0;
    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
        const T *xr = x + row * a.x_stride;
        const int lead = hsm_line_lead<T, VEC>(xr);
        const float m =
            hsm_block_max(hsm_chunk_load<T, VEC, C>(xr, -lead, a.cols, threadIdx.x, blockDim.x, v, wrap), red_max);
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < C; i++) {
            v[i] = hsm_exp(v[i], m);
            s += v[i];
        }
        s = hsm_block_sum(s, red_sum);
        hsm_chunk_store<T, VEC, C>(y + row * a.y_stride, -lead, a.cols, threadIdx.x, blockDim.x, v, 1.0f / s, wrap);
    }
}

/* 16-bit rows held as stored: C values in C / 2 registers instead of C, so a 1024-thread block holds
 * twice the row (64K columns, 128 KiB, as many bytes as the fp32 kernels hold) and shorter rows leave
 * room for twice the resident blocks. The values are converted again for the sum and for the store,
 * and each exponential computed twice: instructions traded for bytes in flight. Each thread's part is
 * C / 8 16-byte packs of four words (hsm_lo_to_float). */
template <typename T, int C>
__device__ __forceinline__ void hsm_row_packed_body(const hsm_args a)
{
    constexpr int NP = C / 8;
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS];
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    uint32_t w[4 * NP];
    /* Pack p of a thread lies p * step elements after its first: one base and one step, where 64-bit
     * addresses per pack would cost the registers the row needs. The row is laid out from its line as
     * in hsm_row_body: pack 0 of the lanes before the row's start moves one chunk (NP * step) on. */
    const int64_t first = (int64_t)threadIdx.x * 8, step = (int64_t)blockDim.x * 8;

    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
        const T *xrow = x + row * a.x_stride;
        T *yrow = y + row * a.y_stride;
        const int lead = hsm_line_lead<T, 8>(xrow);
        const int64_t f0 = first - lead, c0 = f0 < 0 ? f0 + NP * step : f0; /* pack 0's column */
        const T *xr = xrow + f0; /* packs 1.. from here */
        T *yr = yrow + f0;
        const int64_t left = a.cols - f0;
#pragma unroll
        for (int p = 0; p < NP; p++) {
            if (p == 0 ? c0 < a.cols : p * step < left) {
                const hsm_pack<uint32_t, 4> pk =
                    *reinterpret_cast<const hsm_pack<uint32_t, 4> *>(p == 0 ? xrow + c0 : xr + p * step);
#pragma unroll
                for (int i = 0; i < 4; i++)
                    w[4 * p + i] = pk.v[i];
            } else {
#pragma unroll
                for (int i = 0; i < 4; i++)
                    w[4 * p + i] = hsm_neg_inf_word<T>();
            }
        }
        const float m = hsm_block_max(hsm_words_max<T, 4 * NP>(w), red_max);
        float s = 0.0f;
#pragma unroll
        for (int p = 0; p < NP; p++)
#pragma unroll
            for (int i = 0; i < 4; i++) {
                s += hsm_exp(hsm_lo_to_float(w[4 * p + i], T{}), m);
                s += hsm_exp(hsm_hi_to_float(w[4 * p + i], T{}), m);
            }
        const float inv = 1.0f / hsm_block_sum(s, red_sum);
        /* Left to itself the compiler keeps the sum's conversions for the store: twice the
         * registers, spilled. The store converts again from the words. */
#pragma unroll
        for (int i = 0; i < 4 * NP; i++)
            w[i] = hsm_opaque(w[i]);
#pragma unroll
        for (int p = 0; p < NP; p++) {
            if (p == 0 ? c0 < a.cols : p * step < left) {
                float f[8];
#pragma unroll
                for (int i = 0; i < 4; i++) {
                    f[2 * i] = hsm_exp(hsm_lo_to_float(w[4 * p + i], T{}), m);
                    f[2 * i + 1] = hsm_exp(hsm_hi_to_float(w[4 * p + i], T{}), m);
                }
                hsm_store<T, 8>(p == 0 ? yrow + c0 : yr + p * step, f, inv);
            }
        }
    }
}

#define HSM_ROW_KERNEL(NAME, T, VEC, C)                                                               \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_body<T, VEC, C>(a);                                                                   \
    }
#define HSM_ROW_PACKED_KERNEL(NAME, T, VEC, C)                                                        \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_packed_body<T, C>(a);                                                            \
    }
#define HSM_ROW_ENTRY(NAME, DT, VEC, C)                                                               \
    {#NAME, (const void *)NAME, HSM_FAMILY_ROW, DT, VEC, C, HSM_ROW_MAX_BLOCK, hsm_launch_plain}
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
/* Chunks between the power-of-two ones, for rows just longer than a smaller chunk holds in a full
 * block: there the larger chunk gives one block of a few hundred threads per SM (src/plan.c). */
#define HSM_ROW_PACKED_SET(SFX, T)                                                                    \
    HSM_ROW_PACKED_KERNEL(hsm_row_##SFX##_p40, T, 8, 40)                                              \
    HSM_ROW_PACKED_KERNEL(hsm_row_##SFX##_p48, T, 8, 48)                                              \
    HSM_ROW_PACKED_KERNEL(hsm_row_##SFX##_p56, T, 8, 56)                                              \
    HSM_ROW_PACKED_KERNEL(hsm_row_##SFX##_p64, T, 8, 64)
#define HSM_ROW_PACKED_SET_ENTRIES(SFX, DT)                                                           \
    HSM_ROW_ENTRY(hsm_row_##SFX##_p40, DT, 8, 40), HSM_ROW_ENTRY(hsm_row_##SFX##_p48, DT, 8, 48),     \
        HSM_ROW_ENTRY(hsm_row_##SFX##_p56, DT, 8, 56), HSM_ROW_ENTRY(hsm_row_##SFX##_p64, DT, 8, 64)

HSM_ROW_SET(f32, float, 4)
HSM_ROW_KERNEL(hsm_row_f32_v20, float, 4, 20)
HSM_ROW_KERNEL(hsm_row_f32_v24, float, 4, 24)
HSM_ROW_KERNEL(hsm_row_f32_v28, float, 4, 28)
HSM_ROW_SET(f16, hsm_f16, 8)
HSM_ROW_PACKED_SET(f16, hsm_f16)
HSM_ROW_SET(bf16, hsm_bf16, 8)
HSM_ROW_PACKED_SET(bf16, hsm_bf16)
/* In ascending chunk size per dtype and vector width: the plan relies on it. */
static const hsm_kernel hsm_row_table[] = {
    HSM_ROW_ENTRY(hsm_row_f32_s1, HSM_F32, 1, 1), HSM_ROW_ENTRY(hsm_row_f32_s2, HSM_F32, 1, 2),
    HSM_ROW_ENTRY(hsm_row_f32_s4, HSM_F32, 1, 4), HSM_ROW_ENTRY(hsm_row_f32_s8, HSM_F32, 1, 8),
    HSM_ROW_ENTRY(hsm_row_f32_s16, HSM_F32, 1, 16),
    HSM_ROW_ENTRY(hsm_row_f32_v8, HSM_F32, 4, 8), HSM_ROW_ENTRY(hsm_row_f32_v16, HSM_F32, 4, 16),
    HSM_ROW_ENTRY(hsm_row_f32_v20, HSM_F32, 4, 20), HSM_ROW_ENTRY(hsm_row_f32_v24, HSM_F32, 4, 24),
    HSM_ROW_ENTRY(hsm_row_f32_v28, HSM_F32, 4, 28), HSM_ROW_ENTRY(hsm_row_f32_v32, HSM_F32, 4, 32),
    HSM_ROW_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_ROW_PACKED_SET_ENTRIES(f16, HSM_F16),
    HSM_ROW_SET_ENTRIES(bf16, HSM_BF16, 8),
    HSM_ROW_PACKED_SET_ENTRIES(bf16, HSM_BF16),
};

extern "C" const hsm_kernel *hsm_row_kernels(size_t *count)
{
    *count = sizeof hsm_row_table / sizeof hsm_row_table[0];
    return hsm_row_table;
}
