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
 * loads with another's reductions and stores. That gained 1.1-1.4x, but the 16-bit tile forward
 * still takes nearly the fp32 time for half the bytes, and prefetching the next tile did not help:
 * what bounds it now is per element (three shared reads, two exponentials, one scalar store a
 * thread), not the loads in flight (bench/results/h200-2026-11-24-channel-tiles.md).
 * In the tile, thread t takes column w = t % W and positions p, p + P, ... of it (p = t / W, P = block
 * / W): a warp reads one position's consecutive columns, without bank conflicts. Three passes over the
 * tile (max, sum, outputs; backward: sum, outputs), the (max, sum) pairs of a column's P threads
 * folded in a fixed order through shared memory after the tile. */
#define HSM_CHANNEL_TILE_BLOCK 256

/* Packs of V a thread loads at once (a batch): 128 bytes a thread for 16-byte packs, half of them y's
 * and half dy's in the backward (staged together, one round trip); 16 elements one at a time for the
 * one-element kernels. A backward staging 8 packs of each tensor took 128 registers on sm_90 (two
 * blocks a SM), and one of 16 single elements each spilled 48 bytes. */
template <int V, bool TWO> struct hsm_ch_tile_loads { static constexpr int n = (V > 1 ? 8 : 16) / (TWO ? 2 : 1); };

/* One batch in registers: L packs of src (and of src2). */
template <typename T, typename TD, int V, bool TWO> struct hsm_ch_batch {
    static constexpr int L = hsm_ch_tile_loads<V, TWO>::n;
    hsm_raw<T, V> r[L];
    hsm_raw<TD, V> r2[TWO ? L : 1];
};

/* A tile's shape in packs: pack q is position q >> psh, columns (q & (2^psh - 1)) * V; npk in all. */
template <int V> __device__ __forceinline__ int hsm_ch_psh(int wsh) { return wsh - (V == 8 ? 3 : V == 4 ? 2 : V == 2 ? 1 : 0); }

/* Issues the loads of the batch from pack q0 of a tile (C positions `inner` apart, wn valid columns
 * from src); nothing waits for them until hsm_ch_put. */
template <typename T, typename TD, int V, bool TWO>
__device__ __forceinline__ void hsm_ch_fetch(hsm_ch_batch<T, TD, V, TWO> &b, const T *src, const TD *src2,
                                             int64_t inner, int psh, int npk, int wn, int q0)
{
#pragma unroll
    for (int l = 0; l < b.L; l++) {
        const int q = q0 + l * (int)blockDim.x + (int)threadIdx.x, c = q >> psh, j = (q & ((1 << psh) - 1)) * V;
        if (q < npk && j < wn) {
            hsm_raw_load<T, V>(b.r[l], src + (int64_t)c * inner + j);
            if (TWO)
                hsm_raw_load<TD, V>(b.r2[TWO ? l : 0], src2 + (int64_t)c * inner + j);
        }
    }
}

/* Writes the batch from pack q0 to tile[c * W + j] (and tile2). */
template <typename T, typename TD, int V, bool TWO>
__device__ __forceinline__ void hsm_ch_put(const hsm_ch_batch<T, TD, V, TWO> &b, T *tile, TD *tile2, int wsh,
                                           int psh, int npk, int wn, int q0)
{
    constexpr int P = hsm_piece<T, V>::n, P2 = hsm_piece<TD, V>::n;
#pragma unroll
    for (int l = 0; l < b.L; l++) {
        const int q = q0 + l * (int)blockDim.x + (int)threadIdx.x, c = q >> psh, j = (q & ((1 << psh) - 1)) * V;
        if (q < npk && j < wn) {
#pragma unroll
            for (int u = 0; u < V / P; u++)
                *reinterpret_cast<hsm_pack<T, P> *>(tile + (c << wsh) + j + u * P) = b.r[l].piece[u];
            if (TWO) {
#pragma unroll
                for (int u = 0; u < V / P2; u++)
                    *reinterpret_cast<hsm_pack<TD, P2> *>(tile2 + (c << wsh) + j + u * P2) = b.r2[TWO ? l : 0].piece[u];
            }
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
    const int C = (int)a.cols, psh = hsm_ch_psh<V>(wsh), npk = C << psh;
    const int64_t tps = (a.inner + (1 << wsh) - 1) >> wsh, tiles = a.rows * tps;
    hsm_ch_batch<T, TD, V, TWO> b;
    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        int64_t r, i0;
        int wn;
        hsm_ch_tile_at(a, wsh, tps, t, r, i0, wn);
        const T *src = x + r * a.x_stride + i0;
        const TD *src2 = TWO ? (const TD *)hsm_in2_row(a, r) + i0 : NULL;
        __syncthreads(); /* the previous tile's readers are done with the shared memory */
        for (int q0 = 0; q0 < npk; q0 += b.L * (int)blockDim.x) {
            hsm_ch_fetch<T, TD, V, TWO>(b, src, src2, a.inner, psh, npk, wn, q0);
            hsm_ch_put<T, TD, V, TWO>(b, tile, tile2, wsh, psh, npk, wn, q0);
        }
        __syncthreads();
        work(r, i0, wn);
    }
}

template <typename T, typename To, int MODE>
__device__ __forceinline__ void hsm_ch_tile_out(const hsm_args &a, To *yp, int64_t inner, const T *col, int C, int wsh,
                                                int p, int P, const hsm_epi &e)
{
    for (int c = p; c < C; c += P) {
        float o = hsm_epi_value<MODE>(hsm_to_float(col[c << wsh]), e);
        hsm_put_out<To, 1>(a, yp + (int64_t)c * inner, &o);
    }
}

template <typename T, int V>
__device__ __forceinline__ void hsm_ch_tile_fwd_body(const hsm_args &a)
{
    const int wsh = __ffs(a.channel_lanes) - 1, W = 1 << wsh, C = (int)a.cols;
    const int w = (int)threadIdx.x & (W - 1), p = (int)threadIdx.x >> wsh, P = (int)blockDim.x >> wsh;
    T *tile = reinterpret_cast<T *>(hsm_ch_smem);
    float *pm = reinterpret_cast<float *>(reinterpret_cast<char *>(hsm_ch_smem) + hsm_ch_tile_bytes<T>(C, wsh));
    float *ps = pm + blockDim.x;
    const float k = a.op.sigma * HSM_LOG2E;
    const T *col = tile + w;
    hsm_ch_tiles<T, T, V, false>(a, (const T *)a.x, tile, (T *)NULL, wsh,
                                 [&](int64_t r, int64_t i0, int wn) {
        float mt = HSM_NEG_INF, st = 0.0f;
        if (w < wn) {
            for (int c = p; c < C; c += P)
                mt = hsm_max(mt, hsm_to_float(col[c << wsh]));
            const float m0 = mt == HSM_NEG_INF ? 0.0f : mt; /* the thread's own shift, as the register kernels */
            for (int c = p; c < C; c += P)
                st += hsm_exp2((hsm_to_float(col[c << wsh]) - m0) * k);
        }
        pm[threadIdx.x] = mt;
        ps[threadIdx.x] = st;
        __syncthreads();
        float M = pm[w], S = ps[w];
        for (int q = 1; q < P; q++)
            hsm_ch_pair_fold(M, S, pm[(q << wsh) + w], ps[(q << wsh) + w], k);
        if (w >= wn)
            return;
        const hsm_epi e = hsm_ch_epi(a, M, S);
        const int64_t at = i0 + w;
        void *yrow = hsm_out_row(a, r);
#define HSM_CH_TILE_OUT(To)                                                                           \
    if (a.op.log)                                                                                     \
        hsm_ch_tile_out<T, To, HSM_FROM_U_LOG>(a, (To *)yrow + at, a.inner, col, C, wsh, p, P, e);    \
    else                                                                                              \
        hsm_ch_tile_out<T, To, HSM_FROM_U_SOFTMAX>(a, (To *)yrow + at, a.inner, col, C, wsh, p, P, e);
        switch (a.op.out_dtype) {
        case HSM_F16: HSM_CH_TILE_OUT(hsm_f16) break;
        case HSM_BF16: HSM_CH_TILE_OUT(hsm_bf16) break;
        default: HSM_CH_TILE_OUT(float) break;
        }
#undef HSM_CH_TILE_OUT
    });
}

template <typename T, typename TD, typename To, int LOG>
__device__ __forceinline__ void hsm_ch_tile_bwd_out(const hsm_args &a, To *xp, const T *ycol, const TD *dcol, int C,
                                                    int wsh, int p, int P, float s)
{
    for (int c = p; c < C; c += P) {
        float o = hsm_bwd_value<LOG>(hsm_to_float(ycol[c << wsh]), hsm_to_float(dcol[c << wsh]), s, a.op.scale);
        hsm_put_out<To, 1>(a, xp + (int64_t)c * a.inner, &o);
    }
}

/* The backward of dy's dtype TD: y's tile, then dy's, then the partial sums. dx may be dy (in place):
 * a tile is read whole before any of it is written. */
template <typename T, typename TD, int V>
__device__ __forceinline__ void hsm_ch_tile_bwd_t(const hsm_args &a)
{
    const int wsh = __ffs(a.channel_lanes) - 1, W = 1 << wsh, C = (int)a.cols;
    const int w = (int)threadIdx.x & (W - 1), p = (int)threadIdx.x >> wsh, P = (int)blockDim.x >> wsh;
    char *base = reinterpret_cast<char *>(hsm_ch_smem);
    T *ytile = reinterpret_cast<T *>(base);
    TD *dtile = reinterpret_cast<TD *>(base + hsm_ch_tile_bytes<T>(C, wsh));
    float *ps = reinterpret_cast<float *>(base + hsm_ch_tile_bytes<T>(C, wsh) + hsm_ch_tile_bytes<TD>(C, wsh));
    const T *ycol = ytile + w;
    const TD *dcol = dtile + w;
    hsm_ch_tiles<T, TD, V, true>(a, (const T *)a.x, ytile, dtile, wsh,
                                 [&](int64_t r, int64_t i0, int wn) {
        float st = 0.0f;
        if (w < wn) {
            for (int c = p; c < C; c += P) {
                const float d = hsm_to_float(dcol[c << wsh]);
                st += a.op.log ? d : d * hsm_to_float(ycol[c << wsh]);
            }
        }
        ps[threadIdx.x] = st;
        __syncthreads();
        float s = ps[w];
        for (int q = 1; q < P; q++)
            s += ps[(q << wsh) + w];
        if (w >= wn)
            return;
        void *xrow = hsm_out_row(a, r);
        const int64_t at = i0 + w;
#define HSM_CH_TILE_BWD_OUT(To)                                                                       \
    if (a.op.log)                                                                                     \
        hsm_ch_tile_bwd_out<T, TD, To, 1>(a, (To *)xrow + at, ycol, dcol, C, wsh, p, P, s);           \
    else                                                                                              \
        hsm_ch_tile_bwd_out<T, TD, To, 0>(a, (To *)xrow + at, ycol, dcol, C, wsh, p, P, s);
        switch (a.op.out_dtype) {
        case HSM_F16: HSM_CH_TILE_BWD_OUT(hsm_f16) break;
        case HSM_BF16: HSM_CH_TILE_BWD_OUT(hsm_bf16) break;
        default: HSM_CH_TILE_BWD_OUT(float) break;
        }
#undef HSM_CH_TILE_BWD_OUT
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

#define HSM_CH_FWD(NAME, T, N, V, B, BODY)                                                            \
    extern "C" __global__ void __launch_bounds__(B) NAME(hsm_args a) { BODY<T, N, V>(a); }
#define HSM_CH_BWD(NAME, T, N, V, B, STREAM)                                                          \
    extern "C" __global__ void __launch_bounds__(B) NAME(hsm_args a) { hsm_ch_bwd_body<T, N, V, STREAM>(a); }
/* cols_per_thread is N, the positions along C a thread takes (a chunk's, streaming); vec is V;
 * max_block is the launch bound B. */
#define HSM_CH_ENTRY(NAME, KOP, DT, N, V, B)                                                          \
    {#NAME, (const void *)NAME, HSM_FAMILY_CHANNEL, KOP, DT, V, N, B, hsm_launch_plain, 0}

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
#define HSM_CH_TILE(NAME, T, V, BODY)                                                           \
    extern "C" __global__ void __launch_bounds__(HSM_CHANNEL_TILE_BLOCK) NAME(hsm_args a) { BODY<T, V>(a); }
#define HSM_CH_TSET(SFX, T, V)                                                                        \
    HSM_CH_TILE(hsm_channel_##SFX##_t_fwd, T, 1, hsm_ch_tile_fwd_body)          \
    HSM_CH_TILE(hsm_channel_##SFX##_t_bwd, T, 1, hsm_ch_tile_bwd_body)          \
    HSM_CH_TILE(hsm_channel_##SFX##_vt_fwd, T, V, hsm_ch_tile_fwd_body)         \
    HSM_CH_TILE(hsm_channel_##SFX##_vt_bwd, T, V, hsm_ch_tile_bwd_body)
#define HSM_CH_TILE_ENTRIES(SFX, DT, V)                                                               \
    HSM_CH_ENTRY(hsm_channel_##SFX##_t_fwd, HSM_KOP_FWD, DT, 1, 1, HSM_CHANNEL_TILE_BLOCK),           \
        HSM_CH_ENTRY(hsm_channel_##SFX##_t_bwd, HSM_KOP_BWD, DT, 1, 1, HSM_CHANNEL_TILE_BLOCK),       \
        HSM_CH_ENTRY(hsm_channel_##SFX##_vt_fwd, HSM_KOP_FWD, DT, 1, V, HSM_CHANNEL_TILE_BLOCK),      \
        HSM_CH_ENTRY(hsm_channel_##SFX##_vt_bwd, HSM_KOP_BWD, DT, 1, V, HSM_CHANNEL_TILE_BLOCK)

HSM_CH_SET(f32, float)
HSM_CH_SET(f16, hsm_f16)
HSM_CH_SET(bf16, hsm_bf16)
HSM_CH_VSET(f32, float, 4, HSM_CHANNEL_VBLOCK)
HSM_CH_VSET(f16, hsm_f16, 8, HSM_CHANNEL_VBLOCK_BIG)
HSM_CH_VSET(bf16, hsm_bf16, 8, HSM_CHANNEL_VBLOCK_BIG)
HSM_CH_TSET(f32, float, 4)
HSM_CH_TSET(f16, hsm_f16, 8)
HSM_CH_TSET(bf16, hsm_bf16, 8)

/* Register kernels first (ascending N per dtype, op and V, the order plan.c walks), streaming ones
 * after them, tile kernels last: hsm_channel_streams and hsm_channel_tiles tell them apart by their
 * place in the table. */
#define HSM_CH_REGISTER_COUNT 30
#define HSM_CH_TILE_COUNT 12
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
    HSM_CH_TILE_ENTRIES(f32, HSM_F32, 4),
    HSM_CH_TILE_ENTRIES(f16, HSM_F16, 8),
    HSM_CH_TILE_ENTRIES(bf16, HSM_BF16, 8),
};

extern "C" const hsm_kernel *hsm_channel_kernels(size_t *count)
{
    *count = sizeof hsm_channel_table / sizeof hsm_channel_table[0];
    return hsm_channel_table;
}

extern "C" int hsm_channel_streams(const hsm_kernel *k)
{
    const size_t n = sizeof hsm_channel_table / sizeof hsm_channel_table[0];
    return k >= hsm_channel_table + HSM_CH_REGISTER_COUNT && k < hsm_channel_table + n - HSM_CH_TILE_COUNT;
}

extern "C" int hsm_channel_tiles(const hsm_kernel *k)
{
    const size_t n = sizeof hsm_channel_table / sizeof hsm_channel_table[0];
    return k >= hsm_channel_table + n - HSM_CH_TILE_COUNT && k < hsm_channel_table + n;
}
