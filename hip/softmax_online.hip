/* softmax_online.hip: the long-row family that needs no co-residency. One block streams its row twice:
 * the first pass keeps a running (max, sum) per thread, rescaling the sum whenever the max grows
 * (Milakov and Gimelshein's online normalizer), the second pass writes exp(x - max) / sum. The first
 * `cached_tiles` tiles of the row are also kept in shared memory/LDS as loaded, so the second pass
 * reads them from there; the rest is re-read backwards, the end of the row first, since that was read
 * last and is the part most likely still in L2. DRAM is read at most twice and written once. Correct
 * for any row length; the plan uses it for many rows too long for ROW. */
#include "softmax_ops.h"

#define HSM_ONLINE_BLOCK 1024
#define HSM_ONLINE_UNROLL 4 /* accesses in flight per thread per tile */
#define HSM_ONLINE_BWD_UNROLL 2 /* the backward holds two tensors' tiles */
#define HSM_ONLINE_STATS_UNROLL 6 /* accesses in flight per thread for the forward's statistics alone (8 spilled bf16) */

/* One tile: HSM_ONLINE_UNROLL accesses per thread, in the hsm_chunk_load layout. Reads the tile from
 * `cache` when given (each thread reads back exactly the packs it stored, so no barrier is needed),
 * else from x, columns [0, lim); stores the raw packs into `keep` when given. F: the values are u of
 * the forward with options (the row's mask read now), else x. Returns the tile's max. */
template <typename T, int VEC, bool F>
__device__ __forceinline__ float hsm_online_tile(const hsm_args &a, const hsm_row_ctx &rc, const T *xr, int64_t col0,
                                                 const hsm_pack<T, VEC> *cache, hsm_pack<T, VEC> *keep, float *v)
{
    float m = HSM_NEG_INF;
#pragma unroll
    for (int p = 0; p < HSM_ONLINE_UNROLL; p++) {
        const int64_t col = col0 + ((int64_t)p * blockDim.x + threadIdx.x) * VEC;
        const int at = p * blockDim.x + threadIdx.x;
        const hsm_pack<T, VEC> pk = cache != NULL ? cache[at] : hsm_load_pack<T, VEC>(xr, col, rc.lim);
        if (keep != NULL)
            keep[at] = pk;
        if constexpr (F) {
            if ((uint64_t)col < (uint64_t)rc.lim) {
                hsm_fwd_conv<T, VEC>(a, rc, pk, col, v + p * VEC);
            } else {
#pragma unroll
                for (int i = 0; i < VEC; i++)
                    v[p * VEC + i] = HSM_NEG_INF;
            }
        } else {
#pragma unroll
            for (int i = 0; i < VEC; i++)
                v[p * VEC + i] = hsm_to_float(pk.v[i]);
        }
#pragma unroll
        for (int i = 0; i < VEC; i++)
            m = hsm_max(m, v[p * VEC + i]);
    }
    return m;
}

/* The forward's statistics alone (no output, so no tile is kept for a second pass) of a row whose u is
 * x (no mask, no causal bound: the scale is in k): the row's running (max, sum) from
 * HSM_ONLINE_STATS_UNROLL accesses in flight per thread (a tile has HSM_ONLINE_UNROLL), each folded as
 * soon as converted, so no tile of values is held (hsm_online_tile's C floats would not fit beside
 * them); one rescale per access. Packs past the row read as -inf (hsm_load_pack). */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_online_stats_pass(const hsm_row_ctx &rc, const T *xr, float k, float &m, float &s)
{
    constexpr int U = HSM_ONLINE_STATS_UNROLL;
    const int64_t step = (int64_t)blockDim.x * VEC * U;
    for (int64_t col0 = 0; col0 < rc.lim; col0 += step) {
        hsm_pack<T, VEC> pk[U];
#pragma unroll
        for (int p = 0; p < U; p++)
            pk[p] = hsm_load_pack<T, VEC>(xr, col0 + ((int64_t)p * blockDim.x + threadIdx.x) * VEC, rc.lim);
#pragma unroll
        for (int p = 0; p < U; p++) {
            float u[VEC];
#pragma unroll
            for (int i = 0; i < VEC; i++)
                u[i] = hsm_to_float(pk[p].v[i]);
            float um = HSM_NEG_INF;
#pragma unroll
            for (int i = 0; i < VEC; i++)
                um = hsm_max(um, u[i]);
            hsm_online_fold<VEC>(u, um, m, s, k);
        }
    }
}

/* F: the forward with options (softmax_ops.h; tiles past a causal bound are not read), else the
 * plain forward. */
template <typename T, int VEC, bool F>
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
    const float k = F ? a.op.sigma * HSM_LOG2E : HSM_LOG2E;
    float v[C];

    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
        const T *xr = x + row * a.x_stride;
        hsm_row_ctx rc;
        if constexpr (F)
            rc = hsm_fwd_row(a, row);
        else
            rc.lim = a.cols;
        float m = HSM_NEG_INF, s = 0.0f;
        int64_t t = 0;
        /* With the row's statistics given, the first pass has nothing to find; with the statistics
         * alone (vector kernels), hsm_online_stats_pass finds them. */
        const bool stats_alone = F && VEC > 1 && a.op.no_out && a.op.mask == HSM_MK_NONE && rc.lim == a.cols;
        if constexpr (F && VEC > 1)
            if (stats_alone)
                hsm_online_stats_pass<T, VEC>(rc, xr, k, m, s);
        const int64_t pass1 = (F && a.op.stats_in != NULL) || stats_alone ? 0 : rc.lim;
        for (int64_t col0 = 0; col0 < pass1; col0 += step, t++) {
            hsm_pack<T, VEC> *keep = t < a.cached_tiles ? cache + t * tile_packs : NULL;
            const float vmax = hsm_online_tile<T, VEC, F>(a, rc, xr, col0, NULL, keep, v);
            hsm_online_fold<C>(v, vmax, m, s, k);
        }
        const int64_t loaded = t;
        if constexpr (F) {
            hsm_epi e;
            if (a.op.stats_in != NULL) {
                e = hsm_epi_given(a, row);
            } else {
                const float mraw = hsm_block_max(m, red_max);
                e = hsm_epi_begin(a, mraw);
                hsm_epi_end(a, e, mraw, hsm_block_sum(s * hsm_rescale_k(m, e.m, k), red_sum), row, threadIdx.x == 0);
            }
            if (a.op.no_out)
                continue;
            void *yrow = hsm_out_row(a, row);
            for (t = (a.cols + step - 1) / step - 1; t >= 0; t--) {
                const int64_t col0 = t * step;
                const hsm_pack<T, VEC> *from = t < a.cached_tiles && t < loaded ? cache + t * tile_packs : NULL;
                hsm_online_tile<T, VEC, F>(a, rc, xr, col0, from, NULL, v);
                hsm_fwd_chunk_store<VEC, C, true>(a, yrow, col0, threadIdx.x, blockDim.x, v, e);
            }
        } else {
            const float mx = hsm_block_max(m, red_max);
            const float norm = hsm_norm_of<T>(hsm_block_sum(s * hsm_rescale(m, mx), red_sum));
            T *yr = y + row * a.y_stride;
            for (t = t - 1; t >= 0; t--) {
                const int64_t col0 = t * step;
                const hsm_pack<T, VEC> *from = t < a.cached_tiles ? cache + t * tile_packs : NULL;
                hsm_online_tile<T, VEC, F>(a, rc, xr, col0, from, NULL, v);
#pragma unroll
                for (int i = 0; i < C; i++)
                    v[i] = hsm_exp_norm<T>(v[i], mx, norm);
                hsm_chunk_store<T, VEC, C>(yr, col0, a.cols, threadIdx.x, blockDim.x, v, 1.0f);
            }
        }
    }
}

/* Whether a backward's kept tiles are copied into the cache asynchronously: 16-byte packs of y and of
 * dy (an fp32 y's pack of 4 with a 16-bit dy's 8 bytes cannot), and dx no wider than y: bf16 y and
 * dy with an fp32 dx ran 0.94-0.96x so (H200, 4096 x 16384 and 32768, bench/results/
 * h200-2026-11-28-online-copy-backward.md). The others keep them as loaded (hsm_bwd_chunk_load's
 * KEEP, through registers). */
template <typename T, int VEC>
__device__ __forceinline__ bool hsm_bwd_copies_whole(const hsm_args &a)
{
    return VEC > 1 && VEC * hsm_dtype_bytes(a.op.in2_dtype) >= 16 && hsm_dtype_bytes(a.op.out_dtype) <= sizeof(T);
}

/* The backward: a pass for the row's sum, then one that writes dx. The first `cached_tiles` tiles are
 * kept in shared memory/LDS, dy's packs and, for softmax, y's (log-softmax's sum is of dy alone, so
 * its first pass reads only dy and its second reads y once, from the tensor): copied there at once and
 * summed from there (hsm_bwd_tile_copy), or stored as loaded where hsm_bwd_copies_whole says not. The
 * second pass goes in reverse: softmax's vector kernels find the tile the first read last still in
 * registers (measured on an H200, bench/results/h200-2026-11-24-online-keep.md: bf16 4096 x 16384
 * 1.08x, 50256 1.06x; log-softmax, which would hold dy's alone, was 4-6% slower so, and the scalar
 * kernels would spill), and the rest is read again from the end of the row, which is the part most
 * likely still in L2. Each tensor read at most twice. P: peeled, rows at any element offset with dy's
 * and dx's rows at the same offset as y's from their own accesses (the plan's condition): the passes
 * take the row's whole packs, from its first column on 16 bytes, as a row of their own, and the edge
 * elements around them go one a thread (hsm_peel_col). */
template <typename T, int VEC, bool P, bool LOG>
__device__ __forceinline__ void hsm_online_bwd_rows(const hsm_args &a)
{
    constexpr int C = VEC * HSM_ONLINE_BWD_UNROLL;
    __shared__ float red[2][HSM_MAX_WARPS];
    extern __shared__ __align__(16) unsigned char hsm_online_cache[]; /* holds 16-byte packs */
    const T *y = (const T *)a.x;
    const int64_t step = (int64_t)blockDim.x * C;
    /* A tile's cache: its y packs (softmax), then its dy packs (hsm_bwd_chunk_load_t's layout). */
    const size_t tile_bytes = (size_t)blockDim.x * HSM_ONLINE_BWD_UNROLL *
                              ((LOG ? 0 : sizeof(hsm_pack<T, VEC>)) + VEC * hsm_dtype_bytes(a.op.in2_dtype));
    float yv[C], dv[C];
    int parity = 0;
    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x, parity ^= 1) {
        const T *yr = y + row * a.x_stride;
        const void *dr = hsm_in2_row(a, row);
        hsm_peel_row pr = {0, a.cols, -1, 0.0f, 0.0f, 0.0f}; /* the columns the passes take, from column head */
        if constexpr (P) {
            pr = hsm_bwd_peel_row<T, VEC>(a, yr, dr, true);
            yr += pr.head;
            dr = (const char *)dr + pr.head * hsm_dtype_bytes(a.op.in2_dtype);
        }
        const int64_t cols = pr.cols;
        float s = pr.term;
        int64_t kept = 0;
        if (a.op.stats_in != NULL) {
            s = hsm_bwd_given(a, row);
        } else {
            bool copied = false;
            if constexpr (VEC > 1) {
                if (hsm_bwd_copies_whole<T, VEC>(a)) {
                    /* The kept tiles copied into the cache asynchronously, all at once: every kept
                     * byte of the row in flight, where loads through registers had a tile's at a
                     * time; the tiles past them are loaded meanwhile, the last one too (loaded
                     * after the sums of the kept ones, its round trip was the row's alone: 16-bit
                     * 4096 x 50256, whose last tile is 7% full, ran at 81% of the copy bandwidth),
                     * and the row's last tile stays in yv and dv for the second pass. */
                    const int64_t tiles = (cols + step - 1) / step;
                    kept = tiles < a.cached_tiles ? tiles : a.cached_tiles;
                    for (int64_t t = 0; t < kept; t++)
                        hsm_bwd_tile_copy<T, VEC, C, !LOG>(a, yr, dr, t * step, cols, hsm_online_cache + t * tile_bytes);
                    hsm_copy_async_commit();
                    const int64_t last = tiles > kept ? tiles - 1 : -1;
                    for (int64_t t = kept; t <= last; t++)
                        s += hsm_bwd_chunk_load<T, VEC, C, !LOG>(a, yr, dr, t * step, cols, threadIdx.x, blockDim.x, yv,
                                                                 dv);
                    hsm_copy_async_wait_pending(0);
                    for (int64_t t = 0; t < kept; t++) {
                        unsigned char *tc = hsm_online_cache + t * tile_bytes;
                        if (last < 0 && t == kept - 1) { /* the row's last tile: kept in yv and dv */
                            s += hsm_bwd_chunk_load<T, VEC, C, !LOG, HSM_BWD_FROM, !LOG>(
                                a, yr, dr, t * step, cols, threadIdx.x, blockDim.x, yv, dv, 0, tc);
                        } else { /* summed and dropped: yv and dv hold the last tile */
                            float ty[C], td[C];
                            s += hsm_bwd_chunk_load<T, VEC, C, !LOG, HSM_BWD_FROM, !LOG>(
                                a, yr, dr, t * step, cols, threadIdx.x, blockDim.x, ty, td, 0, tc);
                        }
                    }
                    copied = true;
                }
            }
            if (!copied) {
                int64_t t = 0;
                for (int64_t col0 = 0; col0 < cols; col0 += step, t++) {
                    if (t < a.cached_tiles)
                        s += hsm_bwd_chunk_load<T, VEC, C, !LOG, HSM_BWD_KEEP, !LOG>(
                            a, yr, dr, col0, cols, threadIdx.x, blockDim.x, yv, dv, 0, hsm_online_cache + t * tile_bytes);
                    else
                        s += hsm_bwd_chunk_load<T, VEC, C, !LOG>(a, yr, dr, col0, cols, threadIdx.x, blockDim.x, yv, dv);
                }
                kept = t < a.cached_tiles ? t : a.cached_tiles;
            }
            s = hsm_block_sum(s, red[parity]);
        }
        if (a.op.no_out) {
            if (threadIdx.x == 0)
                hsm_bwd_stats(a, s, row);
            continue;
        }
        void *xrow = hsm_out_row(a, row);
        if constexpr (P) {
            hsm_bwd_edge_store(a, xrow, pr.ec, pr.ey, pr.ed, s);
            xrow = (char *)xrow + pr.head * hsm_dtype_bytes(a.op.out_dtype);
        }
        int64_t t = (cols + step - 1) / step - 1;
        if constexpr (!LOG && VEC > 1) {
            if (a.op.stats_in == NULL && t >= 0) { /* the first pass's last chunk, still in yv and dv */
                hsm_bwd_chunk_store_m<VEC, C, LOG>(a, xrow, t * step, cols, threadIdx.x, blockDim.x, yv, dv, s, 0);
                t--;
            }
        }
        for (; t >= 0; t--) {
            if (t < kept)
                hsm_bwd_chunk_load<T, VEC, C, true, HSM_BWD_FROM, !LOG>(a, yr, dr, t * step, cols, threadIdx.x,
                                                                         blockDim.x, yv, dv, 0,
                                                                         hsm_online_cache + t * tile_bytes);
            else
                hsm_bwd_chunk_load<T, VEC, C>(a, yr, dr, t * step, cols, threadIdx.x, blockDim.x, yv, dv);
            hsm_bwd_chunk_store_m<VEC, C, LOG>(a, xrow, t * step, cols, threadIdx.x, blockDim.x, yv, dv, s, 0);
        }
    }
}

/* The row loop of the call's algorithm: the passes read and keep different tensors. */
template <typename T, int VEC, bool F, bool P = false>
__device__ __forceinline__ void hsm_online_bwd_body(const hsm_args a)
{
    if (a.op.log)
        hsm_online_bwd_rows<T, VEC, P, true>(a);
    else
        hsm_online_bwd_rows<T, VEC, P, false>(a);
}

#define HSM_ONLINE_KERNEL(NAME, T, VEC, BODY, F)                                                      \
    extern "C" __global__ void __launch_bounds__(HSM_ONLINE_BLOCK) NAME(hsm_args a)                  \
    {                                                                                                 \
        BODY<T, VEC, F>(a);                                                                           \
    }
#define HSM_ONLINE_ENTRY_P(NAME, KOP, DT, VEC, PEEL)                                                  \
    {#NAME, (const void *)NAME, HSM_FAMILY_ONLINE, KOP, DT, VEC,                                      \
     VEC * (KOP == HSM_KOP_BWD ? HSM_ONLINE_BWD_UNROLL : HSM_ONLINE_UNROLL), HSM_ONLINE_BLOCK, hsm_launch_plain, PEEL, 0, 0, 0}
#define HSM_ONLINE_ENTRY(NAME, KOP, DT, VEC) HSM_ONLINE_ENTRY_P(NAME, KOP, DT, VEC, 0)
/* Per dtype, scalar and vector: plain (no suffix), forward with options (_fwd), backward (_bwd). */
#define HSM_ONLINE_SET(SFX, T, VEC)                                                                   \
    HSM_ONLINE_KERNEL(hsm_online_##SFX##_s, T, 1, hsm_online_body, false)                             \
    HSM_ONLINE_KERNEL(hsm_online_##SFX##_v, T, VEC, hsm_online_body, false)                           \
    HSM_ONLINE_KERNEL(hsm_online_##SFX##_s_fwd, T, 1, hsm_online_body, true)                          \
    HSM_ONLINE_KERNEL(hsm_online_##SFX##_v_fwd, T, VEC, hsm_online_body, true)                        \
    HSM_ONLINE_KERNEL(hsm_online_##SFX##_s_bwd, T, 1, hsm_online_bwd_body, true)                      \
    HSM_ONLINE_KERNEL(hsm_online_##SFX##_v_bwd, T, VEC, hsm_online_bwd_body, true)
#define HSM_ONLINE_SET_ENTRIES(SFX, DT, VEC)                                                          \
    HSM_ONLINE_ENTRY(hsm_online_##SFX##_s, HSM_KOP_PLAIN, DT, 1),                                     \
        HSM_ONLINE_ENTRY(hsm_online_##SFX##_v, HSM_KOP_PLAIN, DT, VEC),                               \
        HSM_ONLINE_ENTRY(hsm_online_##SFX##_s_fwd, HSM_KOP_FWD, DT, 1),                               \
        HSM_ONLINE_ENTRY(hsm_online_##SFX##_v_fwd, HSM_KOP_FWD, DT, VEC),                             \
        HSM_ONLINE_ENTRY(hsm_online_##SFX##_s_bwd, HSM_KOP_BWD, DT, 1),                               \
        HSM_ONLINE_ENTRY(hsm_online_##SFX##_v_bwd, HSM_KOP_BWD, DT, VEC)

HSM_ONLINE_SET(f32, float, 4)
HSM_ONLINE_SET(f16, hsm_f16, 8)
HSM_ONLINE_SET(bf16, hsm_bf16, 8)
/* The vector backward peeled (hsm_online_bwd_body's P) for rows at any element offset, which
 * otherwise take the scalar kernel: the 16-bit backward of many long rows is ONLINE's (bf16
 * 4096 x 50257). */
#define HSM_ONLINE_BWD_PEEL_KERNEL(NAME, T, VEC)                                                      \
    extern "C" __global__ void __launch_bounds__(HSM_ONLINE_BLOCK) NAME(hsm_args a)                  \
    {                                                                                                 \
        hsm_online_bwd_body<T, VEC, true, true>(a);                                                   \
    }
HSM_ONLINE_BWD_PEEL_KERNEL(hsm_online_f32_v_peel_bwd, float, 4)
HSM_ONLINE_BWD_PEEL_KERNEL(hsm_online_f16_v_peel_bwd, hsm_f16, 8)
HSM_ONLINE_BWD_PEEL_KERNEL(hsm_online_bf16_v_peel_bwd, hsm_bf16, 8)

static const hsm_kernel hsm_online_table[] = {
    HSM_ONLINE_SET_ENTRIES(f32, HSM_F32, 4),
    HSM_ONLINE_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_ONLINE_SET_ENTRIES(bf16, HSM_BF16, 8),
    HSM_ONLINE_ENTRY_P(hsm_online_f32_v_peel_bwd, HSM_KOP_BWD, HSM_F32, 4, 1),
    HSM_ONLINE_ENTRY_P(hsm_online_f16_v_peel_bwd, HSM_KOP_BWD, HSM_F16, 8, 1),
    HSM_ONLINE_ENTRY_P(hsm_online_bf16_v_peel_bwd, HSM_KOP_BWD, HSM_BF16, 8, 1),
};

extern "C" const hsm_kernel *hsm_online_kernels(size_t *count)
{
    *count = sizeof hsm_online_table / sizeof hsm_online_table[0];
    return hsm_online_table;
}
