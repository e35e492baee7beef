/* softmax_ops.h: what forward and backward kernels do with each element, apart from how a family
 * walks its rows: loads that fuse the scale and the masks, epilogues that write softmax or
 * log-softmax in any output dtype with alpha/beta blending and safe rows, and the backward's loads
 * and gradient. Private to hipsoftmax; included by the kernel sources only.
 *
 * The values a forward kernel holds are u, with z = sigma * u: without a mask tensor u = x and
 * sigma = scale, so the scale costs nothing (it joins exp2's log2(e) multiplier, and the max of z is
 * sigma times the max of u since scale > 0); with one, u = z = scale * x + mask as it is loaded and
 * sigma = 1. A causal bound is a shorter row to read: columns past it are -inf and never loaded.
 * Runtime options select among bodies compiled here (an output dtype, a mask dtype, softmax or log)
 * by a switch taken once per row, the same way by every thread; no loop over elements branches.
 * (The structure follows the load/store functors of OneFlow's softmax.cuh and the epilogues of
 * PyTorch's SoftMax.cu, written for this project's families.)
 */
#ifndef HSM_SOFTMAX_OPS_H_6B1D52
#define HSM_SOFTMAX_OPS_H_6B1D52

#include "softmax_common.h"

/* ---- any element type, any pack ---------------------------------------------------------------- */

/* A uint8 mask element; as a float it is its value (0: masked). */
struct hsm_u8 { uint8_t v; };
__device__ __forceinline__ float hsm_to_float(hsm_u8 b) { return (float)b.v; }
/* No mask tensor. */
struct hsm_nomask { uint8_t unused; };

template <typename T> struct hsm_is_bool { static constexpr bool value = false; };
template <> struct hsm_is_bool<hsm_u8> { static constexpr bool value = true; };
template <typename T> struct hsm_is_nomask { static constexpr bool value = false; };
template <> struct hsm_is_nomask<hsm_nomask> { static constexpr bool value = true; };
template <typename T> struct hsm_is_f16 { static constexpr bool value = false; };
template <> struct hsm_is_f16<hsm_f16> { static constexpr bool value = true; };

/* u = scale * x with the row's mask value mv applied: added (an additive mask) or, for a bool mask,
 * -inf where mv is 0. */
template <typename TM> __device__ __forceinline__ float hsm_masked(float x, float mv, float scale)
{
    return hsm_is_bool<TM>::value ? (mv != 0.0f ? x * scale : HSM_NEG_INF) : fmaf(x, scale, mv);
}

/* Elements of T in one access of at most 16 bytes, for a pack of VEC. */
template <typename T, int VEC> struct hsm_piece {
    static constexpr int n = (int)(16 / sizeof(T)) < VEC ? (int)(16 / sizeof(T)) : VEC;
};

/* VEC elements of T at p as floats, read in accesses of at most 16 bytes (p aligned to that). A
 * kernel's vector width is set by x's dtype; another tensor's pack may be wider (fp32 dy with bf16 y:
 * 32 bytes, two accesses) or narrower (8 bytes). */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_get(const T *p, float *dst)
{
    constexpr int P = hsm_piece<T, VEC>::n;
#pragma unroll
    for (int q = 0; q < VEC; q += P)
        hsm_load<T, P>(p + q, dst + q);
}

/* VEC floats converted to T and written at p, in accesses of at most 16 bytes. */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_put(T *p, const float *src)
{
    constexpr int P = hsm_piece<T, VEC>::n;
#pragma unroll
    for (int q = 0; q < VEC; q += P)
        hsm_store<T, P>(p + q, src + q, 1.0f);
}

/* Bytes of an element of dtype dt (hsm_dtype); host code too (softmax_warp.hip's launch). */
__host__ __device__ __forceinline__ size_t hsm_dtype_bytes(int dt) { return dt == HSM_F32 ? 4 : 2; }

/* ---- the row's place in an attention layout ----------------------------------------------------- */

__device__ __forceinline__ uint32_t hsm_div(uint32_t n, hsm_fastdiv d)
{
    return (uint32_t)(((uint64_t)__umulhi(n, d.mul) + n) >> d.shift);
}

/* The row a kernel's t-th visit takes. Rows of attention scores [batch][heads][queries] are stored
 * head after head, and a [batch][1][queries][keys] mask row is read by each head's row of the same
 * query, queries rows apart: in stored order a mask row is read once a head, its earlier reads long
 * gone from L2 (fp16 4 x 32 x 2048^2: 2.43 GB from DRAM against 2.15 GB of scores, H100 Nsight
 * Compute). Visited head-fastest (t = (batch queries + q) heads + h), the heads' rows of one query
 * run together and read its mask row from L2. Rows past the whole batches keep their order. */
__device__ __forceinline__ int64_t hsm_visit_row(const hsm_op_args &o, int64_t t)
{
    if (t >= o.grouped_rows)
        return t;
    const uint32_t bq = hsm_div((uint32_t)t, o.h_div), h = (uint32_t)t - bq * o.h_div.d;
    const uint32_t b = hsm_div(bq, o.q_div), q = bq - b * o.q_div.d;
    return ((int64_t)b * o.h_div.d + h) * o.q_div.d + q;
}

/* What a forward kernel needs to know of one row: the columns it reads, and its mask row. */
struct hsm_row_ctx {
    int64_t lim;            /* columns [0, lim) are read; the rest are masked (causal) and never read */
    const void *mrow;       /* this row's mask row (element 0), when there is a mask tensor */
};

__device__ __forceinline__ size_t hsm_mask_bytes(int mk)
{
    return mk == HSM_MK_ADD_F32 ? 4 : mk == HSM_MK_BOOL ? 1 : 2;
}

__device__ __forceinline__ hsm_row_ctx hsm_fwd_row(const hsm_args &a, int64_t row)
{
    const hsm_op_args &o = a.op;
    hsm_row_ctx r;
    int64_t q = 0, b = 0;
    if (o.causal || o.mask_row_stride != 0 || o.mask_batch_stride != 0) {
        if (o.div32) {
            const uint32_t t = hsm_div((uint32_t)row, o.q_div);
            q = (int64_t)((uint32_t)row - t * o.q_div.d);
            b = hsm_div(t, o.h_div);
        } else {
            q = row % o.queries;
            b = row / o.queries / o.heads;
        }
    }
    r.lim = a.cols;
    if (o.causal) {
        /* Column j is kept while j <= q + offset: lim = q + offset + 1, within [0, cols]. */
        const int64_t off = o.causal_offset;
        r.lim = off >= a.cols ? a.cols : q + 1 + off < 0 ? 0 : q + 1 + off > a.cols ? a.cols : q + 1 + off;
    }
    r.mrow = o.mask != HSM_MK_NONE ? (const char *)o.mask_ptr +
                                         (size_t)(b * o.mask_batch_stride + q * o.mask_row_stride) * hsm_mask_bytes(o.mask)
                                   : NULL;
    return r;
}

/* ---- a later row's lines into L2 ---------------------------------------------------------------- */

/* Asks L2 for [p, p + bytes), a 128-byte line a thread of the block in turn; every address it names
 * lies inside the span (the first line's from p itself), so nothing past a tensor is named. */
__device__ __forceinline__ void hsm_prefetch_span(const void *p, int64_t bytes)
{
    const uintptr_t b = (uintptr_t)p, e = b + (uintptr_t)bytes;
    for (uintptr_t l = (b & ~(uintptr_t)127) + (uintptr_t)threadIdx.x * 128; l < e; l += (uintptr_t)blockDim.x * 128)
        hsm_prefetch_l2((const void *)(l < b ? b : l));
}

/* ---- forward loads ------------------------------------------------------------------------------ */

/* A pack of VEC elements of T read in pieces of at most 16 bytes, as stored (hsm_get converts). W:
 * 16-bit elements held two to a word (hsm_lo_to_float), as hsm_held does. */
template <typename T, int VEC, bool W = false> struct hsm_raw {
    typedef hsm_pack<T, hsm_piece<T, VEC>::n> piece_t;
    piece_t piece[VEC / hsm_piece<T, VEC>::n];
};
template <typename T, int VEC> struct hsm_raw<T, VEC, true> {
    typedef hsm_pack<uint32_t, hsm_piece<T, VEC>::n / 2> piece_t;
    piece_t piece[VEC / hsm_piece<T, VEC>::n];
};
/* The backward's packs of y and dy: 16-bit ones as words, so each element converts in one
 * instruction and a pack outside the row is zeroed a word at a time. Held as 16-bit elements, each
 * took a register of its own, an extract, a shift and a zeroing: ONLINE's bf16 backward issued 31
 * instructions an element, 7 of them PRMT (H200 source counters, bench/results/
 * h200-2026-11-28-held-words.md). */
template <typename T, int VEC> using hsm_held = hsm_raw<T, VEC, sizeof(T) == 2 && hsm_piece<T, VEC>::n % 2 == 0>;
template <typename T, int VEC, bool W>
__device__ __forceinline__ void hsm_raw_load(hsm_raw<T, VEC, W> &r, const T *p)
{
    constexpr int P = hsm_piece<T, VEC>::n;
#pragma unroll
    for (int q = 0; q < VEC / P; q++)
        r.piece[q] = *reinterpret_cast<const typename hsm_raw<T, VEC, W>::piece_t *>(p + q * P);
}
/* The same, in 16-byte pieces read by hsm_load16_l2_last where L2LAST (ROW's backward) and the
 * piece is 16 bytes. */
template <bool L2LAST, typename T, int VEC, bool W>
__device__ __forceinline__ void hsm_raw_load_l2(hsm_raw<T, VEC, W> &r, const T *p)
{
    constexpr int P = hsm_piece<T, VEC>::n;
    if constexpr (L2LAST && sizeof(typename hsm_raw<T, VEC, W>::piece_t) == 16) {
#pragma unroll
        for (int q = 0; q < VEC / P; q++)
            hsm_load16_l2_last(&r.piece[q], p + q * P);
    } else {
        hsm_raw_load<T, VEC, W>(r, p);
    }
}
template <typename T, int VEC, bool W>
__device__ __forceinline__ float hsm_raw_elem(const hsm_raw<T, VEC, W> &r, int i)
{
    constexpr int P = hsm_piece<T, VEC>::n;
    if constexpr (W)
        return hsm_word_elem<T>(r.piece[i / P].v, i % P);
    else
        return hsm_to_float(r.piece[i / P].v[i % P]);
}

/* Columns at or past lim of a thread's chunk made -inf: a causal bound inside a pack. Only where the
 * bound falls inside a pack, so rows without one pay a compare a row: lim not a multiple of VEC, or
 * for a peeled row (P, whose packs start at col0 + k VEC, col0 any) lim not on a pack's start. */
template <int VEC, int C, bool P = false>
__device__ __forceinline__ void hsm_cut_tail(float *v, int64_t col0, int64_t lim, int lane, int width, int64_t wrap)
{
    if constexpr (VEC > 1) {
        if ((uint64_t)(P ? lim - col0 : lim) % VEC == 0)
            return;
#pragma unroll
        for (int p = 0; p < C / VEC; p++) {
            int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
            if (p == 0 && col < 0)
                col += wrap;
#pragma unroll
            for (int i = 0; i < VEC; i++)
                if (col + i >= lim)
                    v[p * VEC + i] = HSM_NEG_INF;
        }
    }
}

/* hsm_chunk_load with the forward's options: the same layout, columns past lim read as -inf, u = x
 * or (a mask tensor) scale * x + mask / scale * x or -inf (bool). A pack is read where its first
 * column is under lb: lim, or for a peeled row the lesser of lim and hsm_peel_bound (the pack lies
 * wholly in the row). Every pack's loads are issued before any value is used: a branch holding a
 * load and work on its result keeps the next pack's load from issuing until the first arrives (8
 * loads in sequence, SASS of the first version: fp32 at 4096 columns 25% slower than the plain
 * kernel); a branch holding only loads is predicated and they go out together. */
template <typename T, typename TM, int VEC, int C, bool P = false>
__device__ __forceinline__ float hsm_fwd_chunk_load_m(const T *xr, const TM *mr, int64_t col0, int64_t lim, int64_t lb,
                                                      float scale, int lane, int width, float *v, int64_t wrap)
{
    constexpr bool MASK = !hsm_is_nomask<TM>::value;
    /* With a 16-bit or bool mask, a block whose packs all lie in the row (its chunk from col0 >= 0
     * ends by lb: attention rows of 1K-2K columns) reads them without a predicate, 16-bit values
     * held as words (hsm_held). The predicated form holds a -inf default for every element until its load
     * lands; with two tensors that did not fit 64 registers, and the compiler issued the last pack's
     * loads only after the first pack had arrived and been converted: two memory latencies a row
     * (hsm_row_bf16_v32_fwd, bf16 131072 x 1024 with a [8,1,1024,1024] mask, H200 source counters:
     * 874 warp instructions a row against 680 for the scale alone, the stalls on the first use of
     * each round's loads). H200, same run (bench/results/h200-2026-11-29-mask-whole.md): bf16 with a
     * bf16 mask 1.22x (74 -> 90% of the copy bandwidth), bool 1.13x, bf16 4096 x 16384 1.14x. Not
     * for fp32 masks (with them the kernels spilled 8-12 bytes and bf16's scale alone ran 0.99x),
     * nor fp16 rows (hsm_row_f16_v32_fwd had no register to spare: it spilled 12-16 bytes, its scale
     * alone 0.98x, its mask 1.01-1.02x), nor chunks of fewer than four packs (an earlier form, with
     * 16-bit values held one a register, took v8_fwd from 32 to 58 registers). Block-uniform, so no
     * warp diverges on it. */
    constexpr bool WHOLE = MASK && sizeof(TM) <= 2 && !hsm_is_f16<T>::value && VEC > 1 && C / VEC >= 4;
    bool whole = false;
    if constexpr (WHOLE) {
        whole = col0 >= 0 && col0 + (int64_t)C * width <= lb;
        if (whole) {
            hsm_held<T, VEC> fx[C / VEC];
            hsm_held<TM, VEC> fm[C / VEC];
#pragma unroll
            for (int p = 0; p < C / VEC; p++) {
                const int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
                hsm_raw_load<T, VEC>(fx[p], xr + col);
                hsm_raw_load<TM, VEC>(fm[p], mr + col);
            }
#pragma unroll
            for (int p = 0; p < C / VEC; p++) {
#pragma unroll
                for (int i = 0; i < VEC; i++) {
                    const float u = hsm_raw_elem<T, VEC>(fx[p], i), mv = hsm_raw_elem<TM, VEC>(fm[p], i);
                    v[p * VEC + i] = hsm_masked<TM>(u, mv, scale);
                }
            }
        }
    }
    if (!whole) {
        hsm_pack<T, VEC> xp[C / VEC];
        hsm_raw<TM, VEC> mp[MASK ? C / VEC : 1];
#pragma unroll
        for (int p = 0; p < C / VEC; p++) {
            int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
            if (p == 0 && col < 0)
                col += wrap;
            if ((uint64_t)col < (uint64_t)lb) {
                xp[p] = *reinterpret_cast<const hsm_pack<T, VEC> *>(xr + col);
                if constexpr (MASK)
                    hsm_raw_load<TM, VEC>(mp[p], mr + col);
            } else {
                xp[p] = hsm_neg_inf_pack<T, VEC>();
                if constexpr (MASK)
                    mp[p] = hsm_raw<TM, VEC>{}; /* 0: -inf + 0 stays -inf */
            }
        }
#pragma unroll
        for (int p = 0; p < C / VEC; p++) {
#pragma unroll
            for (int i = 0; i < VEC; i++) {
                float u = hsm_to_float(xp[p].v[i]);
                if constexpr (MASK) {
                    const float mv = hsm_raw_elem<TM, VEC>(mp[p], i);
                    u = hsm_masked<TM>(u, mv, scale);
                }
                v[p * VEC + i] = u;
            }
        }
    }
    hsm_cut_tail<VEC, C, P>(v, col0, lim, lane, width, wrap);
    float m = HSM_NEG_INF;
#pragma unroll
    for (int i = 0; i < C; i++)
        m = hsm_max(m, v[i]);
    return m;
}

/* f called with a value of the row's mask element type (hsm_nomask{} for no mask): one body for each,
 * the type known at compile time, where each user switched on the mask dtype itself. */
template <typename F> __device__ __forceinline__ auto hsm_with_mask_type(int mask, F f)
{
    switch (mask) {
    case HSM_MK_ADD_F32: return f(float{});
    case HSM_MK_ADD_F16: return f(hsm_f16{});
    case HSM_MK_ADD_BF16: return f(hsm_bf16{});
    case HSM_MK_BOOL: return f(hsm_u8{});
    default: return f(hsm_nomask{});
    }
}

/* The chunk load of the row's mask dtype: one loop body each. Returns this thread's max of u. */
template <typename T, int VEC, int C>
__device__ __forceinline__ float hsm_fwd_chunk_load(const hsm_args &a, const hsm_row_ctx &r, const T *xr, int64_t col0,
                                                    int lane, int width, float *v, int64_t wrap = 0)
{
    return hsm_with_mask_type(a.op.mask, [&](auto tm) {
        using TM = decltype(tm);
        const TM *mrow = hsm_is_nomask<TM>::value ? (const TM *)NULL : (const TM *)r.mrow;
        return hsm_fwd_chunk_load_m<T, TM, VEC, C>(xr, mrow, col0, r.lim, r.lim, a.op.scale, lane, width, v, wrap);
    });
}

/* u of one pack as stored (a family that kept x's raw pack: SPLIT's and ONLINE's shared memory), with
 * the row's mask read now. col < lim. */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_fwd_conv(const hsm_args &a, const hsm_row_ctx &r, const hsm_pack<T, VEC> &pk,
                                             int64_t col, float *u)
{
#pragma unroll
    for (int i = 0; i < VEC; i++)
        u[i] = hsm_to_float(pk.v[i]);
    /* The mask's pack in its own type, combined as everywhere else (hsm_masked). */
    hsm_with_mask_type(a.op.mask, [&](auto tm) {
        using TM = decltype(tm);
        if constexpr (!hsm_is_nomask<TM>::value) {
            float mv[VEC];
            hsm_get<TM, VEC>((const TM *)r.mrow + col, mv);
#pragma unroll
            for (int i = 0; i < VEC; i++)
                u[i] = hsm_masked<TM>(u[i], mv[i], a.op.scale);
        }
    });
    if (VEC > 1 && col + VEC > r.lim) {
#pragma unroll
        for (int i = 0; i < VEC; i++)
            if (col + i >= r.lim)
                u[i] = HSM_NEG_INF;
    }
}

/* u of a thread's register chunk held as stored (SPLIT's: raw[p] at column
 * col0 + (p * width + lane) * VEC), the row's mask packs all read before any is used. Returns the
 * chunk's max. */
template <typename T, typename TM, int VEC, int NP>
__device__ __forceinline__ float hsm_fwd_conv_chunk_m(const hsm_args &a, const hsm_row_ctx &r,
                                                      const hsm_pack<T, VEC> *raw, int64_t col0, int lane, int width,
                                                      float *v)
{
    constexpr bool MASK = !hsm_is_nomask<TM>::value;
    hsm_raw<TM, VEC> mp[MASK ? NP : 1];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
        if constexpr (MASK) {
            if ((uint64_t)col < (uint64_t)r.lim)
                hsm_raw_load<TM, VEC>(mp[p], (const TM *)r.mrow + col);
            else
                mp[p] = hsm_raw<TM, VEC>{};
        }
    }
    float m = HSM_NEG_INF;
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
        const bool in = (uint64_t)col < (uint64_t)r.lim;
#pragma unroll
        for (int i = 0; i < VEC; i++) {
            float u = in ? hsm_to_float(raw[p].v[i]) : HSM_NEG_INF;
            if constexpr (MASK) {
                const float mv = hsm_raw_elem<TM, VEC>(mp[p], i);
                u = hsm_masked<TM>(u, mv, a.op.scale);
            }
            v[p * VEC + i] = u;
        }
    }
    hsm_cut_tail<VEC, NP * VEC>(v, col0, r.lim, lane, width, 0);
#pragma unroll
    for (int i = 0; i < NP * VEC; i++)
        m = hsm_max(m, v[i]);
    return m;
}

template <typename T, int VEC, int NP>
__device__ __forceinline__ float hsm_fwd_conv_chunk(const hsm_args &a, const hsm_row_ctx &r,
                                                    const hsm_pack<T, VEC> *raw, int64_t col0, int lane, int width,
                                                    float *v)
{
    return hsm_with_mask_type(a.op.mask, [&](auto tm) {
        return hsm_fwd_conv_chunk_m<T, decltype(tm), VEC, NP>(a, r, raw, col0, lane, width, v);
    });
}

/* ---- forward epilogue -------------------------------------------------------------------------- */

/* One row's normaliser, as the outputs use it. */
struct hsm_epi {
    float m;      /* the max of u the exponentials subtract: 0 for an empty row under safe rows */
    float k;      /* sigma * log2(e): exp(z - max z) = exp2((u - m) * k) */
    float sigma;
    float inv;    /* softmax: 1 / sum (0 for an empty row under safe rows) */
    float lns;    /* log-softmax: log(sum) (0 for an empty row under safe rows) */
};

/* Once the row's max of u is known. An empty row (max -inf: every column masked or -inf) under safe
 * rows subtracts 0 instead, so its exponentials are exp(-inf) = 0, not NaN. */
__device__ __forceinline__ hsm_epi hsm_epi_begin(const hsm_args &a, float mraw)
{
    hsm_epi e;
    e.sigma = a.op.sigma;
    e.k = a.op.sigma * HSM_LOG2E;
    e.m = a.op.safe && mraw == HSM_NEG_INF ? 0.0f : mraw;
    e.inv = 0.0f;
    e.lns = 0.0f;
    return e;
}

/* Once the row's sum of exp2((u - m) * k) is known; `writer` (one thread of the row) writes the
 * statistics record at index `at`: {max z, lse z, sum, 0}: the max of the values that are not NaN,
 * the log-sum-exp, and the sum of exp(z - max); an empty row's is {-inf, -inf, 0, 0}; a NaN or +inf
 * makes lse and sum NaN. */
__device__ __forceinline__ void hsm_epi_end(const hsm_args &a, hsm_epi &e, float mraw, float s, int64_t at, bool writer)
{
    const bool empty = a.op.safe && mraw == HSM_NEG_INF;
    e.inv = empty ? 0.0f : 1.0f / s;
    /* log(sum) only where an output or the statistics use it: tens of instructions a row. */
    const float ls = a.op.log || a.op.stats != NULL ? logf(s) : 0.0f;
    e.lns = empty ? 0.0f : ls;
    if (writer && a.op.stats != NULL) {
        float4 st;
        st.x = mraw == HSM_NEG_INF ? HSM_NEG_INF : mraw * e.sigma;
        st.y = mraw == HSM_NEG_INF ? HSM_NEG_INF : st.x + ls;
        st.z = mraw == HSM_NEG_INF ? 0.0f : s;
        st.w = 0.0f;
        reinterpret_cast<float4 *>(a.op.stats)[at] = st;
    }
}

/* The normaliser of the row whose records start at index `at` of the given statistics (sharded rows),
 * combined from their max and sum: M = max of the maxima, S = sum of sum * exp(max - M) (an empty
 * shard's {-inf, .., 0} adds nothing; a NaN reaches S). Records p = first, first + step, ... of the
 * row's stats_shards: one thread takes them all (step 1), or lanes share them (hsm_given_warp). */
__device__ __forceinline__ uint64_t hsm_opaque64(uint64_t v)
{
    return (uint64_t)hsm_opaque((uint32_t)v) | (uint64_t)hsm_opaque((uint32_t)(v >> 32)) << 32;
}

/* (Every input goes through hsm_opaque: a kernel holding its row in registers runs this inside its
 * row loop, and the loop's invariants, hoisted out of it, were held beside the values and spilled.) */
__device__ __forceinline__ void hsm_given_fold(const hsm_args &a, int64_t at, int64_t first, int64_t step, float &M,
                                               float &S)
{
    const float *r = (const float *)hsm_opaque64((uint64_t)(a.op.stats_in + (size_t)at * 4));
    const int64_t n = (int64_t)hsm_opaque64((uint64_t)a.op.stats_shards);
    const int64_t stride = (int64_t)hsm_opaque64((uint64_t)a.op.stats_stride);
    M = HSM_NEG_INF;
    S = 0.0f;
    for (int64_t p = (int64_t)hsm_opaque64((uint64_t)first); p < n; p += step) {
        const float mp = r[p * stride], sp = r[p * stride + 2];
        const float nm = hsm_max(M, mp);
        S = S * hsm_rescale(M, nm) + (mp == HSM_NEG_INF ? 0.0f : sp * hsm_rescale(mp, nm));
        M = nm;
    }
}

/* hsm_given_fold over the lanes of a warp (every lane gets M and S). */
__device__ __forceinline__ void hsm_given_warp(const hsm_args &a, int64_t at, float &M, float &S)
{
    const int lane = threadIdx.x % HSM_WARP_SIZE;
    hsm_given_fold(a, at, lane, HSM_WARP_SIZE, M, S);
    for (int o = HSM_WARP_SIZE / 2; o > 0; o /= 2) {
        const float om = hsm_shfl_xor(M, o, HSM_WARP_SIZE), os = hsm_shfl_xor(S, o, HSM_WARP_SIZE);
        const float nm = hsm_max(M, om);
        S = S * hsm_rescale(M, nm) + os * hsm_rescale(om, nm);
        M = nm;
    }
}

/* The epilogue of given statistics {M, S}: outputs exp(z - M) / S and z - M - log S; in u's units,
 * m = M / sigma. */
__device__ __forceinline__ hsm_epi hsm_epi_given(const hsm_args &a, float M, float S)
{
    hsm_epi e;
    e.sigma = a.op.sigma;
    e.k = a.op.sigma * HSM_LOG2E;
    const bool empty = a.op.safe && M == HSM_NEG_INF;
    e.m = empty ? 0.0f : M / a.op.sigma;
    e.inv = empty ? 0.0f : 1.0f / S;
    e.lns = empty || !a.op.log ? 0.0f : logf(S);
    return e;
}

/* The same, one thread combining the row's records. */
__device__ __forceinline__ hsm_epi hsm_epi_given(const hsm_args &a, int64_t at)
{
    float M, S;
    hsm_given_fold(a, at, 0, 1, M, S);
    return hsm_epi_given(a, M, S);
}

/* The backward's row sum from the records the caller gave: the shards' sums added. */
__device__ __forceinline__ float hsm_bwd_given(const hsm_args &a, int64_t at)
{
    const float *r = a.op.stats_in + (size_t)at * 4;
    float s = 0.0f;
    for (int64_t p = 0; p < a.op.stats_shards; p++)
        s += r[p * a.op.stats_stride];
    return s;
}

/* The backward's statistics record {sum, 0, 0, 0} at index `at`. */
__device__ __forceinline__ void hsm_bwd_stats(const hsm_args &a, float s, int64_t at)
{
    reinterpret_cast<float4 *>(a.op.stats)[at] = make_float4(s, 0.0f, 0.0f, 0.0f);
}

/* What the kept values are: exponentials (softmax, already exp2((u - m) * k)), or u. */
enum { HSM_FROM_EXP = 0, HSM_FROM_U_LOG = 1, HSM_FROM_U_SOFTMAX = 2 };

template <int MODE>
__device__ __forceinline__ float hsm_epi_value(float v, const hsm_epi &e)
{
    if constexpr (MODE == HSM_FROM_EXP)
        return v * e.inv;
    else if constexpr (MODE == HSM_FROM_U_LOG)
        return (v - e.m) * e.sigma - e.lns;
    else
        return hsm_exp2((v - e.m) * e.k) * e.inv;
}

/* o written at p in T: alpha * o + beta * (what p holds), where the problem blends; p is read only
 * where beta != 0, so whatever y held (NaN too) does not reach the result otherwise. */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_put_out(const hsm_args &a, T *p, float *o)
{
    if (a.op.blend) {
        float old[VEC];
        if (a.op.beta != 0.0f) {
            hsm_get<T, VEC>(p, old);
        } else {
#pragma unroll
            for (int i = 0; i < VEC; i++)
                old[i] = 0.0f;
        }
#pragma unroll
        for (int i = 0; i < VEC; i++)
            o[i] = a.op.beta != 0.0f ? fmaf(a.op.alpha, o[i], a.op.beta * old[i]) : a.op.alpha * o[i];
    }
    hsm_put<T, VEC>(p, o);
}

/* One pack of outputs at column col of the output row yrow (any dtype), from VEC kept values. */
template <int VEC, int MODE>
__device__ __forceinline__ void hsm_fwd_store_pack(const hsm_args &a, void *yrow, int64_t col, const float *v,
                                                   const hsm_epi &e)
{
    float o[VEC];
#pragma unroll
    for (int i = 0; i < VEC; i++)
        o[i] = hsm_epi_value<MODE>(v[i], e);
    switch (a.op.out_dtype) {
    case HSM_F16: hsm_put_out<hsm_f16, VEC>(a, (hsm_f16 *)yrow + col, o); break;
    case HSM_BF16: hsm_put_out<hsm_bf16, VEC>(a, (hsm_bf16 *)yrow + col, o); break;
    default: hsm_put_out<float, VEC>(a, (float *)yrow + col, o); break;
    }
}

/* A peeled row's edge element (hsm_peel_col: column ec, or -1 for none) written from its value ev:
 * log-softmax from u, softmax in mode SOFTMAX (ev the exponential, or u). */
template <int SOFTMAX>
__device__ __forceinline__ void hsm_fwd_edge_store(const hsm_args &a, void *yrow, int ec, float ev, const hsm_epi &e)
{
    if (ec < 0)
        return;
    if (a.op.log)
        hsm_fwd_store_pack<1, HSM_FROM_U_LOG>(a, yrow, ec, &ev, e);
    else
        hsm_fwd_store_pack<1, SOFTMAX>(a, yrow, ec, &ev, e);
}

/* hsm_chunk_store with the forward's epilogue in one mode; the output dtype is chosen per pack (a
 * switch every thread takes the same way): a loop per dtype kept three copies of the values' uses
 * live, and the fp32 kernel holding 32 values spilled. */
template <int VEC, int C, int MODE>
__device__ __forceinline__ void hsm_fwd_chunk_store_m(const hsm_args &a, void *yrow, int64_t col0, int lane, int width,
                                                      const float *v, const hsm_epi &e, int64_t wrap, int64_t bound)
{
#pragma unroll
    for (int p = 0; p < C / VEC; p++) {
        int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
        if (p == 0 && col < 0)
            col += wrap;
        if ((uint64_t)col < (uint64_t)bound)
            hsm_fwd_store_pack<VEC, MODE>(a, yrow, col, v + p * VEC, e);
    }
}

/* The chunk store of the call's output dtype: log-softmax from u; softmax from kept exponentials, or
 * from u (FROM_U: the exponentials computed here). A pack is written where its first column is under
 * bound: the row's end, or a peeled row's hsm_peel_bound (a negative bound: the row's end). */
template <int VEC, int C, bool FROM_U = false>
__device__ __forceinline__ void hsm_fwd_chunk_store(const hsm_args &a, void *yrow, int64_t col0, int lane, int width,
                                                    const float *v, const hsm_epi &e, int64_t wrap = 0,
                                                    int64_t bound = -1)
{
    const int64_t b = bound < 0 ? a.cols : bound;
    constexpr int EXP_MODE = FROM_U ? HSM_FROM_U_SOFTMAX : HSM_FROM_EXP;
    if (a.op.log)
        hsm_fwd_chunk_store_m<VEC, C, HSM_FROM_U_LOG>(a, yrow, col0, lane, width, v, e, wrap, b);
    else
        hsm_fwd_chunk_store_m<VEC, C, EXP_MODE>(a, yrow, col0, lane, width, v, e, wrap, b);
}

/* A thread's share of the row's sum, and its kept values made exponentials where the output is a
 * softmax (log-softmax keeps u for its output). */
template <int C>
__device__ __forceinline__ float hsm_fwd_sum(const hsm_args &a, float *v, const hsm_epi &e)
{
    float s = 0.0f;
    if (a.op.log) {
#pragma unroll
        for (int i = 0; i < C; i++)
            s += hsm_exp2((v[i] - e.m) * e.k);
    } else {
#pragma unroll
        for (int i = 0; i < C; i++) {
            v[i] = hsm_exp2((v[i] - e.m) * e.k);
            s += v[i];
        }
    }
    return s;
}

/* hsm_fwd_sum for a row with a causal bound: packs every lane of the warp has at or past the bound
 * (about half a causal row's) are exp(-inf) = 0 without computing them. The vote keeps the branch
 * uniform; a pack that lies past the bound for some lanes only is computed as usual. In the
 * hsm_chunk_load layout; every lane of the warp must run this. */
template <int VEC, int C>
__device__ __forceinline__ float hsm_fwd_sum_causal(const hsm_args &a, float *v, const hsm_epi &e, int64_t col0,
                                                    int64_t lim, int lane, int width, int64_t wrap)
{
    float s = 0.0f;
#pragma unroll
    for (int p = 0; p < C / VEC; p++) {
        int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
        if (p == 0 && col < 0)
            col += wrap;
        if (hsm_warp_all((uint64_t)col >= (uint64_t)lim)) {
            if (!a.op.log) {
#pragma unroll
                for (int i = 0; i < VEC; i++)
                    v[p * VEC + i] = 0.0f;
            }
            continue;
        }
#pragma unroll
        for (int i = 0; i < VEC; i++) {
            const float t = hsm_exp2((v[p * VEC + i] - e.m) * e.k);
            if (!a.op.log)
                v[p * VEC + i] = t;
            s += t;
        }
    }
    return s;
}

/* The output row of a forward or backward kernel (any dtype). */
__device__ __forceinline__ void *hsm_out_row(const hsm_args &a, int64_t row)
{
    return (char *)a.y + (size_t)row * (size_t)a.y_stride * hsm_dtype_bytes(a.op.out_dtype);
}

/* ---- 16-bit rows held as stored: four words a pack of 8 -------------------------------------- */

/* Element i of a pack of 16-bit values held as four words at column col made -inf where col + i >= lim
 * (a causal bound inside the pack; a pack past it holds -inf already), as hsm_cut_tail. */
template <typename T>
__device__ __forceinline__ void hsm_words_cut(uint32_t *w, int64_t col, int64_t lim)
{
    const int64_t keep = lim - col;
    if (keep <= 0 || keep >= 8)
        return;
    const uint32_t ninf = hsm_neg_inf_word<T>();
#pragma unroll
    for (int i = 0; i < 8; i++)
        if (i >= (int)keep)
            w[i / 2] = i % 2 ? (w[i / 2] & 0xffffu) | (ninf & 0xffff0000u) : (w[i / 2] & 0xffff0000u) | (ninf & 0xffffu);
}

/* A pack of 8 16-bit values read as four words from p where `in`, else four words of -inf (a pack
 * past the row or its causal bound). WARP's packed kernels; ROW's keep the same loop inline, since
 * their first pack's address (wrapped to the row's line) taken outside the branch changed the PTX
 * of all sixteen. */
template <typename T>
__device__ __forceinline__ void hsm_words_load(uint32_t *w, const T *p, bool in)
{
    if (in) {
        const hsm_pack<uint32_t, 4> pk = *reinterpret_cast<const hsm_pack<uint32_t, 4> *>(p);
#pragma unroll
        for (int i = 0; i < 4; i++)
            w[i] = pk.v[i];
    } else {
#pragma unroll
        for (int i = 0; i < 4; i++)
            w[i] = hsm_neg_inf_word<T>();
    }
}

/* The exponentials of a pack held as four words added to s, in column order, their exponents in the
 * row's form (hsm_expo_branch). */
template <typename T, bool F>
__device__ __forceinline__ void hsm_words_exp_add(float &s, const uint32_t *w, const hsm_expo<F> &ex)
{
#pragma unroll
    for (int i = 0; i < 4; i++) {
        s += hsm_exp2(ex.at(hsm_lo_to_float(w[i], T{})));
        s += hsm_exp2(ex.at(hsm_hi_to_float(w[i], T{})));
    }
}

/* The packed forward's stores in one mode (the output dtype chosen per pack): each value converted
 * again from the words and its exponential computed again (ROW's packed kernels, WARP's p32_fwd and
 * p64_fwd). Pack p lies at column c0 (p = 0) or f0 + p step, and is written where that is under
 * bound (p > 0: where p step < left = bound - f0). A pack past the causal bound lim is all -inf: its
 * softmax is exp(-inf) = 0 times the normaliser, written without the exponentials. */
template <typename T, int NP, int MODE>
__device__ __forceinline__ void hsm_words_store(const hsm_args &a, void *yrow, int64_t f0, const uint32_t *w,
                                                int64_t c0, int64_t bound, int64_t left, int64_t step, int64_t lim,
                                                const hsm_epi &e)
{
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int64_t col = p == 0 ? c0 : f0 + p * step;
        if (p == 0 ? c0 < bound : p * step < left) {
            float f[8];
            if (MODE == HSM_FROM_U_SOFTMAX && col >= lim) {
#pragma unroll
                for (int i = 0; i < 8; i++)
                    f[i] = 0.0f;
                hsm_fwd_store_pack<8, HSM_FROM_EXP>(a, yrow, col, f, e);
                continue;
            }
#pragma unroll
            for (int i = 0; i < 4; i++) {
                f[2 * i] = hsm_lo_to_float(w[4 * p + i], T{});
                f[2 * i + 1] = hsm_hi_to_float(w[4 * p + i], T{});
            }
            hsm_fwd_store_pack<8, MODE>(a, yrow, col, f, e);
        }
    }
}

/* ---- backward ----------------------------------------------------------------------------------- */

/* The second input of a backward (dy) at its row. */
__device__ __forceinline__ const void *hsm_in2_row(const hsm_args &a, int64_t row)
{
    return (const char *)a.x2 + (size_t)row * (size_t)a.x2_stride * hsm_dtype_bytes(a.op.in2_dtype);
}

/* Element col of dy's row, in dy's dtype. */
__device__ __forceinline__ float hsm_in2_elem(const hsm_args &a, const void *drow, int64_t col)
{
    switch (a.op.in2_dtype) {
    case HSM_F16: return hsm_to_float(((const hsm_f16 *)drow)[col]);
    case HSM_BF16: return hsm_to_float(((const hsm_bf16 *)drow)[col]);
    default: return ((const float *)drow)[col];
    }
}

/* Where a backward chunk's packs come from and go (ONLINE's tiles kept in shared memory/LDS):
 * HSM_BWD_GLOBAL read from the tensors; HSM_BWD_KEEP read from them and stored in the tile's cache;
 * HSM_BWD_FROM read from the cache (y from the tensor where the cache holds dy alone). A tile's
 * cache holds each thread's packs at its own slots (p * width + lane, so no barrier is needed
 * between the passes): y's first where it holds y, then dy's. */
enum { HSM_BWD_GLOBAL = 0, HSM_BWD_KEEP = 1, HSM_BWD_FROM = 2 };

/* y and dy of a thread's chunk (the hsm_chunk_load layout), and its share of the row's sum: of dy * y
 * (softmax) or of dy (log-softmax). Columns outside the row hold 0 and add nothing. Loads first,
 * conversions after, as in hsm_fwd_chunk_load_m. Y: y is read at all (log-softmax's sum needs dy
 * alone); CM: where the packs come from and go (above), with YC: the cache holds y's packs too;
 * L2LAST: the tensors' packs read with L2 priority evict_last (hsm_load16_l2_last: ROW's; SPLIT's
 * backward ran 0.65x with it, bf16 64 x 128256, and ONLINE's no faster). */
template <typename T, typename TD, int VEC, int C, bool Y = true, int CM = HSM_BWD_GLOBAL, bool YC = false,
          bool L2LAST = false>
__device__ __forceinline__ float hsm_bwd_chunk_load_t(const T *yr, const TD *dr, int64_t col0, int64_t cols, int lane,
                                                      int width, float *yv, float *dv, int log, int64_t wrap,
                                                      unsigned char *cache)
{
    hsm_held<T, VEC> yp[C / VEC];
    hsm_held<TD, VEC> dp[C / VEC];
    hsm_held<T, VEC> *cy = reinterpret_cast<hsm_held<T, VEC> *>(cache);
    hsm_held<TD, VEC> *cd = reinterpret_cast<hsm_held<TD, VEC> *>(
        cache + (YC ? (size_t)width * (C / VEC) * sizeof(hsm_pack<T, VEC>) : 0));
#pragma unroll
    for (int p = 0; p < C / VEC; p++) {
        int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
        if (p == 0 && col < 0)
            col += wrap;
        const int at = p * width + lane;
        if ((uint64_t)col < (uint64_t)cols) {
            if constexpr (Y) {
                if constexpr (CM == HSM_BWD_FROM && YC)
                    yp[p] = cy[at];
                else
                    hsm_raw_load_l2<L2LAST>(yp[p], yr + col);
                if constexpr (CM == HSM_BWD_KEEP && YC)
                    cy[at] = yp[p];
            }
            if constexpr (CM == HSM_BWD_FROM)
                dp[p] = cd[at];
            else
                hsm_raw_load_l2<L2LAST>(dp[p], dr + col);
            if constexpr (CM == HSM_BWD_KEEP)
                cd[at] = dp[p];
        } else { /* zeros: add nothing, and are never written */
            yp[p] = hsm_held<T, VEC>{};
            dp[p] = hsm_held<TD, VEC>{};
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int p = 0; p < C / VEC; p++) {
#pragma unroll
        for (int i = 0; i < VEC; i++) {
            dv[p * VEC + i] = hsm_raw_elem<TD, VEC>(dp[p], i);
            if constexpr (Y) {
                yv[p * VEC + i] = hsm_raw_elem<T, VEC>(yp[p], i);
                s += log ? dv[p * VEC + i] : dv[p * VEC + i] * yv[p * VEC + i];
            } else {
                s += dv[p * VEC + i];
            }
        }
    }
    return s;
}

/* The chunk load of dy's dtype; columns [0, cols) of the row are read. */
template <typename T, int VEC, int C, bool Y = true, int CM = HSM_BWD_GLOBAL, bool YC = false, bool L2LAST = false>
__device__ __forceinline__ float hsm_bwd_chunk_load(const hsm_args &a, const T *yr, const void *drow, int64_t col0,
                                                    int64_t cols, int lane, int width, float *yv, float *dv,
                                                    int64_t wrap = 0, unsigned char *cache = nullptr)
{
    switch (a.op.in2_dtype) {
    case HSM_F16:
        return hsm_bwd_chunk_load_t<T, hsm_f16, VEC, C, Y, CM, YC, L2LAST>(yr, (const hsm_f16 *)drow, col0, cols, lane,
                                                                           width, yv, dv, a.op.log, wrap, cache);
    case HSM_BF16:
        return hsm_bwd_chunk_load_t<T, hsm_bf16, VEC, C, Y, CM, YC, L2LAST>(yr, (const hsm_bf16 *)drow, col0, cols,
                                                                            lane, width, yv, dv, a.op.log, wrap, cache);
    default:
        return hsm_bwd_chunk_load_t<T, float, VEC, C, Y, CM, YC, L2LAST>(yr, (const float *)drow, col0, cols, lane,
                                                                         width, yv, dv, a.op.log, wrap, cache);
    }
}

/* This thread's packs of a backward tile at col0 copied into its cache (hsm_copy16_async: ONLINE's
 * kept tiles, SPLIT's staged columns), in hsm_bwd_chunk_load_t's layout: y's first where YC, then
 * dy's, each thread at its own slots, so only the thread that copied reads them (after
 * hsm_copy_async_wait_pending) and no barrier is needed. A dy pack of 32 bytes (fp32 dy with 16-bit
 * y) is two copies. */
template <typename T, int VEC, int C, bool YC>
__device__ __forceinline__ void hsm_bwd_tile_copy(const hsm_args &a, const T *yr, const void *dr, int64_t col0,
                                                  int64_t cols, unsigned char *cache)
{
    const size_t des = hsm_dtype_bytes(a.op.in2_dtype);
    unsigned char *cd = cache + (YC ? (size_t)blockDim.x * (C / VEC) * sizeof(hsm_pack<T, VEC>) : 0);
#pragma unroll
    for (int p = 0; p < C / VEC; p++) {
        const int64_t col = col0 + ((int64_t)p * blockDim.x + threadIdx.x) * VEC;
        const int at = p * blockDim.x + threadIdx.x;
        if ((uint64_t)col < (uint64_t)cols) {
            if constexpr (YC)
                hsm_copy16_async(cache + (size_t)at * sizeof(hsm_pack<T, VEC>), yr + col);
            const unsigned char *src = (const unsigned char *)dr + (size_t)col * des;
            unsigned char *dst = cd + (size_t)at * VEC * des;
            hsm_copy16_async(dst, src);
            if (VEC * des == 32)
                hsm_copy16_async(dst + 16, src + 16);
        }
    }
}

/* The gradient of one element: scale * y * (dy - s) (softmax), scale * (dy - exp(y) * s) (log). */
template <int LOG>
__device__ __forceinline__ float hsm_bwd_value(float y, float d, float s, float scale)
{
    if constexpr (LOG)
        return scale * (d - hsm_exp2(y * HSM_LOG2E) * s);
    else
        return scale * y * (d - s);
}

/* The gradients of one pack written at column col of dx's row (any dtype). */
template <int VEC, int LOG>
__device__ __forceinline__ void hsm_bwd_store_pack(const hsm_args &a, void *xrow, int64_t col, const float *yv,
                                                   const float *dv, float s)
{
    float o[VEC];
#pragma unroll
    for (int i = 0; i < VEC; i++)
        o[i] = hsm_bwd_value<LOG>(yv[i], dv[i], s, a.op.scale);
    switch (a.op.out_dtype) {
    case HSM_F16: hsm_put_out<hsm_f16, VEC>(a, (hsm_f16 *)xrow + col, o); break;
    case HSM_BF16: hsm_put_out<hsm_bf16, VEC>(a, (hsm_bf16 *)xrow + col, o); break;
    default: hsm_put_out<float, VEC>(a, (float *)xrow + col, o); break;
    }
}

/* ---- the plain backward held as stored: WARP's and ROW's packed backward ---------------------- */
/* The plain backward (dy and dx in y's dtype; no alpha/beta, no statistics; scale and log-softmax at
 * run time) of rows on 16 bytes of whole packs, y and dy held as loaded: NP packs of 16 bytes of each
 * a thread, pack p of thread t at column (p width + t) E (E = 16 / sizeof(T)), t among `width`
 * threads a row (WARP: the lanes of a warp; ROW: a block). WARP's takes all three steps below; ROW's
 * (softmax_row.hip's hsm_row_packed_bwd_body) the share alone, its loads and stores without a branch
 * a pack. WARP's with ROW's branchless loads and stores ran 0.94-1.01x (H200, same run: bf16 4096 x
 * 264, 33 of a warp's 64 packs in the row, 0.958-0.966x; fp32 C = 32 at 89 registers, a block a SM
 * less, 0.937-0.973x; bench/results/h200-2026-11-30-warp-branchless-bwd.md), so each keeps its own:
 * a pack past the row still issues its loads, and ROW's blocks, sized to the row, have few such. */

/* The thread's packs of y and dy as 32-bit words, every load in flight before the first is used,
 * read with L2 priority evict_last (hsm_load16_l2_last); packs past the row hold zeros, which add
 * nothing to the sum. */
template <typename T, int NP>
__device__ __forceinline__ void hsm_packed_bwd_load(const T *yr, const T *dr, int cols, int t, int width,
                                                    uint32_t *wy, uint32_t *wd)
{
    constexpr int E = 16 / (int)sizeof(T);
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int col = (p * width + t) * E;
        hsm_pack<uint32_t, 4> py, pd;
        if (col < cols) {
            hsm_load16_l2_last(&py, yr + col);
            hsm_load16_l2_last(&pd, dr + col);
        } else {
#pragma unroll
            for (int i = 0; i < 4; i++)
                py.v[i] = pd.v[i] = 0u;
        }
#pragma unroll
        for (int i = 0; i < 4; i++) {
            wy[4 * p + i] = py.v[i];
            wd[4 * p + i] = pd.v[i];
        }
    }
}

/* The thread's share of the row's sum: of dy (log-softmax) or of dy * y. */
template <typename T, int NP>
__device__ __forceinline__ float hsm_packed_bwd_share(const hsm_args &a, const uint32_t *wy, const uint32_t *wd)
{
    constexpr int E = 16 / (int)sizeof(T);
    float s = 0.0f;
    if (a.op.log) {
#pragma unroll
        for (int e = 0; e < E * NP; e++)
            s += hsm_word_elem<T>(wd, e);
    } else {
#pragma unroll
        for (int e = 0; e < E * NP; e++)
            s += hsm_word_elem<T>(wd, e) * hsm_word_elem<T>(wy, e);
    }
    return s;
}

/* dx of the thread's packs, in y's dtype, from the row's sum s; SCALED: times the problem's scale,
 * which a plain backward (scale 1) does not multiply by. Plain stores, not streaming ones: in a
 * stand-alone kernel of ROW's packed shape they ran 0.4-1.0% faster on bf16 4096 x 2048-4096 and
 * fp32 4096 x 4096 (bench/results/h200-2026-11-30-row-packed-bwd.md, command 8); here, against the
 * streaming ones, 0.997-1.025x (bench/results/h200-2026-11-30-packed-bwd-stores.md). */
template <typename T, int NP, int LOG, int SCALED>
__device__ __forceinline__ void hsm_packed_bwd_store_t(const hsm_args &a, T *xr, int cols, int t, int width,
                                                       const uint32_t *wy, const uint32_t *wd, float s)
{
    constexpr int E = 16 / (int)sizeof(T);
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int col = (p * width + t) * E;
        if (col < cols) {
            float o[E];
#pragma unroll
            for (int e = 0; e < E; e++)
                o[e] = hsm_bwd_value<LOG>(hsm_word_elem<T>(wy + 4 * p, e), hsm_word_elem<T>(wd + 4 * p, e), s,
                                          SCALED ? a.op.scale : 1.0f);
            hsm_store<T, E, false>(xr + col, o, 1.0f);
        }
    }
}

/* The same, the algorithm and whether to scale chosen once a call (four bodies, a branch every
 * thread takes alike). */
template <typename T, int NP>
__device__ __forceinline__ void hsm_packed_bwd_store(const hsm_args &a, T *xr, int cols, int t, int width,
                                                     const uint32_t *wy, const uint32_t *wd, float s)
{
    const int scaled = a.op.scale != 1.0f;
    if (a.op.log) {
        if (scaled)
            hsm_packed_bwd_store_t<T, NP, 1, 1>(a, xr, cols, t, width, wy, wd, s);
        else
            hsm_packed_bwd_store_t<T, NP, 1, 0>(a, xr, cols, t, width, wy, wd, s);
    } else {
        if (scaled)
            hsm_packed_bwd_store_t<T, NP, 0, 1>(a, xr, cols, t, width, wy, wd, s);
        else
            hsm_packed_bwd_store_t<T, NP, 0, 0>(a, xr, cols, t, width, wy, wd, s);
    }
}

template <int VEC, int C, int LOG>
__device__ __forceinline__ void hsm_bwd_chunk_store_m(const hsm_args &a, void *xrow, int64_t col0, int64_t cols,
                                                      int lane, int width, const float *yv, const float *dv, float s,
                                                      int64_t wrap)
{
#pragma unroll
    for (int p = 0; p < C / VEC; p++) {
        int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
        if (p == 0 && col < 0)
            col += wrap;
        if ((uint64_t)col < (uint64_t)cols)
            hsm_bwd_store_pack<VEC, LOG>(a, xrow, col, yv + p * VEC, dv + p * VEC, s);
    }
}

/* The chunk store of dx in the call's dtype (chosen per pack, as in the forward), for the call's
 * algorithm; s is the row's sum. Columns [0, cols) are written. */
template <int VEC, int C>
__device__ __forceinline__ void hsm_bwd_chunk_store(const hsm_args &a, void *xrow, int64_t col0, int64_t cols, int lane,
                                                    int width, const float *yv, const float *dv, float s,
                                                    int64_t wrap = 0)
{
    if (a.op.log)
        hsm_bwd_chunk_store_m<VEC, C, 1>(a, xrow, col0, cols, lane, width, yv, dv, s, wrap);
    else
        hsm_bwd_chunk_store_m<VEC, C, 0>(a, xrow, col0, cols, lane, width, yv, dv, s, wrap);
}

/* A peeled row's edge element (hsm_peel_col: column ec, or -1 for none): y and dy read one at a time
 * into ey and ed, and its term of the row's sum returned (0 for none). */
template <typename T>
__device__ __forceinline__ float hsm_bwd_edge_load(const hsm_args &a, const T *yr, const void *drow, int ec, float &ey,
                                                   float &ed)
{
    ey = 0.0f;
    ed = 0.0f;
    if (ec < 0)
        return 0.0f;
    ey = hsm_to_float(yr[ec]);
    ed = hsm_in2_elem(a, drow, ec);
    return a.op.log ? ed : ed * ey;
}

/* A peeled row laid out from its first column on 16 bytes (SPLIT's and ONLINE's backward twins): its
 * whole packs span cols columns from column head; ec is this thread's edge element (hsm_peel_col;
 * -1 for none, or where `edges` is false), read into ey and ed with its term of the sum in term. */
struct hsm_peel_row {
    int64_t head, cols;
    int ec;
    float ey, ed, term;
};
template <typename T, int VEC>
__device__ __forceinline__ hsm_peel_row hsm_bwd_peel_row(const hsm_args &a, const T *yr, const void *drow, bool edges)
{
    hsm_peel_row r;
    const int lead = hsm_pack_lead(yr);
    r.head = (VEC - lead) % VEC < a.cols ? (VEC - lead) % VEC : a.cols;
    r.cols = (a.cols - r.head) / VEC * VEC;
    r.ec = edges ? hsm_peel_col<VEC>(lead, a.cols) : -1;
    r.term = hsm_bwd_edge_load(a, yr, drow, r.ec, r.ey, r.ed);
    return r;
}

/* Its gradient written, once the row's sum s is known. */
__device__ __forceinline__ void hsm_bwd_edge_store(const hsm_args &a, void *xrow, int ec, float ey, float ed, float s)
{
    if (ec < 0)
        return;
    if (a.op.log)
        hsm_bwd_store_pack<1, 1>(a, xrow, ec, &ey, &ed, s);
    else
        hsm_bwd_store_pack<1, 0>(a, xrow, ec, &ey, &ed, s);
}

#endif /* HSM_SOFTMAX_OPS_H_6B1D52 */
