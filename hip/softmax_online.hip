/* softmax_online.hip: the long-row family that needs no co-residency. One block streams its row twice:
 * the first pass keeps a running (max, sum) per thread, rescaling the sum whenever the max grows
 * (Milakov and Gimelshein's online normalizer), the second pass writes exp(x - max) / sum. The first
 * `cached_tiles` tiles of the row are also kept in shared memory/LDS as loaded, so the second pass
 * reads them from there; the rest is re-read backwards, the end of the row first, since that was read
 * last and is the part most likely still in L2. DRAM is read at most twice and written once. Correct
 * for any row length; the plan uses it for many rows too long for ROW. */
#include "softmax_common.h"

#define HSM_ONLINE_BLOCK 1024
#define HSM_ONLINE_UNROLL 4 /* accesses in flight per thread per tile */

/* One tile: HSM_ONLINE_UNROLL accesses per thread, in the hsm_chunk_load layout. Reads the tile from
 * `cache` when given (each thread reads back exactly the packs it stored, so no barrier is needed),
 * else from x; stores the raw packs into `keep` when given. Returns the tile's max. */
template <typename T, int VEC>
__device__ __forceinline__ float hsm_online_tile(const T *xr, int64_t col0, int64_t cols, const hsm_pack<T, VEC> *cache,
                                                 hsm_pack<T, VEC> *keep, float *v)
{
    float m = HSM_NEG_INF;
#pragma unroll
    for (int p = 0; p < HSM_ONLINE_UNROLL; p++) {
        const int64_t col = col0 + ((int64_t)p * blockDim.x + threadIdx.x) * VEC;
        const int at = p * blockDim.x + threadIdx.x;
        const hsm_pack<T, VEC> pk = cache != NULL ? cache[at] : hsm_load_pack<T, VEC>(xr, col, cols);
        if (keep != NULL)
            keep[at] = pk;
#pragma unroll
        for (int i = 0; i < VEC; i++) {
            v[p * VEC + i] = hsm_to_float(pk.v[i]);
            m = hsm_max(m, v[p * VEC + i]);
        }
    }
    return m;
}

template <typename T, int VEC>
__device__ __forceinline__ void hsm_online_body(const hsm_args a)
{
    constexpr int C = VEC * HSM_ONLINE_UNROLL;
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS];
    extern __shared__ __align__(16) unsigned char hsm_online_cache[]; /* holds 16-byte packs */
    hsm_pack<T, VEC> *cache = reinterpret_cast<hsm_pack<T, VEC> *>(hsm_online_cache);
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    const int64_t step = (int64_t)blockDim.x * C;
    const int64_t tile_packs = (int64_t)blockDim.x * HSM_ONLINE_UNROLL;
    float v[C];

    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
        const T *xr = x + row * a.x_stride;
        float m = HSM_NEG_INF, s = 0.0f;
        int64_t t = 0;
        for (int64_t col0 = 0; col0 < a.cols; col0 += step, t++) {
            hsm_pack<T, VEC> *keep = t < a.cached_tiles ? cache + t * tile_packs : NULL;
            const float vmax = hsm_online_tile<T, VEC>(xr, col0, a.cols, NULL, keep, v);
            hsm_online_fold<C>(v, vmax, m, s);
        }
        const float mx = hsm_block_max(m, red_max);
        const float inv = 1.0f / hsm_block_sum(s * hsm_rescale(m, mx), red_sum);
        T *yr = y + row * a.y_stride;
        for (t = t - 1; t >= 0; t--) {
            const int64_t col0 = t * step;
            const hsm_pack<T, VEC> *from = t < a.cached_tiles ? cache + t * tile_packs : NULL;
            hsm_online_tile<T, VEC>(xr, col0, a.cols, from, NULL, v);
#pragma unroll
            for (int i = 0; i < C; i++)
                v[i] = hsm_exp(v[i], mx);
            hsm_chunk_store<T, VEC, C>(yr, col0, a.cols, threadIdx.x, blockDim.x, v, inv);
        }
    }
}

#define HSM_ONLINE_KERNEL(NAME, T, VEC)                                                               \
    extern "C" __global__ void __launch_bounds__(HSM_ONLINE_BLOCK) NAME(hsm_args a)                  \
    {                                                                                                 \
        hsm_online_body<T, VEC>(a);                                                                   \
    }
#define HSM_ONLINE_ENTRY(NAME, DT, VEC)                                                               \
    {#NAME, (const void *)NAME, HSM_FAMILY_ONLINE, DT, VEC, VEC * HSM_ONLINE_UNROLL, HSM_ONLINE_BLOCK, hsm_launch_plain}

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
