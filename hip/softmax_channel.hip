/* softmax_channel.hip: CHANNEL mode, a tensor [outer][C][inner] (element (r, c, i) at
 * r * row_stride + c * inner + i, inner contiguous) with the softmax over C of every (r, i) column.
 *
 * A thread owns one column: its values lie `inner` elements apart, so the threads of a warp take
 * neighbouring columns and each of their loads is one contiguous span. Where inner is narrower than a
 * warp (2..31 on NVIDIA), a warp takes IT = inner columns and CTW = warp / inner positions along C at
 * once: lane (ct, it) reads c = ct + CTW * k, i = it, so the warp's access k is the contiguous span
 * [CTW * k * inner, (CTW * k + CTW) * inner) of the slice and no transaction is wasted on a stride.
 * Where C is longer than a warp holds, G warps (hsm_args.channel_warps, from the plan) share a tile of
 * columns, each taking every G-th group of CTW positions, and combine through shared memory.
 *
 * Vector kernels (template V > 1, 16 bytes of the dtype): a thread owns V adjacent columns and moves
 * each position's V values in one 16-byte access, with V independent (max, sum) pairs; everything
 * above holds with "column" read as "V columns". One element an access left these kernels bound by
 * instructions and latency (bf16 took as long as fp32 for as many elements). The plan gives a warp
 * IT = hsm_args.channel_lanes columns of V (8 lanes: 128 bytes, a line) and CTW = warp / IT positions
 * at once, so a warp holds CTW times more of C than across inner alone.
 *
 * Three kinds of kernel, each forward and backward, per dtype and V:
 *   - register kernels (_r<N>, vector _vr<N * V>): a thread keeps its N positions of the column in
 *     registers: read once, written once;
 *   - streaming kernels (_o<N>, _vo<N * V>): C in chunks of N positions a thread, twice: an online
 *     (max, sum) pass, then the outputs (backward: the sum of dy * y or dy, then dx), the second pass
 *     from the end of the column back, since that was read last and is the part most likely still in
 *     L2;
 *   - tile kernels (_t, vector _vt): a block stages all C positions of a tile of adjacent columns in
 *     shared memory and reduces from there (see "tile kernels" below).
 * The element-wise work (scale, log-softmax, output dtype, alpha/beta, safe rows, the backward
 * formulas) is softmax_ops.h's, as in the row families, with packs of V elements. Masks and row
 * statistics are not taken in CHANNEL mode (validate.c refuses them).
 *
 * Reductions keep a fixed order for a given plan, so results do not vary between runs.
 */
#include "softmax_ops.h"

#define HSM_CHANNEL_BLOCK 1024 /* the largest block: 32 warps (16 wavefronts) sharing one tile */
/* The vector kernels (V > 1) hold V columns' values, maxima, sums and normalisers a thread: within the
 * 64 registers of a 1024-thread block even 8 values spilled (sm_90: 20 to 92 bytes forward, 100 to 236
 * for the larger ones). Blocks of at most 640 threads leave 96 registers, and two blocks of 10 warps
 * (C = 150 in 16-position steps) fit an SM, where 104 registers left one; the forwards of 16 values
 * (16-bit) and 32 spilled 32 bytes within 96 and take blocks of at most 512 (128 registers). */
#define HSM_CHANNEL_VBLOCK 640
#define HSM_CHANNEL_VBLOCK_BIG 512

/* The thread's place: which tile of columns, which column of it, which positions along C. */
struct hsm_ch_map {
    int it, ct, ctw, it_n; /* lane's column in the tile and position along C; positions and columns per warp */
    int g, wg, groups, G;  /* tile group of the block, warp in it, groups per block, warps per group */
    int64_t tps;           /* tiles per outer slice */
    int64_t tiles;
};

template <int V>
__device__ __forceinline__ hsm_ch_map hsm_ch_map_of(const hsm_args &a)
{
    hsm_ch_map m;
    const int lane = threadIdx.x % HSM_WARP_SIZE, warp = threadIdx.x / HSM_WARP_SIZE;
    const int64_t iv = a.inner / V; /* columns of V (the plan takes V > 1 only where V divides inner) */
    /* The plan's lanes for the vector kernels; min(inner, warp) as before for one column a thread
     * (what the plan gives too: computed here, ptxas spilled 60 to 76 bytes instead of 8 to 16 in
     * the streaming backward). */
    m.it_n = V == 1 ? (iv < HSM_WARP_SIZE ? (int)iv : HSM_WARP_SIZE) : a.channel_lanes;
    m.ctw = HSM_WARP_SIZE / m.it_n;
    m.it = lane % m.it_n;
    m.ct = lane / m.it_n; /* ct >= ctw: an idle lane (warp size not a multiple of inner) */
    m.G = a.channel_warps;
    m.groups = blockDim.x / (HSM_WARP_SIZE * m.G);
    m.g = warp / m.G;
    m.wg = warp % m.G;
    m.tps = (iv + m.it_n - 1) / m.it_n;
    m.tiles = a.rows * m.tps;
    return m;
}

/* The V columns of tile `tile` this thread owns: its slice r and inner index i of the first; false for
 * an idle lane or a tile or column past the end (the thread still takes part in every reduction, with
 * nothing). */
template <int V>
__device__ __forceinline__ bool hsm_ch_column(const hsm_args &a, const hsm_ch_map &m, int64_t tile, int64_t &r,
                                              int64_t &i)
{
    r = 0;
    i = 0;
    if (tile >= m.tiles || m.ct >= m.ctw)
        return false;
    /* A 64-bit division is a long subroutine; tile counts under 2^32 (all but the largest tensors
     * with a narrow inner) take the 32-bit one. */
    if (m.tiles <= (int64_t)UINT32_MAX)
        r = (uint32_t)tile / (uint32_t)m.tps;
    else
        r = tile / m.tps;
    i = ((tile - r * m.tps) * m.it_n + m.it) * V;
    return i < a.inner;
}

/* The first C position of the thread and the distance between its positions. */
__device__ __forceinline__ int64_t hsm_ch_c0(const hsm_ch_map &m) { return m.ct + (int64_t)m.ctw * m.wg; }
__device__ __forceinline__ int64_t hsm_ch_cstep(const hsm_ch_map &m) { return (int64_t)m.ctw * m.G; }

/* (m, s) pairs of an online normaliser: s is a sum of exp2((u - m) * k). A -inf max contributes 0
 * (hsm_rescale_k); a NaN in s stays. */
__device__ __forceinline__ void hsm_ch_pair_fold(float &m, float &s, float om, float os, float k)
{
    const float nm = hsm_max(m, om);
    s = s * hsm_rescale_k(m, nm, k) + os * hsm_rescale_k(om, nm, k);
    m = nm;
}

/* Shared memory of the reductions across the warps of a group: [parity][value][column][warp][lane],
 * V columns a thread. */
extern __shared__ __align__(16) float hsm_ch_smem[];

/* The (max, sum) of each of the thread's V columns over every lane and warp that shares it; every
 * thread gets the results. Lanes of one column lie ctw apart in it_n steps: a tree over shfl_down with
 * offsets it_n, 2 it_n, ... leaves the warp's pairs in lanes ct == 0, which the others read. Across the
 * G warps of a group, through shared memory: every thread folds the G pairs in the same order. All
 * threads of the block call this together (it holds a barrier when G > 1). */
template <int V>
__device__ __forceinline__ void hsm_ch_reduce_pair(const hsm_ch_map &mp, float *m, float *s, float k, int parity)
{
    const int lane = threadIdx.x % HSM_WARP_SIZE, used = mp.ctw * mp.it_n;
    for (int d = mp.it_n; d < used; d *= 2) {
#pragma unroll
        for (int j = 0; j < V; j++) {
            const float om = hsm_shfl_down(m[j], d), os = hsm_shfl_down(s[j], d);
            if (lane + d < used)
                hsm_ch_pair_fold(m[j], s[j], om, os, k);
        }
    }
    if (mp.ctw > 1) {
#pragma unroll
        for (int j = 0; j < V; j++) {
            m[j] = hsm_shfl_idx(m[j], mp.it);
            s[j] = hsm_shfl_idx(s[j], mp.it);
        }
    }
    if (mp.G == 1)
        return;
    const int plane = blockDim.x; /* one float per thread of the block */
    float *sm = hsm_ch_smem + (size_t)parity * 2 * V * plane, *ss = sm + V * plane;
    const int warp = threadIdx.x / HSM_WARP_SIZE;
    if (lane < mp.it_n) {
#pragma unroll
        for (int j = 0; j < V; j++) {
            sm[j * plane + warp * HSM_WARP_SIZE + lane] = m[j];
            ss[j * plane + warp * HSM_WARP_SIZE + lane] = s[j];
        }
    }
    __syncthreads();
    const int first = mp.g * mp.G;
#pragma unroll
    for (int j = 0; j < V; j++) {
        m[j] = sm[j * plane + first * HSM_WARP_SIZE + mp.it];
        s[j] = ss[j * plane + first * HSM_WARP_SIZE + mp.it];
        for (int w = 1; w < mp.G; w++)
            hsm_ch_pair_fold(m[j], s[j], sm[j * plane + (first + w) * HSM_WARP_SIZE + mp.it],
                             ss[j * plane + (first + w) * HSM_WARP_SIZE + mp.it], k);
    }
}

/* The same for plain sums (the backward's). */
template <int V>
__device__ __forceinline__ void hsm_ch_reduce_sum(const hsm_ch_map &mp, float *s, int parity)
{
    const int lane = threadIdx.x % HSM_WARP_SIZE, used = mp.ctw * mp.it_n;
    for (int d = mp.it_n; d < used; d *= 2) {
#pragma unroll
        for (int j = 0; j < V; j++) {
            const float os = hsm_shfl_down(s[j], d);
            if (lane + d < used)
                s[j] += os;
        }
    }
    if (mp.ctw > 1) {
#pragma unroll
        for (int j = 0; j < V; j++)
            s[j] = hsm_shfl_idx(s[j], mp.it);
    }
    if (mp.G == 1)
        return;
    const int plane = blockDim.x;
    float *ss = hsm_ch_smem + (size_t)parity * V * plane;
    const int warp = threadIdx.x / HSM_WARP_SIZE;
    if (lane < mp.it_n) {
#pragma unroll
        for (int j = 0; j < V; j++)
            ss[j * plane + warp * HSM_WARP_SIZE + lane] = s[j];
    }
    __syncthreads();
    const int first = mp.g * mp.G;
#pragma unroll
    for (int j = 0; j < V; j++) {
        s[j] = ss[j * plane + first * HSM_WARP_SIZE + mp.it];
        for (int w = 1; w < mp.G; w++)
            s[j] += ss[j * plane + (first + w) * HSM_WARP_SIZE + mp.it];
    }
}

/* How many of the thread's N positions c0 + cstep * k lie inside C (0 for a thread with no column):
 * the loops below test k < n, one compare of a constant, not a 64-bit position each. */
template <int N>
__device__ __forceinline__ int hsm_ch_count(int64_t C, int64_t c0, int64_t cstep, bool on)
{
    const int64_t rem = C - c0;
    if (!on || rem <= 0)
        return 0;
    if (rem > cstep * (N - 1))
        return N; /* every chunk but a column's last: no division */
    /* rem <= cstep * (N - 1), a few thousand at most: a 32-bit division. */
    return (int)(((uint32_t)rem + (uint32_t)cstep - 1) / (uint32_t)cstep);
}

/* The thread's first n of N positions of its V columns, `step` elements apart from p, as floats (-inf
 * for the rest), v[k * V + j] column j's value at position k: one pack of V a position (16 bytes where
 * V > 1), all loads issued before any is used. mx[j]: column j's max. */
template <typename T, int N, int V>
__device__ __forceinline__ void hsm_ch_load(const T *p, int64_t step, int n, float *v, float *mx)
{
    hsm_pack<T, V> raw[N];
#pragma unroll
    for (int k = 0; k < N; k++)
        raw[k] = k < n ? *reinterpret_cast<const hsm_pack<T, V> *>(p + k * step) : hsm_neg_inf_pack<T, V>();
#pragma unroll
    for (int j = 0; j < V; j++)
        mx[j] = HSM_NEG_INF;
#pragma unroll
    for (int k = 0; k < N; k++) {
#pragma unroll
        for (int j = 0; j < V; j++) {
            v[k * V + j] = hsm_to_float(raw[k].v[j]);
            mx[j] = hsm_max(mx[j], v[k * V + j]);
        }
    }
}

/* The forward's outputs of the thread's first n positions at p, step elements apart (MODE as in
 * hsm_epi_value, e[j] column j's normaliser), in the output dtype To: a pack of V a position. */
template <typename To, int N, int V, int MODE>
__device__ __forceinline__ void hsm_ch_store_fwd_t(const hsm_args &a, To *p, int64_t step, int n, const float *v,
                                                   const hsm_epi *e)
{
#pragma unroll
    for (int k = 0; k < N; k++) {
        if (k < n) {
            float o[V];
#pragma unroll
            for (int j = 0; j < V; j++)
                o[j] = hsm_epi_value<MODE>(v[k * V + j], e[j]);
            hsm_put_out<To, V>(a, p + k * step, o);
        }
    }
}

/* The same in the call's output dtype, at element `at` of the output row (a branch every thread takes
 * the same way). */
template <int N, int V, int MODE>
__device__ __forceinline__ void hsm_ch_store_fwd(const hsm_args &a, void *yrow, int64_t at, int64_t step, int n,
                                                 const float *v, const hsm_epi *e)
{
    switch (a.op.out_dtype) {
    case HSM_F16: hsm_ch_store_fwd_t<hsm_f16, N, V, MODE>(a, (hsm_f16 *)yrow + at, step, n, v, e); break;
    case HSM_BF16: hsm_ch_store_fwd_t<hsm_bf16, N, V, MODE>(a, (hsm_bf16 *)yrow + at, step, n, v, e); break;
    default: hsm_ch_store_fwd_t<float, N, V, MODE>(a, (float *)yrow + at, step, n, v, e); break;
    }
}

/* The row's normaliser from the column's max and sum (sum relative to the max). */
__device__ __forceinline__ hsm_epi hsm_ch_epi(const hsm_args &a, float M, float S)
{
    hsm_epi e = hsm_epi_begin(a, M);
    hsm_epi_end(a, e, M, S, 0, false);
    return e;
}

/* Register forward: N positions of V columns a thread in registers. Softmax keeps exp2((u - m_t) * k)
 * with the thread's own max m_t of each column, and scales them by exp2((m_t - M) * k) / S once the
 * column's (M, S) is known: one exponential per element, and one reduction of (max, sum) pairs
 * instead of a max and then a sum. */
template <typename T, int N, int V>
__device__ __forceinline__ void hsm_ch_fwd_body(const hsm_args &a)
{
    const hsm_ch_map mp = hsm_ch_map_of<V>(a);
    const T *x = (const T *)a.x;
    const float k = a.op.sigma * HSM_LOG2E;
    const int64_t c0 = hsm_ch_c0(mp), cstep = hsm_ch_cstep(mp);
    float v[N * V];
    int parity = 0;
    for (int64_t bt = blockIdx.x; bt * mp.groups < mp.tiles; bt += gridDim.x, parity ^= 1) {
        int64_t r, i;
        const bool on = hsm_ch_column<V>(a, mp, bt * mp.groups + mp.g, r, i);
        const int n = hsm_ch_count<N>(a.cols, c0, cstep, on);
        const int64_t at = c0 * a.inner + i, step = cstep * a.inner;
        float mt[V], M[V], S[V];
        hsm_ch_load<T, N, V>(x + r * a.x_stride + at, step, n, v, mt);
#pragma unroll
        for (int j = 0; j < V; j++) {
            hsm_epi et = hsm_epi_begin(a, mt[j]); /* the thread's own shift: its max, or 0 while every value is -inf */
            et.m = mt[j] == HSM_NEG_INF ? 0.0f : mt[j];
            float col[N];
#pragma unroll
            for (int q = 0; q < N; q++)
                col[q] = v[q * V + j];
            S[j] = hsm_fwd_sum<N>(a, col, et);
#pragma unroll
            for (int q = 0; q < N; q++)
                v[q * V + j] = col[q];
            M[j] = mt[j];
        }
        hsm_ch_reduce_pair<V>(mp, M, S, k, parity);
        hsm_epi e[V];
#pragma unroll
        for (int j = 0; j < V; j++)
            e[j] = hsm_ch_epi(a, M[j], S[j]);
        void *yrow = hsm_out_row(a, r);
        if (a.op.log) {
            hsm_ch_store_fwd<N, V, HSM_FROM_U_LOG>(a, yrow, at, step, n, v, e);
        } else {
#pragma unroll
            for (int j = 0; j < V; j++)
                e[j].inv *= hsm_rescale_k(mt[j], M[j], k); /* from the thread's shift to the column's max */
            hsm_ch_store_fwd<N, V, HSM_FROM_EXP>(a, yrow, at, step, n, v, e);
        }
    }
}

/* Streaming forward: pass one folds chunks of N positions into each column's online (max, sum), pass
 * two reads them again, from the last chunk back, and writes. */
template <typename T, int N, int V>
__device__ __forceinline__ void hsm_ch_fwd_stream_body(const hsm_args &a)
{
    const hsm_ch_map mp = hsm_ch_map_of<V>(a);
    const T *x = (const T *)a.x;
    const float k = a.op.sigma * HSM_LOG2E;
    const int64_t c0 = hsm_ch_c0(mp), cstep = hsm_ch_cstep(mp), chunk = cstep * N;
    const int64_t chunks = (a.cols + chunk - 1) / chunk;
    float v[N * V], vmax[V];
    int parity = 0;
    for (int64_t bt = blockIdx.x; bt * mp.groups < mp.tiles; bt += gridDim.x, parity ^= 1) {
        int64_t r, i;
        const bool on = hsm_ch_column<V>(a, mp, bt * mp.groups + mp.g, r, i);
        const T *xr = x + r * a.x_stride + i;
        const int64_t step = cstep * a.inner;
        float M[V], S[V];
#pragma unroll
        for (int j = 0; j < V; j++)
            M[j] = HSM_NEG_INF, S[j] = 0.0f;
        for (int64_t t = 0; t < chunks; t++) {
            const int64_t cc = c0 + t * chunk;
            hsm_ch_load<T, N, V>(xr + cc * a.inner, step, hsm_ch_count<N>(a.cols, cc, cstep, on), v, vmax);
#pragma unroll
            for (int j = 0; j < V; j++) {
                float col[N];
#pragma unroll
                for (int q = 0; q < N; q++)
                    col[q] = v[q * V + j];
                hsm_online_fold<N>(col, vmax[j], M[j], S[j], k);
            }
        }
        hsm_ch_reduce_pair<V>(mp, M, S, k, parity);
        hsm_epi e[V];
#pragma unroll
        for (int j = 0; j < V; j++)
            e[j] = hsm_ch_epi(a, M[j], S[j]);
        void *yrow = hsm_out_row(a, r);
        for (int64_t t = chunks - 1; t >= 0; t--) {
            const int64_t cc = c0 + t * chunk;
            const int n = hsm_ch_count<N>(a.cols, cc, cstep, on);
            hsm_ch_load<T, N, V>(xr + cc * a.inner, step, n, v, vmax);
            if (a.op.log)
                hsm_ch_store_fwd<N, V, HSM_FROM_U_LOG>(a, yrow, cc * a.inner + i, step, n, v, e);
            else
                hsm_ch_store_fwd<N, V, HSM_FROM_U_SOFTMAX>(a, yrow, cc * a.inner + i, step, n, v, e);
        }
    }
}

/* y (T) and dy (TD) of the thread's first n of N positions of its V columns, step elements apart, 0
 * for the rest (v[k * V + j] as in hsm_ch_load); adds each column's share of the sum to s[j]: of dy * y
 * (softmax) or of dy (log-softmax). Loads first, conversions after; dy's pack may be wider than 16
 * bytes (fp32 dy with 16-bit y: two accesses) or narrower. */
template <typename T, typename TD, int N, int V>
__device__ __forceinline__ void hsm_ch_bwd_load(const T *yp, const TD *dp, int64_t step, int n, int log, float *yv,
                                                float *dv, float *s)
{
    hsm_pack<T, V> yr[N];
    hsm_raw<TD, V> dr[N];
#pragma unroll
    for (int k = 0; k < N; k++) {
        if (k < n) {
            yr[k] = *reinterpret_cast<const hsm_pack<T, V> *>(yp + k * step);
            hsm_raw_load<TD, V>(dr[k], dp + k * step);
        } else {
            yr[k] = hsm_pack<T, V>{};
            dr[k] = hsm_raw<TD, V>{};
        }
    }
#pragma unroll
    for (int k = 0; k < N; k++) {
#pragma unroll
        for (int j = 0; j < V; j++) {
            yv[k * V + j] = hsm_to_float(yr[k].v[j]);
            dv[k * V + j] = hsm_raw_elem<TD, V>(dr[k], j);
            s[j] += log ? dv[k * V + j] : dv[k * V + j] * yv[k * V + j];
        }
    }
}

template <typename To, int N, int V, int LOG>
__device__ __forceinline__ void hsm_ch_store_bwd_t(const hsm_args &a, To *p, int64_t step, int n, const float *yv,
                                                   const float *dv, const float *s)
{
#pragma unroll
    for (int k = 0; k < N; k++) {
        if (k < n) {
            float o[V];
#pragma unroll
            for (int j = 0; j < V; j++)
                o[j] = hsm_bwd_value<LOG>(yv[k * V + j], dv[k * V + j], s[j], a.op.scale);
            hsm_put_out<To, V>(a, p + k * step, o);
        }
    }
}

template <int N, int V, int LOG>
__device__ __forceinline__ void hsm_ch_store_bwd(const hsm_args &a, void *xrow, int64_t at, int64_t step, int n,
                                                 const float *yv, const float *dv, const float *s)
{
    switch (a.op.out_dtype) {
    case HSM_F16: hsm_ch_store_bwd_t<hsm_f16, N, V, LOG>(a, (hsm_f16 *)xrow + at, step, n, yv, dv, s); break;
    case HSM_BF16: hsm_ch_store_bwd_t<hsm_bf16, N, V, LOG>(a, (hsm_bf16 *)xrow + at, step, n, yv, dv, s); break;
    default: hsm_ch_store_bwd_t<float, N, V, LOG>(a, (float *)xrow + at, step, n, yv, dv, s); break;
    }
}

/* The backward of dy's dtype TD. STREAM: C in chunks, twice; else the column's values in registers. */
template <typename T, typename TD, int N, int V, bool STREAM>
__device__ __forceinline__ void hsm_ch_bwd_t(const hsm_args &a)
{
    const hsm_ch_map mp = hsm_ch_map_of<V>(a);
    const int64_t c0 = hsm_ch_c0(mp), cstep = hsm_ch_cstep(mp), chunk = cstep * N, step = cstep * a.inner;
    const int64_t chunks = STREAM ? (a.cols + chunk - 1) / chunk : 1;
    float yv[N * V], dv[N * V];
    int parity = 0;
    for (int64_t bt = blockIdx.x; bt * mp.groups < mp.tiles; bt += gridDim.x, parity ^= 1) {
        int64_t r, i;
        const bool on = hsm_ch_column<V>(a, mp, bt * mp.groups + mp.g, r, i);
        const T *yr = (const T *)a.x + r * a.x_stride + i;
        const TD *dr = (const TD *)hsm_in2_row(a, r) + i;
        float s[V];
#pragma unroll
        for (int j = 0; j < V; j++)
            s[j] = 0.0f;
        for (int64_t t = 0; t < chunks; t++) {
            const int64_t cc = c0 + t * chunk;
            hsm_ch_bwd_load<T, TD, N, V>(yr + cc * a.inner, dr + cc * a.inner, step,
                                         hsm_ch_count<N>(a.cols, cc, cstep, on), a.op.log, yv, dv, s);
        }
        hsm_ch_reduce_sum<V>(mp, s, parity);
        void *xrow = hsm_out_row(a, r);
        for (int64_t t = chunks - 1; t >= 0; t--) {
            const int64_t cc = c0 + t * chunk;
            const int n = hsm_ch_count<N>(a.cols, cc, cstep, on);
            if (STREAM) {
                float unused[V];
                hsm_ch_bwd_load<T, TD, N, V>(yr + cc * a.inner, dr + cc * a.inner, step, n, a.op.log, yv, dv,
                                             unused);
            }
            if (a.op.log)
                hsm_ch_store_bwd<N, V, 1>(a, xrow, cc * a.inner + i, step, n, yv, dv, s);
            else
                hsm_ch_store_bwd<N, V, 0>(a, xrow, cc * a.inner + i, step, n, yv, dv, s);
        }
    }
}

template <typename T, int N, int V, bool STREAM>
__device__ __forceinline__ void hsm_ch_bwd_body(const hsm_args &a)
{
    switch (a.op.in2_dtype) {
    case HSM_F16: hsm_ch_bwd_t<T, hsm_f16, N, V, STREAM>(a); break;
    case HSM_BF16: hsm_ch_bwd_t<T, hsm_bf16, N, V, STREAM>(a); break;
    default: hsm_ch_bwd_t<T, float, N, V, STREAM>(a); break;
    }
}

/* ---- tile kernels --------------------------------------------------------------------------------
 * A block stages a tile of a slice in shared memory, all C positions of W = hsm_args.channel_lanes
 * adjacent columns (a power of two that divides the block; [C][W] elements, y and dy side by side in
 * the backward), then reduces and writes from there. Why: the register kernels above hold at most 16
 * positions a thread, so a block's loads in flight are capped by its registers, and between its load
 * and its store a block has none in flight at all; measured on an H200 they reached 55% of the copy
 * bandwidth in fp32 and 28% in bf16 on 16 x 150 x 16384, bf16 taking as long as fp32 for half the
 * bytes (bench/results/h200-2026-11-23-channel.md). Here every thread of the block issues its share of
 * the tile's 16-byte accesses (C x W x elt bytes, 19 KB at C = 150 and a 128-byte line of columns)
 * before any lands, and the several blocks a SM that the shared memory allows overlap one block's
 * loads with another's reductions and stores. Prefetching the next tile did not help; what bounded
 * the tiles was the instructions an element (bench/results/h200-2026-11-24-channel-tiles.md): the
 * passes below step pointers, unroll, branch on alpha/beta outside their loops and take two 16-bit
 * columns a thread: 1.3-1.5x in 16-bit, 1.05-1.1x in fp32. Still issue-bound (ncu, 16-bit forward:
 * 0.72 instructions issued a cycle and scheduler).
 * In the tile, a thread takes RV adjacent columns (hsm_ch_tile_map). Three passes over the tile (max,
 * sum, outputs; backward: sum, outputs), each pass's partials folded after it in a fixed order
 * (hsm_ch_tile_fold). */
#define HSM_CHANNEL_TILE_BLOCK 256 /* a power of two: hsm_ch_tiles and hsm_ch_tile_map_of shift by it */

/* Packs of V a thread loads at once (a batch): 128 bytes a thread for 16-byte packs, half of them y's
 * and half dy's in the backward (staged together, one round trip); 16 elements one at a time for the
 * one-element kernels. A backward staging 8 packs of each tensor took 128 registers on sm_90 (two
 * blocks a SM), and one of 16 single elements each spilled 48 bytes. */
template <int V, bool TWO> struct hsm_ch_tile_loads { static constexpr int n = (V > 1 ? 8 : 16) / (TWO ? 2 : 1); };

/* A staged pack of V elements of T. */
template <typename T, int V, bool WORDS = sizeof(T) == 2 && V % 8 == 0> struct hsm_ch_staged {
    hsm_raw<T, V> r;
};
/* A pack of 16-bit elements in whole 16-byte words is held as words: the staging only moves it. Held
 * as 16-bit elements, each pack's store to the tile after the batch's first was split into 2- and
 * 4-byte stores with the halves' moves around them (PTX of the bf16 forward; ncu: 20 shared stores a
 * warp and tile where five packs were put). fp32 packs are stored whole as they are (held as words,
 * the fp32 forward spilled 8 bytes). */
template <typename T, int V> struct hsm_ch_staged<T, V, true> {
    uint4 w[sizeof(T) * V / 16];
};
template <typename T, int V>
__device__ __forceinline__ void hsm_ch_stage_load(hsm_ch_staged<T, V, false> &s, const T *p)
{
    hsm_raw_load<T, V>(s.r, p);
}
template <typename T, int V>
__device__ __forceinline__ void hsm_ch_stage_load(hsm_ch_staged<T, V, true> &s, const T *p)
{
#pragma unroll
    for (int u = 0; u < (int)(sizeof(T) * V / 16); u++)
        s.w[u] = reinterpret_cast<const uint4 *>(p)[u];
}
template <typename T, int V>
__device__ __forceinline__ void hsm_ch_stage_store(const hsm_ch_staged<T, V, false> &s, T *t)
{
    constexpr int P = hsm_piece<T, V>::n;
#pragma unroll
    for (int u = 0; u < V / P; u++)
        *reinterpret_cast<hsm_pack<T, P> *>(t + u * P) = s.r.piece[u];
}
template <typename T, int V>
__device__ __forceinline__ void hsm_ch_stage_store(const hsm_ch_staged<T, V, true> &s, T *t)
{
#pragma unroll
    for (int u = 0; u < (int)(sizeof(T) * V / 16); u++)
        hsm_store16_shared(reinterpret_cast<uint4 *>(t) + u, s.w[u]);
}

/* One batch in registers: L packs of src (and of src2). Where dy's elements are wider than y's (fp32
 * dy, 16-bit y), fewer, so the batch holds as many registers as with dy in y's dtype: a kernel's
 * registers are those of its widest dy, and the kernels are held to 64 (HSM_CH_TILE). */
template <typename T, typename TD, int V, bool TWO> struct hsm_ch_batch {
    static constexpr int L = hsm_ch_tile_loads<V, TWO>::n / (TWO && sizeof(TD) > sizeof(T) ? sizeof(TD) / sizeof(T) : 1);
    hsm_ch_staged<T, V> r[L];
    hsm_ch_staged<TD, V> r2[TWO ? L : 1];
};

/* A tile's shape in packs: pack q is position q >> psh, columns (q & (2^psh - 1)) * V. The plan's W
 * (a power of two, at most the block) divides the block, so 2^psh does too: pack q + block is the
 * same columns one round of positions (block >> psh) further, and a thread stages one column's pack
 * j = (t & (2^psh - 1)) * V at positions t >> psh, + block >> psh, ... (hsm_ch_tiles). */
template <int V> __device__ __forceinline__ int hsm_ch_psh(int wsh) { return wsh - (V == 8 ? 3 : V == 4 ? 2 : V == 2 ? 1 : 0); }

/* Issues the loads of a batch: the thread's positions c + l * cstep under cl (C, or 0 for a column
 * past the tile's valid ones), from p and p2 (position c's pack) step elements a round; nothing waits
 * for them until hsm_ch_put. (Computed from the pack index q, each load's address took about 20
 * instructions, with its 64-bit product c * inner: ncu source counters of the bf16 forward on
 * 16 x 150 x 16384, H200. Stepped, the kernel executes 3% fewer instructions there.) */
template <typename T, typename TD, int V, bool TWO>
__device__ __forceinline__ void hsm_ch_fetch(hsm_ch_batch<T, TD, V, TWO> &b, const T *p, const TD *p2, int64_t step,
                                             int c, int cstep, int cl)
{
#pragma unroll
    for (int l = 0; l < b.L; l++) {
        if (c + l * cstep < cl) {
            hsm_ch_stage_load<T, V>(b.r[l], p);
            if (TWO)
                hsm_ch_stage_load<TD, V>(b.r2[TWO ? l : 0], p2);
        }
        p += step;
        if (TWO)
            p2 += step;
    }
}

/* Writes the batch to the tiles from t (and t2), position c's pack, tstep elements a round. */
template <typename T, typename TD, int V, bool TWO>
__device__ __forceinline__ void hsm_ch_put(const hsm_ch_batch<T, TD, V, TWO> &b, T *t, TD *t2, int tstep, int c,
                                           int cstep, int cl)
{
#pragma unroll
    for (int l = 0; l < b.L; l++) {
        if (c + l * cstep < cl) {
            hsm_ch_stage_store<T, V>(b.r[l], t + l * tstep);
            if (TWO)
                hsm_ch_stage_store<TD, V>(b.r2[TWO ? l : 0], t2 + l * tstep);
        }
    }
}

/* The tile's place: slice r and first column i0 of tile `tile`, its valid columns wn. */
__device__ __forceinline__ void hsm_ch_tile_at(const hsm_args &a, int wsh, int64_t tps, int64_t tile, int64_t &r,
                                               int64_t &i0, int &wn)
{
    r = tps == 1 ? tile : tile / tps;
    i0 = (tile - r * tps) << wsh;
    const int64_t left = a.inner - i0;
    wn = left < ((int64_t)1 << wsh) ? (int)left : 1 << wsh;
}

/* Bytes of a tile of T, rounded to 16 so what follows it is aligned. */
template <typename T> __device__ __forceinline__ int hsm_ch_tile_bytes(int C, int wsh)
{
    return ((C << wsh) * (int)sizeof(T) + 15) & ~15;
}

/* The block's tiles t = blockIdx.x, + gridDim.x, ...: each staged whole (a batch at a time), then
 * WORK(r, i0, wn) reduces and writes it; the threads of a block all call it, it may hold barriers.
 * Fetching the next tile's first batch while this one is reduced (software pipelining) was slower
 * on an H200: the batch held across the reduction took registers (fp32 forward 62 -> 72, backward
 * 63 -> 126), and the blocks a SM they cost weighed more than the overlap (fp32 backward 16 x 150 x
 * 16384: 147 us against 134; bf16 forward 117 against 112). */
template <typename T, typename TD, int V, bool TWO, typename Work>
__device__ __forceinline__ void hsm_ch_tiles(const hsm_args &a, const T *x, T *tile, TD *tile2, int wsh, Work work)
{
    const int C = (int)a.cols, psh = hsm_ch_psh<V>(wsh);
    const int64_t tps = (a.inner + (1 << wsh) - 1) >> wsh, tiles = a.rows * tps;
    hsm_ch_batch<T, TD, V, TWO> b;
    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        int64_t r, i0;
        int wn;
        hsm_ch_tile_at(a, wsh, tps, t, r, i0, wn);
        /* The thread's first position and its column (hsm_ch_psh), the positions a round of the
         * block covers, and the distances a round makes in x and in the tile; from opaque inputs,
         * so they are not held through the work (as hsm_ch_tile_map_of's; held, the 16-bit tile
         * backward spilled 40 bytes). */
        const int tid = (int)hsm_opaque(threadIdx.x), ct = tid >> psh, j = (tid & ((1 << psh) - 1)) * V;
        const int cstep = (int)hsm_opaque(blockDim.x) >> psh, tstep = cstep << wsh;
        const int bstep = hsm_ch_batch<T, TD, V, TWO>::L * cstep;
        const int64_t step = (int64_t)cstep * a.inner;
        const T *src = x + r * a.x_stride + i0 + j + (int64_t)ct * a.inner;
        const TD *src2 = TWO ? (const TD *)hsm_in2_row(a, r) + i0 + j + (int64_t)ct * a.inner : NULL;
        const int cl = j < wn ? C : 0;
        __syncthreads(); /* the previous tile's readers are done with the shared memory */
        for (int c = ct; c - ct < C; c += bstep) {
            hsm_ch_fetch<T, TD, V, TWO>(b, src, src2, step, c, cstep, cl);
            hsm_loads_before_stores(); /* every thread of the block runs as many batches */
            hsm_ch_put<T, TD, V, TWO>(b, tile + (c << wsh) + j, TWO ? tile2 + (c << wsh) + j : tile2, tstep, c, cstep, cl);
            src += (int64_t)b.L * step;
            if (TWO)
                src2 += (int64_t)b.L * step;
        }
        __syncthreads();
        work(r, i0, wn);
    }
}

/* RV elements of a tile at q as floats. 16-bit pairs are read as words and converted from the word
 * (hsm_lo_to_float, hsm_hi_to_float): through hsm_get, each bf16 high half took a byte permute and a
 * shift where one mask does, in each of the forward's three passes (SASS, 16 x 150 x 16384). */
template <typename T, int RV>
__device__ __forceinline__ void hsm_ch_get(const T *q, float *v)
{
    if constexpr (sizeof(T) == 2 && RV % 2 == 0) {
#pragma unroll
        for (int u = 0; u < RV; u += 2) {
            const uint32_t w = *reinterpret_cast<const uint32_t *>(q + u);
            v[u] = hsm_lo_to_float(w, T{});
            v[u + 1] = hsm_hi_to_float(w, T{});
        }
    } else {
        hsm_get<T, RV>(q, v);
    }
}

/* The columns a thread of a vector tile kernel reduces at once (RV, its reduction width), per element
 * size; one in the one-element kernels. Measured on an H200 (bench/results/
 * h200-2026-11-24-channel-rv.md), 16-bit 16 x 150 x 16384 forward: RV 1, 2, 4 took 85, 77, 82 us;
 * fp32 RV 1 and 2: 114 and 120 us. Wider, a thread's columns cost registers (64 a thread, below)
 * and a fold of more values. */
#define HSM_CH_TILE_RV16 2
#define HSM_CH_TILE_RV32 1
template <typename T, int V> struct hsm_ch_tile_rv {
    static constexpr int n = V == 1 ? 1 : sizeof(T) == 2 ? HSM_CH_TILE_RV16 : HSM_CH_TILE_RV32;
};

/* The tile's layout in threads: thread t takes the RV adjacent columns g * RV.. (g = t % G, G = W /
 * RV groups) at positions p, p + P, ... (p = t / G, P = block / G; n of them): a warp reads whole
 * lines of one or more positions, RV elements an access, without bank conflicts, and writes RV
 * outputs an access. */
struct hsm_ch_tile_map {
    int wsh, C, G, g, p, P, n;
};

/* (Computed in each tile's work from opaque inputs: computed once before the tile loop, the map and
 * what the work derives from it were held through the staging, and took 30-40 registers more.)
 * W, RV and the block (HSM_CHANNEL_TILE_BLOCK) are powers of two, so G and P are: shifts and masks
 * where divisions by them took about 25 instructions each, four a tile and warp (SASS of the bf16
 * forward, 16 x 150 x 16384). */
template <int RV>
__device__ __forceinline__ hsm_ch_tile_map hsm_ch_tile_map_of(const hsm_args &a)
{
    static_assert(RV == 1 || RV == 2 || RV == 4, "RV: a power of two");
    hsm_ch_tile_map m;
    const int t = (int)hsm_opaque(threadIdx.x);
    m.wsh = __ffs((int)hsm_opaque((uint32_t)a.channel_lanes)) - 1;
    m.C = (int)hsm_opaque((uint32_t)a.cols);
    /* G = W / RV groups of RV columns: the shift hsm_ch_psh gives packs of RV */
    const int gsh = hsm_ch_psh<RV>(m.wsh), psh = __ffs((int)blockDim.x) - 1 - gsh;
    m.G = 1 << gsh;
    m.g = t & (m.G - 1);
    m.p = t >> gsh;
    m.P = 1 << psh;
    m.n = m.p < m.C ? ((m.C - 1 - m.p) >> psh) + 1 : 0;
    return m;
}

/* Partial values a column of a tile leaves for hsm_ch_tile_fold: one a warp where a warp holds
 * several of its threads (its G column groups fewer than a warp's lanes), else one a thread (P of
 * them a column: block / G). */
__device__ __forceinline__ int hsm_ch_tile_parts(const hsm_ch_tile_map &m)
{
    return m.G < HSM_WARP_SIZE ? (int)blockDim.x / HSM_WARP_SIZE : m.P;
}

/* v[0..RV): the thread's partial max (MAX) or sum of its columns; on return, the whole column's,
 * the same in every thread: folded across the lanes of a warp that share the column (shuffles), then
 * across the parts, a column a thread, in a fixed order (every thread folding all its columns' parts
 * read RV x parts floats: with 8 columns a thread, more than the elements it reduces), then read back.
 * red, after the tiles in shared memory: the parts' values, [part][W] floats, then the folded ones,
 * [W] (plan_channel_tile reserves as much). All threads of the block call it (two barriers); red's
 * parts are free again when it returns. */
template <int RV, bool MAX>
__device__ __forceinline__ void hsm_ch_tile_fold(float *v, float *red, const hsm_ch_tile_map &m)
{
    const int lane = (int)threadIdx.x % HSM_WARP_SIZE, W = 1 << m.wsh, parts = hsm_ch_tile_parts(m);
    int part = m.p;
    if (m.G < HSM_WARP_SIZE) {
        for (int o = m.G; o < HSM_WARP_SIZE; o *= 2) {
#pragma unroll
            for (int u = 0; u < RV; u++) {
                const float w = hsm_shfl_xor(v[u], o, HSM_WARP_SIZE);
                v[u] = MAX ? hsm_max(v[u], w) : v[u] + w;
            }
        }
        part = (int)threadIdx.x / HSM_WARP_SIZE;
    }
    float *done = red + (parts << m.wsh);
    if (m.G >= HSM_WARP_SIZE || lane < m.G) {
#pragma unroll
        for (int u = 0; u < RV; u++)
            red[(part << m.wsh) + m.g * RV + u] = v[u];
    }
    __syncthreads();
    if ((int)threadIdx.x < W) {
        float x = red[threadIdx.x];
        for (int q = 1; q < parts; q++)
            x = MAX ? hsm_max(x, red[(q << m.wsh) + threadIdx.x]) : x + red[(q << m.wsh) + threadIdx.x];
        done[threadIdx.x] = x;
    }
    __syncthreads();
#pragma unroll
    for (int u = 0; u < RV; u++)
        v[u] = done[m.g * RV + u];
}

/* The forward's outputs (MODE as in hsm_epi_value) of the thread's n positions from q of the tile,
 * to y in To; BLEND: alpha and beta apply (a branch out of the loop); F: 16-bit softmax outputs take
 * the exponent as one FFMA, as the sum did (hsm_ch_tile_sum). */
template <typename T, typename To, int RV, int MODE, bool BLEND, bool F>
__device__ __forceinline__ void hsm_ch_tile_out_t(const hsm_args &a, const hsm_ch_tile_map &m, To *y, const T *q,
                                                  const hsm_epi *e)
{
    const int64_t ystep = (int64_t)m.P * a.inner;
    const int qstep = m.P << m.wsh;
    /* 16-bit softmax outputs: log2 of 1 / S added to the exponent, one instruction an element fewer
     * (hsm_norm_of, hsm_exp_norm; 1 / S = 0 for an empty column under safe rows gives -inf, so 0,
     * as before). */
    constexpr bool NORM = MODE == HSM_FROM_U_SOFTMAX && sizeof(To) == 2;
    static_assert(!F || NORM, "F: 16-bit softmax outputs");
    float norm[RV];
#pragma unroll
    for (int u = 0; u < RV; u++)
        norm[u] = NORM ? hsm_expo_norm<To>(hsm_expo_of<F>(e[u].m, e[u].k), hsm_log2(e[u].inv)).c : 0.0f;
#pragma unroll 4
    for (int i = 0; i < m.n; i++) {
        float v[RV], o[RV];
        hsm_ch_get<T, RV>(q + i * qstep, v);
#pragma unroll
        for (int u = 0; u < RV; u++)
            o[u] = NORM ? hsm_exp2(fmaf(F ? v[u] : v[u] - e[u].m, e[u].k, norm[u])) : hsm_epi_value<MODE>(v[u], e[u]);
        if (BLEND)
            hsm_put_out<To, RV>(a, y, o);
        else
            hsm_put<To, RV>(y, o);
        y += ystep;
    }
}

template <typename T, typename To, int RV, int MODE, bool F>
__device__ __forceinline__ void hsm_ch_tile_out_b(const hsm_args &a, const hsm_ch_tile_map &m, void *yrow, int64_t at,
                                                  const T *q, const hsm_epi *e)
{
    To *y = (To *)yrow + at;
    if (a.op.blend)
        hsm_ch_tile_out_t<T, To, RV, MODE, true, F>(a, m, y, q, e);
    else
        hsm_ch_tile_out_t<T, To, RV, MODE, false, F>(a, m, y, q, e);
}

/* The same in the call's output dtype, at element `at` of the output row (a branch every thread takes
 * the same way); F only for 16-bit outputs (hsm_ch_tile_fma). */
template <typename T, int RV, int MODE, bool F = false>
__device__ __forceinline__ void hsm_ch_tile_out(const hsm_args &a, const hsm_ch_tile_map &m, void *yrow, int64_t at,
                                                const T *q, const hsm_epi *e)
{
    switch (a.op.out_dtype) {
    case HSM_F16: hsm_ch_tile_out_b<T, hsm_f16, RV, MODE, F>(a, m, yrow, at, q, e); break;
    case HSM_BF16: hsm_ch_tile_out_b<T, hsm_bf16, RV, MODE, F>(a, m, yrow, at, q, e); break;
    default: hsm_ch_tile_out_b<T, float, RV, MODE, false>(a, m, yrow, at, q, e); break;
    }
}

/* Whether a thread's columns take their exponents as one FFMA, x k - m k (hsm_expo<true>), in the sum
 * and in the outputs: where the outputs are 16-bit softmax ones, whose exponent takes the sum's shift
 * -m k with log2(1 / S) added, so the shift's rounding cancels (softmax_common.h, HSM_FMA_EXP_LIMIT),
 * and every column's max allows it (finite, |m k| < 128). Two instructions a position and column
 * fewer: on an H100, 16-bit forwards of 32 MB and more 1.01-1.05x, fp32 x with bf16 y 1.01-1.04x
 * (bench/results/h100-2026-11-28-channel-staging-words.md). */
template <int RV>
__device__ __forceinline__ bool hsm_ch_tile_fma(const hsm_args &a, const float *mx, float k)
{
    bool f = !a.op.log && a.op.out_dtype != HSM_F32;
#pragma unroll
    for (int u = 0; u < RV; u++)
        f = f && hsm_fma_exp_ok(mx[u] * k);
    return f;
}

/* s[0..RV): each column's sum of exp2((v - sh) k) over the thread's n positions from q, qstep
 * elements apart, the exponent in hsm_expo<F>'s form. */
template <typename T, int RV, bool F>
__device__ __forceinline__ void hsm_ch_tile_sum(const T *q, int qstep, int n, const float *sh, float k, float *s)
{
    hsm_expo<F> ex[RV];
#pragma unroll
    for (int u = 0; u < RV; u++)
        ex[u] = hsm_expo_of<F>(sh[u], k);
#pragma unroll 4
    for (int i = 0; i < n; i++) {
        float v[RV];
        hsm_ch_get<T, RV>(q + i * qstep, v);
#pragma unroll
        for (int u = 0; u < RV; u++)
            s[u] += hsm_exp2(ex[u].at(v[u]));
    }
}

/* mx[0..RV): the max of each of the thread's columns over its n positions from q, qstep elements
 * apart. 16-bit pairs, where the vendor compares pairs in one instruction (as hsm_words_max), are
 * compared as stored and converted once: a load and a max a position, where converting each value
 * took two conversions and two maxima more (PTX of the bf16 forward). NaN is passed over as fmaxf
 * does. */
template <typename T, int RV>
__device__ __forceinline__ void hsm_ch_tile_max(const T *q, int qstep, int n, float *mx)
{
#if defined(HSM_PACKED_MAX_16)
    if constexpr (sizeof(T) == 2 && RV == 2) {
        uint32_t w = hsm_neg_inf_word<T>();
#pragma unroll 4
        for (int i = 0; i < n; i++)
            w = hsm_max_pair(w, *reinterpret_cast<const uint32_t *>(q + i * qstep), T{});
        mx[0] = hsm_lo_to_float(w, T{});
        mx[1] = hsm_hi_to_float(w, T{});
    } else
#endif
    {
#pragma unroll 4
        for (int i = 0; i < n; i++) {
            float v[RV];
            hsm_ch_get<T, RV>(q + i * qstep, v);
#pragma unroll
            for (int u = 0; u < RV; u++)
                mx[u] = hsm_max(mx[u], v[u]);
        }
    }
}

/* The forward: the columns' max (folded), their sum of exponentials relative to it (folded), then
 * the outputs. */
template <typename T, int V>
__device__ __forceinline__ void hsm_ch_tile_fwd_body(const hsm_args &a)
{
    constexpr int RV = hsm_ch_tile_rv<T, V>::n;
    T *tile = reinterpret_cast<T *>(hsm_ch_smem);
    hsm_ch_tiles<T, T, V, false>(a, (const T *)a.x, tile, (T *)NULL, __ffs(a.channel_lanes) - 1,
                                 [&](int64_t r, int64_t i0, int wn) {
        const hsm_ch_tile_map m = hsm_ch_tile_map_of<RV>(a);
        float *red = reinterpret_cast<float *>(reinterpret_cast<char *>(hsm_ch_smem) + hsm_ch_tile_bytes<T>(m.C, m.wsh));
        const float k = a.op.sigma * HSM_LOG2E;
        const T *q = tile + (m.p << m.wsh) + m.g * RV; /* the thread's first position */
        const int qstep = m.P << m.wsh;
        const bool on = m.g * RV < wn;
        float mx[RV], s[RV];
#pragma unroll
        for (int u = 0; u < RV; u++) {
            mx[u] = HSM_NEG_INF;
            s[u] = 0.0f;
        }
        if (on)
            hsm_ch_tile_max<T, RV>(q, qstep, m.n, mx);
        hsm_ch_tile_fold<RV, true>(mx, red, m);
        float sh[RV]; /* the shift of the sum: the max, 0 for an empty column, as the register kernels */
#pragma unroll
        for (int u = 0; u < RV; u++)
            sh[u] = mx[u] == HSM_NEG_INF ? 0.0f : mx[u];
        const bool fma = hsm_ch_tile_fma<RV>(a, mx, k);
        if (on && fma)
            hsm_ch_tile_sum<T, RV, true>(q, qstep, m.n, sh, k, s);
        else if (on)
            hsm_ch_tile_sum<T, RV, false>(q, qstep, m.n, sh, k, s);
        hsm_ch_tile_fold<RV, false>(s, red, m);
        if (!on)
            return;
        hsm_epi e[RV];
#pragma unroll
        for (int u = 0; u < RV; u++)
            e[u] = hsm_ch_epi(a, mx[u], s[u]);
        void *yrow = hsm_out_row(a, r);
        const int64_t at = i0 + m.g * RV + (int64_t)m.p * a.inner;
        if (a.op.log)
            hsm_ch_tile_out<T, RV, HSM_FROM_U_LOG>(a, m, yrow, at, q, e);
        else if (fma)
            hsm_ch_tile_out<T, RV, HSM_FROM_U_SOFTMAX, true>(a, m, yrow, at, q, e);
        else
            hsm_ch_tile_out<T, RV, HSM_FROM_U_SOFTMAX>(a, m, yrow, at, q, e);
    });
}

/* The backward's outputs, as hsm_ch_tile_out_t. */
template <typename T, typename TD, typename To, int RV, int LOG, bool BLEND>
__device__ __forceinline__ void hsm_ch_tile_bwd_out_t(const hsm_args &a, const hsm_ch_tile_map &m, To *x, const T *yq,
                                                      const TD *dq, const float *s)
{
    const int64_t xstep = (int64_t)m.P * a.inner;
    const int qstep = m.P << m.wsh;
#pragma unroll 4
    for (int i = 0; i < m.n; i++) {
        float yv[RV], dv[RV], o[RV];
        hsm_ch_get<T, RV>(yq + i * qstep, yv);
        hsm_ch_get<TD, RV>(dq + i * qstep, dv);
#pragma unroll
        for (int u = 0; u < RV; u++)
            o[u] = hsm_bwd_value<LOG>(yv[u], dv[u], s[u], a.op.scale);
        if (BLEND)
            hsm_put_out<To, RV>(a, x, o);
        else
            hsm_put<To, RV>(x, o);
        x += xstep;
    }
}

template <typename T, typename TD, typename To, int RV, int LOG>
__device__ __forceinline__ void hsm_ch_tile_bwd_out_b(const hsm_args &a, const hsm_ch_tile_map &m, void *xrow,
                                                      int64_t at, const T *yq, const TD *dq, const float *s)
{
    To *x = (To *)xrow + at;
    if (a.op.blend)
        hsm_ch_tile_bwd_out_t<T, TD, To, RV, LOG, true>(a, m, x, yq, dq, s);
    else
        hsm_ch_tile_bwd_out_t<T, TD, To, RV, LOG, false>(a, m, x, yq, dq, s);
}

template <typename T, typename TD, int RV, int LOG>
__device__ __forceinline__ void hsm_ch_tile_bwd_out(const hsm_args &a, const hsm_ch_tile_map &m, void *xrow,
                                                    int64_t at, const T *yq, const TD *dq, const float *s)
{
    switch (a.op.out_dtype) {
    case HSM_F16: hsm_ch_tile_bwd_out_b<T, TD, hsm_f16, RV, LOG>(a, m, xrow, at, yq, dq, s); break;
    case HSM_BF16: hsm_ch_tile_bwd_out_b<T, TD, hsm_bf16, RV, LOG>(a, m, xrow, at, yq, dq, s); break;
    default: hsm_ch_tile_bwd_out_b<T, TD, float, RV, LOG>(a, m, xrow, at, yq, dq, s); break;
    }
}

/* The backward of dy's dtype TD: y's tile, then dy's, then the folded sums. dx may be dy (in place):
 * a tile is read whole before any of it is written. */
template <typename T, typename TD, int V>
__device__ __forceinline__ void hsm_ch_tile_bwd_t(const hsm_args &a)
{
    constexpr int RV = hsm_ch_tile_rv<T, V>::n;
    char *base = reinterpret_cast<char *>(hsm_ch_smem);
    const int wsh = __ffs(a.channel_lanes) - 1;
    T *ytile = reinterpret_cast<T *>(base);
    TD *dtile = reinterpret_cast<TD *>(base + hsm_ch_tile_bytes<T>((int)a.cols, wsh));
    hsm_ch_tiles<T, TD, V, true>(a, (const T *)a.x, ytile, dtile, wsh,
                                 [&](int64_t r, int64_t i0, int wn) {
        const hsm_ch_tile_map m = hsm_ch_tile_map_of<RV>(a);
        const int tb = hsm_ch_tile_bytes<T>(m.C, m.wsh), first = (m.p << m.wsh) + m.g * RV, qstep = m.P << m.wsh;
        float *red = reinterpret_cast<float *>(base + tb + hsm_ch_tile_bytes<TD>(m.C, m.wsh));
        const T *yq = reinterpret_cast<const T *>(base) + first;
        const TD *dq = reinterpret_cast<const TD *>(base + tb) + first;
        const bool on = m.g * RV < wn;
        float s[RV];
#pragma unroll
        for (int u = 0; u < RV; u++)
            s[u] = 0.0f;
        if (on && a.op.log) { /* log-softmax: the sum of dy alone */
#pragma unroll 4
            for (int i = 0; i < m.n; i++) {
                float dv[RV];
                hsm_ch_get<TD, RV>(dq + i * qstep, dv);
#pragma unroll
                for (int u = 0; u < RV; u++)
                    s[u] += dv[u];
            }
        } else if (on) {
#pragma unroll 4
            for (int i = 0; i < m.n; i++) {
                float yv[RV], dv[RV];
                hsm_ch_get<T, RV>(yq + i * qstep, yv);
                hsm_ch_get<TD, RV>(dq + i * qstep, dv);
#pragma unroll
                for (int u = 0; u < RV; u++)
                    s[u] += dv[u] * yv[u];
            }
        }
        hsm_ch_tile_fold<RV, false>(s, red, m);
        if (!on)
            return;
        void *xrow = hsm_out_row(a, r);
        const int64_t at = i0 + m.g * RV + (int64_t)m.p * a.inner;
        if (a.op.log)
            hsm_ch_tile_bwd_out<T, TD, RV, 1>(a, m, xrow, at, yq, dq, s);
        else
            hsm_ch_tile_bwd_out<T, TD, RV, 0>(a, m, xrow, at, yq, dq, s);
    });
}

template <typename T, int V>
__device__ __forceinline__ void hsm_ch_tile_bwd_body(const hsm_args &a)
{
    switch (a.op.in2_dtype) {
    case HSM_F16: hsm_ch_tile_bwd_t<T, hsm_f16, V>(a); break;
    case HSM_BF16: hsm_ch_tile_bwd_t<T, hsm_bf16, V>(a); break;
    default: hsm_ch_tile_bwd_t<T, float, V>(a); break;
    }
}

/* ---- word kernels (forward) -------------------------------------------------------------------
 * A warp takes one 32-bit word of columns a lane across a line (a warp's words: 128 bytes on NVIDIA,
 * 64 16-bit or 32 fp32 columns), and the G warps of a tile (hsm_args.channel_warps) split C: warp w
 * takes positions w, w + G, ..., at most K of them, kept in registers, read once and written once. A
 * block holds hsm_ch_word_groups tiles' warps. Why a kernel of its own: on an H100 (bench/results/
 * h100-2026-11-25-channel-words.md) the tile forward executed 39 warp instructions an element in
 * 16-bit (three passes over shared memory, two exponentials, the staging) and the register kernels
 * above 70 (a 64-bit address and a predicate a position, every thread folding every warp's pair); here
 * a position is one load, one exponential, one store a word, and the tile's (max, sum) pairs are
 * folded once a column: the thread of the group whose index is the column's folds its G pairs in a
 * fixed order (one to two columns a thread of the first warps), the others read the result. */

/* Tiles (lines of columns) of a block: the warps of G-warp groups in a block of at most 256 threads,
 * as the plan's block (plan_channel_word). */
__device__ __forceinline__ int hsm_ch_word_groups(int G) { return (int)blockDim.x / (HSM_WARP_SIZE * G); }

/* The word kernels' outputs of the thread's first n positions at p, step elements apart (MODE as in
 * hsm_epi_value), in To: E values a position in one access (a 16-bit pair as one 32-bit word: the
 * pack copied as a struct was stored as two 16-bit stores); BLEND: alpha and beta apply, chosen once
 * outside the positions, as the tile kernels' hsm_ch_tile_out_b (tested a position, it cost a branch
 * and two parameter loads a store). The register kernels keep hsm_ch_store_fwd: taking the branch
 * out of their loop pushed fp32 r16_fwd to spill more (32 x 64 x 16384: 112-130 us against 105). */
template <typename To, int N, int E, int MODE, bool BLEND>
__device__ __forceinline__ void hsm_ch_word_store_t(const hsm_args &a, To *p, int64_t step, int n, const float *v,
                                                    const hsm_epi *e)
{
#pragma unroll
    for (int k = 0; k < N; k++) {
        if (k < n) {
            float o[E];
#pragma unroll
            for (int j = 0; j < E; j++)
                o[j] = hsm_epi_value<MODE>(v[k * E + j], e[j]);
            To *q = p + k * step;
            if (BLEND) {
                hsm_put_out<To, E>(a, q, o);
            } else if constexpr (sizeof(To) == 2 && E == 2) {
                *reinterpret_cast<uint32_t *>(q) = hsm_pair_from_float(o[0], o[1], To{});
            } else {
                hsm_put<To, E>(q, o);
            }
        }
    }
}

template <int N, int E, int MODE>
__device__ __forceinline__ void hsm_ch_word_store(const hsm_args &a, void *yrow, int64_t at, int64_t step, int n,
                                                  const float *v, const hsm_epi *e)
{
#define HSM_CH_WORD_STORE(TO)                                                                           \
    (a.op.blend ? hsm_ch_word_store_t<TO, N, E, MODE, true>(a, (TO *)yrow + at, step, n, v, e)          \
                : hsm_ch_word_store_t<TO, N, E, MODE, false>(a, (TO *)yrow + at, step, n, v, e))
    switch (a.op.out_dtype) {
    case HSM_F16: HSM_CH_WORD_STORE(hsm_f16); break;
    case HSM_BF16: HSM_CH_WORD_STORE(hsm_bf16); break;
    default: HSM_CH_WORD_STORE(float); break;
    }
#undef HSM_CH_WORD_STORE
}

/* The loop carries the tile's place alone (slice r, line c); what the pass derives from the
 * arguments is derived again each pass from opaque copies (hsm_opaque), so it is not held in
 * registers beside the K * E values. The plan keeps lines a slice and the grid's tiles a pass under
 * 2^31. */
template <typename T, int K>
__device__ __forceinline__ void hsm_ch_word_fwd_body(const hsm_args &a)
{
    constexpr int E = (int)(4 / sizeof(T)); /* columns in a word */
    constexpr int LINE = HSM_WARP_SIZE * E;  /* columns of a tile */
    const int G0 = a.channel_warps, groups0 = hsm_ch_word_groups(G0);
    const int tps0 = (int)((a.inner + LINE - 1) / LINE);
    const int t0 = (int)blockIdx.x * groups0 + (int)threadIdx.x / (HSM_WARP_SIZE * G0);
    /* Tile t = blockIdx.x * groups + g, then gridDim.x * groups further each pass: its slice r and
     * line c, stepped without a division a pass. */
    const int tstep = (int)gridDim.x * groups0, dr = tstep / tps0, dc = tstep - dr * tps0;
    int64_t r = t0 / tps0;
    int c = t0 - (int)r * tps0;
    const int64_t tiles = a.rows * tps0;
    float v[K * E];
    int parity = 0;
    for (int64_t bt = blockIdx.x; bt * groups0 < tiles; bt += gridDim.x, parity ^= 1) {
        const int lane = (int)hsm_opaque(threadIdx.x) % HSM_WARP_SIZE;
        const int warp = (int)hsm_opaque(threadIdx.x) / HSM_WARP_SIZE;
        const int G = (int)hsm_opaque((uint32_t)a.channel_warps), groups = hsm_ch_word_groups(G);
        const int g = warp / G, wg = warp % G;
        const int64_t C = a.cols, inner = a.inner;
        const float k = a.op.sigma * HSM_LOG2E;
        /* The warp's positions wg, wg + G, ...: n of K (the plan gives G * K >= C). */
        const bool on = r < a.rows && (int64_t)c * LINE + lane * E < inner; /* E divides inner (the plan) */
        const int n = on && wg < C ? (int)((C - wg + G - 1) / G) : 0;
        const int64_t step = (int64_t)G * inner, at = (int64_t)wg * inner + (int64_t)c * LINE + lane * E;
        /* Shared memory, G > 1: [parity][max, sum][thread][E] partial pairs, then [parity][group][max,
         * sum][LINE] folded ones (plan_channel_word sizes it). */
        float *part = hsm_ch_smem, *done = hsm_ch_smem + 2 * 2 * E * blockDim.x;
        float mt[E], M[E], S[E];
        hsm_ch_load<T, K, E>((const T *)a.x + r * a.x_stride + at, step, n, v, mt);
#pragma unroll
        for (int j = 0; j < E; j++) {
            hsm_epi et = hsm_epi_begin(a, mt[j]); /* the thread's own shift: its max, or 0 while every value is -inf */
            et.m = mt[j] == HSM_NEG_INF ? 0.0f : mt[j];
            float col[K];
#pragma unroll
            for (int q = 0; q < K; q++)
                col[q] = v[q * E + j];
            S[j] = hsm_fwd_sum<K>(a, col, et);
#pragma unroll
            for (int q = 0; q < K; q++)
                v[q * E + j] = col[q];
            M[j] = mt[j];
        }
        if (G > 1) {
            float *pm = part + parity * 2 * E * (int)blockDim.x, *ps = pm + E * (int)blockDim.x;
#pragma unroll
            for (int j = 0; j < E; j++) {
                pm[threadIdx.x * E + j] = M[j];
                ps[threadIdx.x * E + j] = S[j];
            }
            __syncthreads();
            /* Column q of the group's line: word q / E, element q % E of each of its G warps' lanes. */
            float *dm = done + (parity * groups + g) * 2 * LINE, *ds = dm + LINE;
            for (int q = wg * HSM_WARP_SIZE + lane; q < LINE; q += G * HSM_WARP_SIZE) {
                const int first = (g * G * HSM_WARP_SIZE + q / E) * E + q % E;
                float fm = pm[first], fs = ps[first];
                for (int w = 1; w < G; w++)
                    hsm_ch_pair_fold(fm, fs, pm[first + w * HSM_WARP_SIZE * E], ps[first + w * HSM_WARP_SIZE * E], k);
                dm[q] = fm;
                ds[q] = fs;
            }
            __syncthreads();
#pragma unroll
            for (int j = 0; j < E; j++) {
                M[j] = dm[lane * E + j];
                S[j] = ds[lane * E + j];
            }
        }
        hsm_epi e[E];
#pragma unroll
        for (int j = 0; j < E; j++)
            e[j] = hsm_ch_epi(a, M[j], S[j]);
        void *yrow = hsm_out_row(a, r);
        if (a.op.log) {
            hsm_ch_word_store<K, E, HSM_FROM_U_LOG>(a, yrow, at, step, n, v, e);
        } else {
#pragma unroll
            for (int j = 0; j < E; j++)
                e[j].inv *= hsm_rescale_k(mt[j], M[j], k); /* from the thread's shift to the column's max */
            hsm_ch_word_store<K, E, HSM_FROM_EXP>(a, yrow, at, step, n, v, e);
        }
        r += dr;
        c += dc;
        if (c >= tps0) {
            c -= tps0;
            r++;
        }
    }
}

#define HSM_CH_FWD(NAME, T, N, V, B, BODY)                                                            \
    extern "C" __global__ void __launch_bounds__(B) NAME(hsm_args a) { BODY<T, N, V>(a); }
#define HSM_CH_BWD(NAME, T, N, V, B, STREAM)                                                          \
    extern "C" __global__ void __launch_bounds__(B) NAME(hsm_args a) { hsm_ch_bwd_body<T, N, V, STREAM>(a); }
/* cols_per_thread is N, the positions along C a thread takes (a chunk's, streaming); vec is V;
 * max_block is the launch bound B. */
#define HSM_CH_ENTRY(NAME, KOP, DT, N, V, B)                                                          \
    {#NAME, (const void *)NAME, HSM_FAMILY_CHANNEL, KOP, DT, V, N, B, hsm_launch_plain, 0, 0, 0, 0}

/* Per dtype, one column a thread (any inner, any alignment): register forwards of 4, 8 and 16 values
 * a thread, register backwards of 4 and 8 (they hold y and dy), streaming forward and backward of 4 a
 * chunk: the sizes that stay within the 64 registers of a 1024-thread block without spilling (sm_90:
 * 32 values forward and 16 backward spilled 68 and 140 bytes; streaming chunks of 8 spilled 4 and 36). */
#define HSM_CH_SET(SFX, T)                                                                            \
    HSM_CH_FWD(hsm_channel_##SFX##_r4_fwd, T, 4, 1, HSM_CHANNEL_BLOCK, hsm_ch_fwd_body)               \
    HSM_CH_FWD(hsm_channel_##SFX##_r8_fwd, T, 8, 1, HSM_CHANNEL_BLOCK, hsm_ch_fwd_body)               \
    HSM_CH_FWD(hsm_channel_##SFX##_r16_fwd, T, 16, 1, HSM_CHANNEL_BLOCK, hsm_ch_fwd_body)             \
    HSM_CH_BWD(hsm_channel_##SFX##_r4_bwd, T, 4, 1, HSM_CHANNEL_BLOCK, false)                         \
    HSM_CH_BWD(hsm_channel_##SFX##_r8_bwd, T, 8, 1, HSM_CHANNEL_BLOCK, false)                         \
    HSM_CH_FWD(hsm_channel_##SFX##_o4_fwd, T, 4, 1, HSM_CHANNEL_BLOCK, hsm_ch_fwd_stream_body)        \
    HSM_CH_BWD(hsm_channel_##SFX##_o4_bwd, T, 4, 1, HSM_CHANNEL_BLOCK, true)
#define HSM_CH_REG_ENTRIES(SFX, DT)                                                                   \
    HSM_CH_ENTRY(hsm_channel_##SFX##_r4_fwd, HSM_KOP_FWD, DT, 4, 1, HSM_CHANNEL_BLOCK),               \
        HSM_CH_ENTRY(hsm_channel_##SFX##_r8_fwd, HSM_KOP_FWD, DT, 8, 1, HSM_CHANNEL_BLOCK),           \
        HSM_CH_ENTRY(hsm_channel_##SFX##_r16_fwd, HSM_KOP_FWD, DT, 16, 1, HSM_CHANNEL_BLOCK),         \
        HSM_CH_ENTRY(hsm_channel_##SFX##_r4_bwd, HSM_KOP_BWD, DT, 4, 1, HSM_CHANNEL_BLOCK),           \
        HSM_CH_ENTRY(hsm_channel_##SFX##_r8_bwd, HSM_KOP_BWD, DT, 8, 1, HSM_CHANNEL_BLOCK)
#define HSM_CH_STREAM_ENTRIES(SFX, DT)                                                                \
    HSM_CH_ENTRY(hsm_channel_##SFX##_o4_fwd, HSM_KOP_FWD, DT, 4, 1, HSM_CHANNEL_BLOCK),               \
        HSM_CH_ENTRY(hsm_channel_##SFX##_o4_bwd, HSM_KOP_BWD, DT, 4, 1, HSM_CHANNEL_BLOCK)

/* Per dtype, V = 16 bytes of T adjacent columns a thread, one 16-byte access a position (the plan
 * takes them where V divides inner and every row start is on 16 bytes). Named by the values a thread
 * holds, N * V: register forwards of 8, 16 and 32, register backwards of 8 and 16, streaming of 8 a
 * chunk. */
#define HSM_CH_VSET(SFX, T, V, B16)                                                                   \
    HSM_CH_FWD(hsm_channel_##SFX##_vr8_fwd, T, 8 / V, V, HSM_CHANNEL_VBLOCK, hsm_ch_fwd_body)         \
    HSM_CH_FWD(hsm_channel_##SFX##_vr16_fwd, T, 16 / V, V, B16, hsm_ch_fwd_body)                      \
    HSM_CH_FWD(hsm_channel_##SFX##_vr32_fwd, T, 32 / V, V, HSM_CHANNEL_VBLOCK_BIG, hsm_ch_fwd_body)   \
    HSM_CH_BWD(hsm_channel_##SFX##_vr8_bwd, T, 8 / V, V, HSM_CHANNEL_VBLOCK, false)                   \
    HSM_CH_BWD(hsm_channel_##SFX##_vr16_bwd, T, 16 / V, V, HSM_CHANNEL_VBLOCK, false)                 \
    HSM_CH_FWD(hsm_channel_##SFX##_vo8_fwd, T, 8 / V, V, HSM_CHANNEL_VBLOCK, hsm_ch_fwd_stream_body) \
    HSM_CH_BWD(hsm_channel_##SFX##_vo8_bwd, T, 8 / V, V, HSM_CHANNEL_VBLOCK, true)
#define HSM_CH_VREG_ENTRIES(SFX, DT, V, B16)                                                          \
    HSM_CH_ENTRY(hsm_channel_##SFX##_vr8_fwd, HSM_KOP_FWD, DT, 8 / V, V, HSM_CHANNEL_VBLOCK),         \
        HSM_CH_ENTRY(hsm_channel_##SFX##_vr16_fwd, HSM_KOP_FWD, DT, 16 / V, V, B16),                  \
        HSM_CH_ENTRY(hsm_channel_##SFX##_vr32_fwd, HSM_KOP_FWD, DT, 32 / V, V, HSM_CHANNEL_VBLOCK_BIG), \
        HSM_CH_ENTRY(hsm_channel_##SFX##_vr8_bwd, HSM_KOP_BWD, DT, 8 / V, V, HSM_CHANNEL_VBLOCK),     \
        HSM_CH_ENTRY(hsm_channel_##SFX##_vr16_bwd, HSM_KOP_BWD, DT, 16 / V, V, HSM_CHANNEL_VBLOCK)
#define HSM_CH_VSTREAM_ENTRIES(SFX, DT, V)                                                            \
    HSM_CH_ENTRY(hsm_channel_##SFX##_vo8_fwd, HSM_KOP_FWD, DT, 8 / V, V, HSM_CHANNEL_VBLOCK),         \
        HSM_CH_ENTRY(hsm_channel_##SFX##_vo8_bwd, HSM_KOP_BWD, DT, 8 / V, V, HSM_CHANNEL_VBLOCK)

/* Per dtype, the tile kernels: one element an access (any inner, any alignment) and V = 16 bytes of T
 * (where V divides inner and every row start is on 16 bytes), forward and backward. */
/* Held to 64 registers a thread, four blocks a SM on sm_90 (two blocks' loads in flight while two
 * reduce): left to itself, ptxas gave the backward, which holds the code of three dy dtypes, 80-96
 * (two or three blocks), where 64 spill 0-36 bytes. */
#define HSM_CH_TILE(NAME, T, V, BODY)                                                                 \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_CHANNEL_TILE_BLOCK, 64) NAME(hsm_args a) { BODY<T, V>(a); }
#define HSM_CH_TSET(SFX, T, V)                                                                        \
    HSM_CH_TILE(hsm_channel_##SFX##_t_fwd, T, 1, hsm_ch_tile_fwd_body)          \
    HSM_CH_TILE(hsm_channel_##SFX##_t_bwd, T, 1, hsm_ch_tile_bwd_body)          \
    HSM_CH_TILE(hsm_channel_##SFX##_vt_fwd, T, V, hsm_ch_tile_fwd_body)         \
    HSM_CH_TILE(hsm_channel_##SFX##_vt_bwd, T, V, hsm_ch_tile_bwd_body)
#define HSM_CH_TILE_ENTRIES(SFX, DT, V, RV)                                                           \
    HSM_CH_ENTRY(hsm_channel_##SFX##_t_fwd, HSM_KOP_FWD, DT, 1, 1, HSM_CHANNEL_TILE_BLOCK),           \
        HSM_CH_ENTRY(hsm_channel_##SFX##_t_bwd, HSM_KOP_BWD, DT, 1, 1, HSM_CHANNEL_TILE_BLOCK),       \
        HSM_CH_ENTRY(hsm_channel_##SFX##_vt_fwd, HSM_KOP_FWD, DT, RV, V, HSM_CHANNEL_TILE_BLOCK),     \
        HSM_CH_ENTRY(hsm_channel_##SFX##_vt_bwd, HSM_KOP_BWD, DT, RV, V, HSM_CHANNEL_TILE_BLOCK)

/* Per dtype, the word kernels of K positions a thread (hsm_ch_word_fwd_body), forward: K of 16 and 32
 * in fp32 (one column a word, any alignment: vec 1), of 8 and 16 in 16-bit (two columns a word: the
 * layouts of 16-byte rows, vec V, where every word is aligned). Blocks of up to 32 warps: 64
 * registers a thread on NVIDIA, which K * E values of 32 at most leave unspilled. */
#define HSM_CHANNEL_WORD_BLOCK 1024
#define HSM_CH_WORD(NAME, T, K)                                                                         \
    extern "C" __global__ void __launch_bounds__(HSM_CHANNEL_WORD_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                   \
        hsm_ch_word_fwd_body<T, K>(a);                                                                  \
    }
#define HSM_CH_WSET(SFX, T, K1, K2)                                                                     \
    HSM_CH_WORD(hsm_channel_##SFX##_w##K1##_fwd, T, K1)                                                 \
    HSM_CH_WORD(hsm_channel_##SFX##_w##K2##_fwd, T, K2)
#define HSM_CH_WORD_ENTRIES(SFX, DT, K1, K2, V)                                                         \
    HSM_CH_ENTRY(hsm_channel_##SFX##_w##K1##_fwd, HSM_KOP_FWD, DT, K1, V, HSM_CHANNEL_WORD_BLOCK),      \
        HSM_CH_ENTRY(hsm_channel_##SFX##_w##K2##_fwd, HSM_KOP_FWD, DT, K2, V, HSM_CHANNEL_WORD_BLOCK)

HSM_CH_SET(f32, float)
HSM_CH_SET(f16, hsm_f16)
HSM_CH_SET(bf16, hsm_bf16)
HSM_CH_VSET(f32, float, 4, HSM_CHANNEL_VBLOCK)
HSM_CH_VSET(f16, hsm_f16, 8, HSM_CHANNEL_VBLOCK_BIG)
HSM_CH_VSET(bf16, hsm_bf16, 8, HSM_CHANNEL_VBLOCK_BIG)
HSM_CH_TSET(f32, float, 4)
HSM_CH_TSET(f16, hsm_f16, 8)
HSM_CH_TSET(bf16, hsm_bf16, 8)
HSM_CH_WSET(f32, float, 16, 32)
HSM_CH_WSET(f16, hsm_f16, 8, 16)
HSM_CH_WSET(bf16, hsm_bf16, 8, 16)

/* Register kernels first (ascending N per dtype, op and V, the order plan.c walks), streaming ones
 * after them, then the tile kernels, the word kernels last (ascending K per dtype):
 * hsm_channel_streams, hsm_channel_tiles and hsm_channel_words tell them apart by their place in the
 * table. */
#define HSM_CH_REGISTER_COUNT 30
#define HSM_CH_TILE_COUNT 12
#define HSM_CH_WORD_COUNT 6
static const hsm_kernel hsm_channel_table[] = {
    HSM_CH_REG_ENTRIES(f32, HSM_F32),
    HSM_CH_REG_ENTRIES(f16, HSM_F16),
    HSM_CH_REG_ENTRIES(bf16, HSM_BF16),
    HSM_CH_VREG_ENTRIES(f32, HSM_F32, 4, HSM_CHANNEL_VBLOCK),
    HSM_CH_VREG_ENTRIES(f16, HSM_F16, 8, HSM_CHANNEL_VBLOCK_BIG),
    HSM_CH_VREG_ENTRIES(bf16, HSM_BF16, 8, HSM_CHANNEL_VBLOCK_BIG),
    HSM_CH_STREAM_ENTRIES(f32, HSM_F32),
    HSM_CH_STREAM_ENTRIES(f16, HSM_F16),
    HSM_CH_STREAM_ENTRIES(bf16, HSM_BF16),
    HSM_CH_VSTREAM_ENTRIES(f32, HSM_F32, 4),
    HSM_CH_VSTREAM_ENTRIES(f16, HSM_F16, 8),
    HSM_CH_VSTREAM_ENTRIES(bf16, HSM_BF16, 8),
    HSM_CH_TILE_ENTRIES(f32, HSM_F32, 4, HSM_CH_TILE_RV32),
    HSM_CH_TILE_ENTRIES(f16, HSM_F16, 8, HSM_CH_TILE_RV16),
    HSM_CH_TILE_ENTRIES(bf16, HSM_BF16, 8, HSM_CH_TILE_RV16),
    HSM_CH_WORD_ENTRIES(f32, HSM_F32, 16, 32, 1),
    HSM_CH_WORD_ENTRIES(f16, HSM_F16, 8, 16, 8),
    HSM_CH_WORD_ENTRIES(bf16, HSM_BF16, 8, 16, 8),
};

extern "C" const hsm_kernel *hsm_channel_kernels(size_t *count)
{
    *count = sizeof hsm_channel_table / sizeof hsm_channel_table[0];
    return hsm_channel_table;
}

extern "C" int hsm_channel_streams(const hsm_kernel *k)
{
    const size_t n = sizeof hsm_channel_table / sizeof hsm_channel_table[0];
    return k >= hsm_channel_table + HSM_CH_REGISTER_COUNT &&
           k < hsm_channel_table + n - HSM_CH_TILE_COUNT - HSM_CH_WORD_COUNT;
}

extern "C" int hsm_channel_tiles(const hsm_kernel *k)
{
    const size_t n = sizeof hsm_channel_table / sizeof hsm_channel_table[0];
    return k >= hsm_channel_table + n - HSM_CH_TILE_COUNT - HSM_CH_WORD_COUNT &&
           k < hsm_channel_table + n - HSM_CH_WORD_COUNT;
}

extern "C" int hsm_channel_words(const hsm_kernel *k)
{
    const size_t n = sizeof hsm_channel_table / sizeof hsm_channel_table[0];
    return k >= hsm_channel_table + n - HSM_CH_WORD_COUNT && k < hsm_channel_table + n;
}
