/* softmax_split.hip: the family for rows longer than one block can hold, and for few long rows. A group
 * of `blocks_per_row` co-resident blocks (a cooperative launch guarantees co-residency) shares one row:
 * each block keeps its chunk of the row in registers, the group exchanges per-block (max, sum) through
 * a small workspace and a group barrier, and each block then writes its chunk from registers, so DRAM
 * is read once. Columns past what the group holds (rows longer than the whole GPU's registers) are
 * streamed with an online (max, sum) and re-read in reverse order, so the re-read finds them in L2. */
#include "softmax_common.h"

#define HSM_SPLIT_UNROLL 2 /* accesses in flight per thread on the streamed columns */

/* Workspace: a (count, generation) barrier pair per possible group, then (max, sum) per block for two
 * rounds. The layout depends only on the workspace's size, never on a launch's grid: the barrier words
 * of one launch must never lie where another launch wrote partials. */
extern "C" size_t hsm_split_workspace_bytes(int grid)
{
    return (size_t)grid * (2 * sizeof(unsigned) + 2 * 2 * sizeof(float));
}

/* Barrier among the k blocks of one group. The count returns to zero at every crossing and the
 * generation only grows, so the workspace needs zeroing once, not per launch. */
__device__ __forceinline__ void hsm_group_barrier(unsigned *bar, unsigned k)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile unsigned *gen = bar + 1;
        const unsigned g = *gen;
        __threadfence(); /* publish this block's partial before arriving */
        if (atomicAdd(bar, 1u) == k - 1) {
            atomicExch(bar, 0u);
            __threadfence();
            atomicAdd(bar + 1, 1u);
        } else {
            while (*gen == g)
                hsm_spin_pause();
        }
        __threadfence();
    }
    __syncthreads();
}

template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_split_body(const hsm_args a)
{
    constexpr int U = VEC * HSM_SPLIT_UNROLL;
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS];
    const int k = a.blocks_per_row;
    const int64_t ngroups = gridDim.x / k;
    const int64_t g = blockIdx.x / k;
    const int j = blockIdx.x % k;
    if (g >= ngroups)
        return;
    unsigned *bar = a.workspace + 2 * g;
    volatile float *part = (volatile float *)(a.workspace + 2 * (size_t)a.workspace_blocks);
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    const int64_t chunk = (int64_t)blockDim.x * C;
    const int64_t col0 = j * chunk;
    const int64_t resident = chunk * k;
    const int64_t tile = (int64_t)blockDim.x * U;
    const int64_t ntiles = a.cols > resident + j * tile ? (a.cols - resident - j * tile + k * tile - 1) / (k * tile) : 0;
    float v[C], w[U];
    int parity = 0;

    for (int64_t row = g; row < a.rows; row += ngroups, parity ^= 1) {
        const T *xr = x + row * a.x_stride;
        T *yr = y + row * a.y_stride;
        const float lm = hsm_chunk_load<T, VEC, C>(xr, col0, a.cols, threadIdx.x, blockDim.x, v);
        float om = HSM_NEG_INF, os = 0.0f;
        for (int64_t t = 0; t < ntiles; t++) {
            const int64_t t0 = resident + (t * k + j) * tile;
            const float wmax = hsm_chunk_load<T, VEC, U>(xr, t0, a.cols, threadIdx.x, blockDim.x, w);
            hsm_online_fold<U>(w, wmax, om, os);
        }

        /* This block's (max, sum); a chunk of only -inf gives (-inf, 0) rather than NaN. */
        const float bm = hsm_block_max(hsm_max(lm, om), red_max);
        const float shift = bm == HSM_NEG_INF ? 0.0f : bm;
        float ls = os * hsm_rescale(om, shift);
#pragma unroll
        for (int i = 0; i < C; i++) {
            v[i] = hsm_exp(v[i], shift);
            ls += v[i];
        }
        const float bs = hsm_block_sum(ls, red_sum);
        volatile float *mine = part + 2 * ((size_t)parity * gridDim.x + blockIdx.x);
        if (threadIdx.x == 0) {
            mine[0] = bm;
            mine[1] = bs;
        }
        hsm_group_barrier(bar, (unsigned)k);

        /* Combine the group's partials in a fixed order, so every block gets bit-identical results. */
        volatile float *grp = part + 2 * ((size_t)parity * gridDim.x + (size_t)g * k);
        float pm = HSM_NEG_INF;
        for (int i = threadIdx.x; i < k; i += blockDim.x)
            pm = hsm_max(pm, grp[2 * i]);
        const float mx = hsm_block_max(pm, red_max);
        float ps = 0.0f;
        for (int i = threadIdx.x; i < k; i += blockDim.x)
            ps += grp[2 * i + 1] * hsm_rescale(grp[2 * i], mx);
        const float sum = hsm_block_sum(ps, red_sum);

        hsm_chunk_store<T, VEC, C>(yr, col0, a.cols, threadIdx.x, blockDim.x, v, hsm_rescale(bm, mx) / sum);
        const float inv = 1.0f / sum;
        for (int64_t t = ntiles - 1; t >= 0; t--) {
            const int64_t t0 = resident + (t * k + j) * tile;
            hsm_chunk_load<T, VEC, U>(xr, t0, a.cols, threadIdx.x, blockDim.x, w);
#pragma unroll
            for (int i = 0; i < U; i++)
                w[i] = hsm_exp(w[i], mx);
            hsm_chunk_store<T, VEC, U>(yr, t0, a.cols, threadIdx.x, blockDim.x, w, inv);
        }
    }
}

static int hsm_split_launch(const hsm_kernel *k, const hsm_launch *a)
{
    hsm_args args = hsm_args_from(a);
    void *params[] = {&args};
    return (int)hipLaunchCooperativeKernel(k->func, dim3(a->grid), dim3(a->block), params,
                                           (unsigned)a->smem_bytes, (hipStream_t)a->stream);
}

/* Register budget: blocks of up to BOUND threads, at least MINB of them per SM/CU (256-thread
 * kernels: 2, so at most 128 registers and 16 warps resident for latency hiding). */
#define HSM_SPLIT_KERNEL(NAME, T, VEC, C, BOUND, MINB)                                                \
    extern "C" __global__ void __launch_bounds__(BOUND, MINB) NAME(hsm_args a)                        \
    {                                                                                                 \
        hsm_split_body<T, VEC, C>(a);                                                                 \
    }
#define HSM_SPLIT_ENTRY(NAME, DT, VEC, C, BOUND)                                                      \
    {#NAME, (const void *)NAME, HSM_FAMILY_SPLIT, DT, VEC, C, BOUND, hsm_split_launch}

/* Two register budgets: 24 values per thread in blocks of up to 1024 threads (64 registers each, no
 * spills), and 64 per thread in blocks of up to 256 (more of the row per block, so fewer blocks share a
 * row and each group barrier covers more bytes). The plan picks whichever holds more of the row. */
#define HSM_SPLIT_SET(SFX, T, DT, VEC)                                                                \
    HSM_SPLIT_KERNEL(hsm_split_##SFX##_s, T, 1, 12, 1024, 1)                                          \
    HSM_SPLIT_KERNEL(hsm_split_##SFX##_v, T, VEC, 24, 1024, 1)                                        \
    HSM_SPLIT_KERNEL(hsm_split_##SFX##_sw, T, 1, 32, 256, 2)                                          \
    HSM_SPLIT_KERNEL(hsm_split_##SFX##_vw, T, VEC, 64, 256, 2)
#define HSM_SPLIT_SET_ENTRIES(SFX, DT, VEC)                                                           \
    HSM_SPLIT_ENTRY(hsm_split_##SFX##_s, DT, 1, 12, 1024), HSM_SPLIT_ENTRY(hsm_split_##SFX##_v, DT, VEC, 24, 1024), \
        HSM_SPLIT_ENTRY(hsm_split_##SFX##_sw, DT, 1, 32, 256),                                        \
        HSM_SPLIT_ENTRY(hsm_split_##SFX##_vw, DT, VEC, 64, 256)

HSM_SPLIT_SET(f32, float, HSM_F32, 4)
HSM_SPLIT_SET(f16, hsm_f16, HSM_F16, 8)
HSM_SPLIT_SET(bf16, hsm_bf16, HSM_BF16, 8)

static const hsm_kernel hsm_split_table[] = {
    HSM_SPLIT_SET_ENTRIES(f32, HSM_F32, 4),
    HSM_SPLIT_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_SPLIT_SET_ENTRIES(bf16, HSM_BF16, 8),
};

extern "C" const hsm_kernel *hsm_split_kernels(size_t *count)
{
    *count = sizeof hsm_split_table / sizeof hsm_split_table[0];
    return hsm_split_table;
}
