/* softmax_warp.hip: the tiny-row family. A group of `group_width` lanes (a power of two up to the warp
 * size) holds one row in registers, C elements per lane, so a warp serves several rows at once and no
 * block barrier is needed. Reads each element once and writes it once. */
#include "softmax_common.h"

#define HSM_WARP_BLOCK 128

template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_warp_body(const hsm_args a)
{
    const int W = a.group_width;
    const int lane = threadIdx.x % W;
    const int64_t groups_per_block = blockDim.x / W;
    const int64_t ngroups = (int64_t)gridDim.x * groups_per_block;
    const int64_t group = (int64_t)blockIdx.x * groups_per_block + threadIdx.x / W;
    /* The loop bound is the first group of the warp, so all lanes of a warp run the same iterations
     * and every shuffle has all its lanes; groups past the last row only skip their loads and stores. */
    const int64_t warp_first =
        (int64_t)blockIdx.x * groups_per_block + (threadIdx.x / HSM_WARP_SIZE) * (HSM_WARP_SIZE / W);
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    float v[C];

    for (int64_t base = warp_first; base < a.rows; base += ngroups) {
        const int64_t row = base + (group - warp_first);
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

#define HSM_WARP_KERNEL(NAME, T, VEC, C)                                                              \
    extern "C" __global__ void __launch_bounds__(HSM_WARP_BLOCK) NAME(hsm_args a)                    \
    {                                                                                                 \
        hsm_warp_body<T, VEC, C>(a);                                                                  \
    }
#define HSM_WARP_ENTRY(NAME, DT, VEC, C)                                                              \
    {#NAME, (const void *)NAME, HSM_FAMILY_WARP, DT, VEC, C, HSM_WARP_BLOCK, hsm_launch_plain}

/* Elements per lane: the vector paths hold 1 to 8 accesses of 16 bytes, the scalar paths 1 to 32
 * elements; 32 fp32 values per lane is where register use starts to cost occupancy. */
#define HSM_WARP_SET(SFX, T, DT, VEC)                                                                 \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s1, T, 1, 1)                                                     \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s2, T, 1, 2)                                                     \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s4, T, 1, 4)                                                     \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s8, T, 1, 8)                                                     \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s16, T, 1, 16)                                                   \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s32, T, 1, 32)                                                   \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v1, T, VEC, VEC)                                                 \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v2, T, VEC, 2 * VEC)                                             \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v4, T, VEC, 4 * VEC)                                             \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v8, T, VEC, 8 * VEC)
#define HSM_WARP_SET_ENTRIES(SFX, DT, VEC)                                                            \
    HSM_WARP_ENTRY(hsm_warp_##SFX##_s1, DT, 1, 1), HSM_WARP_ENTRY(hsm_warp_##SFX##_s2, DT, 1, 2),     \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s4, DT, 1, 4), HSM_WARP_ENTRY(hsm_warp_##SFX##_s8, DT, 1, 8), \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s16, DT, 1, 16),                                              \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s32, DT, 1, 32),                                              \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_v1, DT, VEC, VEC),                                            \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_v2, DT, VEC, 2 * VEC),                                        \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_v4, DT, VEC, 4 * VEC),                                        \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_v8, DT, VEC, 8 * VEC)

HSM_WARP_SET(f32, float, HSM_F32, 4)
HSM_WARP_SET(f16, hsm_f16, HSM_F16, 8)
HSM_WARP_SET(bf16, hsm_bf16, HSM_BF16, 8)

static const hsm_kernel hsm_warp_table[] = {
    HSM_WARP_SET_ENTRIES(f32, HSM_F32, 4),
    HSM_WARP_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_WARP_SET_ENTRIES(bf16, HSM_BF16, 8),
};

extern "C" const hsm_kernel *hsm_warp_kernels(size_t *count)
{
    *count = sizeof hsm_warp_table / sizeof hsm_warp_table[0];
    return hsm_warp_table;
}
