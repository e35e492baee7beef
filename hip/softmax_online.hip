/* softmax_online.hip: the long-row family that needs no co-residency. One block streams its row twice:
 * the first pass keeps a running (max, sum) per thread, rescaling the sum whenever the max grows
 * (Milakov and Gimelshein's online normalizer), the second pass writes exp(x - max) / sum. DRAM is read
 * at most twice (the second read hits L2 while rows in flight fit there) and written once. Correct for
 * any row length; the plan uses it where the on-chip families cannot hold the row. */
#include "softmax_common.h"

#define HSM_ONLINE_BLOCK 1024
#define HSM_ONLINE_UNROLL 4 /* accesses in flight per thread per step */

template <typename T, int VEC>
__device__ __forceinline__ void hsm_online_body(const hsm_args a)
{
    constexpr int C = VEC * HSM_ONLINE_UNROLL;
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS];
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    const int64_t step = (int64_t)blockDim.x * C;
    float v[C];

    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
        const T *xr = x + row * a.x_stride;
        float m = HSM_NEG_INF, s = 0.0f;
        for (int64_t col0 = 0; col0 < a.cols; col0 += step) {
            const float vmax = hsm_chunk_load<T, VEC, C>(xr, col0, a.cols, threadIdx.x, blockDim.x, v);
            hsm_online_fold<C>(v, vmax, m, s);
        }
        const float mx = hsm_block_max(m, red_max);
        const float inv = 1.0f / hsm_block_sum(s * hsm_rescale(m, mx), red_sum);
        T *yr = y + row * a.y_stride;
        /* Backwards: the end of the row was read last, so it is the part most likely still in L2. */
        for (int64_t col0 = (a.cols - 1) / step * step; col0 >= 0; col0 -= step) {
            hsm_chunk_load<T, VEC, C>(xr, col0, a.cols, threadIdx.x, blockDim.x, v);
#pragma unroll
            for (int i = 0; i < C; i++)
                v[i] = hsm_exp(v[i], mx);
            hsm_chunk_store<T, VEC, C>(yr, col0, a.cols, threadIdx.x, blockDim.x, v, inv);
        }
    }
}

static int hsm_online_launch(const hsm_kernel *k, const hsm_launch *a)
{
    return hsm_launch_plain((void (*)(hsm_args))k->func, a);
}

#define HSM_ONLINE_KERNEL(NAME, T, VEC)                                                               \
    extern "C" __global__ void __launch_bounds__(HSM_ONLINE_BLOCK) NAME(hsm_args a)                  \
    {                                                                                                 \
        hsm_online_body<T, VEC>(a);                                                                   \
    }
#define HSM_ONLINE_ENTRY(NAME, DT, VEC)                                                               \
    {#NAME, (const void *)NAME, HSM_FAMILY_ONLINE, DT, VEC, 0, HSM_ONLINE_BLOCK, hsm_online_launch}

HSM_ONLINE_KERNEL(hsm_online_f32_s, float, 1)
HSM_ONLINE_KERNEL(hsm_online_f32_v, float, 4)
HSM_ONLINE_KERNEL(hsm_online_f16_s, hsm_f16, 1)
HSM_ONLINE_KERNEL(hsm_online_f16_v, hsm_f16, 8)
HSM_ONLINE_KERNEL(hsm_online_bf16_s, hsm_bf16, 1)
HSM_ONLINE_KERNEL(hsm_online_bf16_v, hsm_bf16, 8)

static const hsm_kernel hsm_online_table[] = {
    HSM_ONLINE_ENTRY(hsm_online_f32_s, HSM_F32, 1),   HSM_ONLINE_ENTRY(hsm_online_f32_v, HSM_F32, 4),
    HSM_ONLINE_ENTRY(hsm_online_f16_s, HSM_F16, 1),   HSM_ONLINE_ENTRY(hsm_online_f16_v, HSM_F16, 8),
    HSM_ONLINE_ENTRY(hsm_online_bf16_s, HSM_BF16, 1), HSM_ONLINE_ENTRY(hsm_online_bf16_v, HSM_BF16, 8),
};

extern "C" const hsm_kernel *hsm_online_kernels(size_t *count)
{
    *count = sizeof hsm_online_table / sizeof hsm_online_table[0];
    return hsm_online_table;
}
