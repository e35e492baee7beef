/* softmax_common.h: what every kernel family shares: element types and their fp32 conversion, vector
 * loads and stores, NaN-propagating max, warp and block reductions. Private to hipsoftmax.
 * Included only by the kernel sources (HIP/CUDA C++); it names no vendor API (hsm_vendor.h does).
 */
#ifndef HSM_SOFTMAX_COMMON_H_4A7E19
#define HSM_SOFTMAX_COMMON_H_4A7E19

#include "hsm_vendor.h"
#include "hsm_kernels.h"

/* 16-bit storage types: the kernels convert to fp32 on load and back on store. */
struct hsm_f16 { uint16_t bits; };
struct hsm_bf16 { uint16_t bits; };

__device__ __forceinline__ float hsm_to_float(float v) { return v; }
__device__ __forceinline__ float hsm_to_float(hsm_f16 v) { return hsm_half_to_float(v.bits); }
__device__ __forceinline__ float hsm_to_float(hsm_bf16 v) { return __uint_as_float((uint32_t)v.bits << 16); }

template <typename T> __device__ __forceinline__ T hsm_from_float(float v);
template <> __device__ __forceinline__ float hsm_from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ hsm_f16 hsm_from_float<hsm_f16>(float v)
{
    hsm_f16 h;
    h.bits = hsm_float_to_half(v);
    return h;
}
template <> __device__ __forceinline__ hsm_bf16 hsm_from_float<hsm_bf16>(float v)
{
    hsm_bf16 b;
    b.bits = (uint16_t)hsm_float2_to_bf162(v, 0.0f);
    return b;
}

/* Stores convert 16-bit types in pairs: one conversion instruction per two elements where the
 * hardware has one. */
__device__ __forceinline__ uint32_t hsm_pair_from_float(float lo, float hi, hsm_f16) { return hsm_float2_to_half2(lo, hi); }
__device__ __forceinline__ uint32_t hsm_pair_from_float(float lo, float hi, hsm_bf16) { return hsm_float2_to_bf162(lo, hi); }

/* VEC elements moved by one access; 16-byte aligned when VEC elements make 16 bytes. */
template <typename T, int VEC> struct alignas(sizeof(T) * VEC) hsm_pack { T v[VEC]; };
/* A bool or an int as a type: to pick a body at compile time inside a generic lambda. */
template <bool B> struct hsm_bool { static constexpr bool value = B; };
template <int N> struct hsm_int { static constexpr int value = N; };

template <typename T, int VEC>
__device__ __forceinline__ void hsm_load(const T *p, float *dst)
{
    hsm_pack<T, VEC> pk = *reinterpret_cast<const hsm_pack<T, VEC> *>(p);
#pragma unroll
    for (int i = 0; i < VEC; i++)
        dst[i] = hsm_to_float(pk.v[i]);
}

#define HSM_NEG_INF (-__int_as_float(0x7f800000))

/* -inf in each storage type: the value of columns past the end of a row. */
template <typename T> __device__ __forceinline__ T hsm_neg_inf_of();
template <> __device__ __forceinline__ float hsm_neg_inf_of<float>() { return HSM_NEG_INF; }
template <> __device__ __forceinline__ hsm_f16 hsm_neg_inf_of<hsm_f16>() { return hsm_f16{0xfc00u}; }
template <> __device__ __forceinline__ hsm_bf16 hsm_neg_inf_of<hsm_bf16>() { return hsm_bf16{0xff80u}; }

/* A pack of -inf, the value of columns past the end of a row. */
template <typename T, int VEC>
__device__ __forceinline__ hsm_pack<T, VEC> hsm_neg_inf_pack()
{
    hsm_pack<T, VEC> pk;
#pragma unroll
    for (int i = 0; i < VEC; i++)
        pk.v[i] = hsm_neg_inf_of<T>();
    return pk;
}

/* The VEC elements at column `col` as stored, or -inf in each (the padding value) outside the row. */
template <typename T, int VEC>
__device__ __forceinline__ hsm_pack<T, VEC> hsm_load_pack(const T *xr, int64_t col, int64_t cols)
{
    return (uint64_t)col < (uint64_t)cols ? *reinterpret_cast<const hsm_pack<T, VEC> *>(xr + col)
                                          : hsm_neg_inf_pack<T, VEC>();
}

/* Elements from the 128-byte line (HSM_LINE_BYTES) that holds the start of row xr to the
 * row's start, where accesses are 16-byte packs (0 elsewhere). A kernel that lays its accesses out
 * from that line, its columns counted from `lead` before the row's start, has every warp's access on
 * whole lines: a row off its line costs each warp one line and sector more per access otherwise
 * (H200, fp32, one block per row, N=65536: 82.8% of the copy bandwidth with rows 16 bytes off their
 * line, 90.0% on it). */
/* Elements from the 16 bytes that hold p to p: a tensor's offset from its own 16-byte packs. */
template <typename T>
__device__ __forceinline__ int hsm_pack_lead(const T *p)
{
    return (int)(((uintptr_t)p % 16) / sizeof(T));
}

template <typename T, int VEC>
__device__ __forceinline__ int hsm_line_lead(const T *xr)
{
    if constexpr (sizeof(hsm_pack<T, VEC>) == 16)
        return (int)(((uintptr_t)xr % HSM_LINE_BYTES) / sizeof(T));
    else
        return 0;
}

/* pk = VEC values times mul in the storage type (16-bit: converted in pairs). */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_pack_of(hsm_pack<T, VEC> &pk, const float *src, float mul)
{
    if constexpr (sizeof(T) == 2 && VEC % 2 == 0) {
        uint32_t w[VEC / 2];
#pragma unroll
        for (int i = 0; i < VEC / 2; i++)
            w[i] = hsm_pair_from_float(src[2 * i] * mul, src[2 * i + 1] * mul, T{});
        __builtin_memcpy(&pk, w, sizeof pk);
    } else {
#pragma unroll
        for (int i = 0; i < VEC; i++)
            pk.v[i] = hsm_from_float<T>(src[i] * mul);
    }
}

/* VEC values times mul written at p; 16-byte packs as streaming stores unless STREAM is false (the
 * packed backward's, where plain ones measured faster: softmax_ops.h's hsm_packed_bwd_store_t). */
template <typename T, int VEC, bool STREAM = true>
__device__ __forceinline__ void hsm_store(T *p, const float *src, float mul)
{
    hsm_pack<T, VEC> pk;
    hsm_pack_of<T, VEC>(pk, src, mul);
    if constexpr (sizeof(pk) == 16 && STREAM)
        hsm_store16_streaming(p, &pk);
    else
        *reinterpret_cast<hsm_pack<T, VEC> *>(p) = pk;
}

/* log2(e): exp(x) is computed as exp2(x * log2(e)), one hardware instruction on both vendors. */
#define HSM_LOG2E 1.4426950408889634f
#define HSM_LN2 0.6931471805599453f

/* The max ignores NaN (fmaxf, one instruction): a NaN reaches the row's result through the sum
 * instead, since exp(NaN - m) is NaN for any m and every output is divided by the sum. So a NaN
 * anywhere still makes the whole row NaN, as in torch.softmax. */
__device__ __forceinline__ float hsm_max(float a, float b) { return fmaxf(a, b); }

#if defined(HSM_PACKED_MAX_16)
__device__ __forceinline__ uint32_t hsm_max_pair(uint32_t a, uint32_t b, hsm_f16) { return hsm_max_half2(a, b); }
__device__ __forceinline__ uint32_t hsm_max_pair(uint32_t a, uint32_t b, hsm_bf16) { return hsm_max_bf162(a, b); }
#endif

/* 16-bit values two to a 32-bit word as stored, the lower column in the low half. Kept this way (not
 * as 16-bit elements, which the compiler gives a register each) where a kernel holds raw values. */
__device__ __forceinline__ float hsm_lo_to_float(uint32_t w, hsm_bf16) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float hsm_hi_to_float(uint32_t w, hsm_bf16) { return __uint_as_float(w & 0xffff0000u); }
__device__ __forceinline__ float hsm_lo_to_float(uint32_t w, hsm_f16) { return hsm_half_to_float((uint16_t)w); }
__device__ __forceinline__ float hsm_hi_to_float(uint32_t w, hsm_f16) { return hsm_half_to_float((uint16_t)(w >> 16)); }
/* A word of -inf padding: one fp32 -inf, or two 16-bit ones. */
template <typename T> __device__ __forceinline__ uint32_t hsm_neg_inf_word() { return hsm_neg_inf_of<T>().bits * 0x10001u; }
template <> __device__ __forceinline__ uint32_t hsm_neg_inf_word<float>() { return 0xff800000u; }
/* Element e of values held as words (e known at compile time in the unrolled loops that use it). */
template <typename T> __device__ __forceinline__ float hsm_word_elem(const uint32_t *w, int e)
{
    return e % 2 ? hsm_hi_to_float(w[e / 2], T{}) : hsm_lo_to_float(w[e / 2], T{});
}
template <> __device__ __forceinline__ float hsm_word_elem<float>(const uint32_t *w, int e) { return __uint_as_float(w[e]); }

/* The max of NW words of values. For 16-bit pairs, where the vendor compares pairs in one
 * instruction, the words are reduced as stored and only the last one is converted: half an
 * instruction per element instead of a conversion and a max. */
template <typename T, int NW>
__device__ __forceinline__ float hsm_words_max(const uint32_t *w)
{
#if defined(HSM_PACKED_MAX_16)
    if constexpr (sizeof(T) == 2) {
        uint32_t acc[4]; /* four chains, not one NW long */
#pragma unroll
        for (int i = 0; i < 4; i++)
            acc[i] = w[i % NW];
#pragma unroll
        for (int i = 4; i < NW; i++)
            acc[i % 4] = hsm_max_pair(acc[i % 4], w[i], T{});
        const uint32_t m = hsm_max_pair(hsm_max_pair(acc[0], acc[1], T{}), hsm_max_pair(acc[2], acc[3], T{}), T{});
        return hsm_max(hsm_lo_to_float(m, T{}), hsm_hi_to_float(m, T{}));
    }
#endif
    constexpr int E = NW * 4 / (int)sizeof(T);
    float m = HSM_NEG_INF;
#pragma unroll
    for (int e = 0; e < E; e++)
        m = hsm_max(m, hsm_word_elem<T>(w, e));
    return m;
}

/* exp(x - m): a -inf m (every value so far is -inf) contributes nothing instead of NaN. Used where
 * partial results of part of a row are combined; a whole row of -inf still ends as NaN (0 / 0). */
__device__ __forceinline__ float hsm_rescale(float x, float m)
{
    return x == HSM_NEG_INF ? 0.0f : hsm_exp2((x - m) * HSM_LOG2E);
}
__device__ __forceinline__ float hsm_exp(float x, float m) { return hsm_exp2((x - m) * HSM_LOG2E); }

/* The outputs exp(x - m) / S of a kernel that takes the exponentials again for them, in T: for fp32
 * the exponential times 1 / S; for 16-bit outputs 2^((x - m) log2 e + log2(1 / S)), the normaliser
 * added to the exponent by the FFMA that scales it, one instruction an element fewer (the 16-bit
 * kernels are bound by their instructions). The exponent's rounding then includes log2 S: for an
 * exponent under 32 in magnitude, under 2^-19 of the output (and lg2.approx's under 2^-22 x |log2 S|),
 * where a 16-bit output's rounding is 2^-12 (fp16) or 2^-9 (bf16). The edge cases agree: S = 0 (every
 * value -inf) gives NaN both ways, a NaN S gives NaN. log2(1 / S), not -log2 S: ptxas carried the
 * sum pass's conversions of the packed ROW kernels' values past a lone lg2 into their store pass
 * (24-120 bytes of spills on sm_90); the division's slow path keeps it from that, and the kernels at
 * 44-54 registers. hsm_norm_of gives the normaliser, hsm_exp_norm an output (k: the exponent's
 * multiplier, sigma log2 e with a scale); a store of them multiplies by 1. */
template <typename T> __device__ __forceinline__ float hsm_norm_of(float S)
{
    if constexpr (sizeof(T) == 2)
        return hsm_log2(1.0f / S);
    else
        return 1.0f / S;
}
/* log(S) from hsm_norm_of's normaliser, for the plain log-softmax's outputs (x - m) - log(S): the
 * kernels that hold 16-bit values as stored keep the normaliser's division before their stores for
 * the reason above (a lone logf(S) there let ptxas hold the sum's conversions: 80-536 bytes of spills,
 * sm_90), and take log(S) from it: -log2(1 / S) ln 2, within a few 2^-24 of log(S), against
 * log-softmax's 2e-5 tolerance. */
template <typename T> __device__ __forceinline__ float hsm_log_sum_of(float norm)
{
    if constexpr (sizeof(T) == 2)
        return -norm * HSM_LN2;
    else
        return -logf(norm);
}
template <typename T>
__device__ __forceinline__ float hsm_exp_norm(float x, float m, float norm, float k = HSM_LOG2E)
{
    if constexpr (sizeof(T) == 2)
        return hsm_exp2(fmaf(x - m, k, norm));
    else
        return hsm_exp2((x - m) * k) * norm;
}

/* A row's base-2 exponents, (x - m) k, as one FFMA where the row allows it (F): x k + c with c =
 * -(m k), an instruction an element fewer than the subtraction and product, for the kernels that hold
 * 16-bit values as stored and take each exponential twice (ROW's packed ones: 12.5% fewer
 * instructions on an H100). c is rounded, by d at most half its last place: every exponential of the
 * row is then 2^d times the exact one, and so is their sum. Where the outputs take the same c
 * (hsm_expo_out), d cancels in the division; where they take (x - m) k (the forward with options'
 * stores), it does not, and the bound below keeps it under 2^-18 (a relative error under 3e-6, an
 * absolute one in log-softmax and lse). The normaliser the 16-bit outputs add to their exponent
 * (hsm_exp_norm) is added to c once a row, and that rounding does not cancel either: under 2^-17
 * where |m k| < HSM_FMA_EXP_LIMIT and log2 S <= 32 (|c| < 256), against the 2^-19 of the exponent's
 * own rounding and a 16-bit output's 2^-12 (fp16) or 2^-9 (bf16). Rows with a larger max (|sigma m| >=
 * 88), or a max of -inf, +inf or NaN, keep the subtraction and product (F false, c = -0): the
 * outputs' PTX is hsm_exp_norm's, and the sum's product becomes an FFMA with -0 where hsm_exp has an
 * FMUL, the same result; hsm_fma_exp_ok tells which, once a row. */
#define HSM_FMA_EXP_LIMIT 128.0f
__device__ __forceinline__ bool hsm_fma_exp_ok(float mk) { return fabsf(mk) < HSM_FMA_EXP_LIMIT; }
template <bool F> struct hsm_expo {
    float m, k, c;
    __device__ __forceinline__ float at(float x) const { return fmaf(F ? x : x - m, k, c); }
};
template <bool F> __device__ __forceinline__ hsm_expo<F> hsm_expo_of(float m, float k)
{
    hsm_expo<F> e;
    e.m = m;
    e.k = k;
    e.c = F ? -(m * k) : -0.0f;
    return e;
}
/* f(ex) with the row's exponents in the form its max allows: one uniform branch, each side its own
 * copy of f's loop. */
template <typename Fn> __device__ __forceinline__ void hsm_expo_branch(float m, float k, Fn &&f)
{
    if (hsm_fma_exp_ok(m * k))
        f(hsm_expo_of<true>(m, k));
    else
        f(hsm_expo_of<false>(m, k));
}
/* The outputs' exponent (norm from hsm_norm_of) and an output, as hsm_exp_norm: for 16-bit outputs the
 * normaliser in the exponent, for fp32 a product. */
template <typename T, bool F> __device__ __forceinline__ hsm_expo<F> hsm_expo_norm(hsm_expo<F> e, float norm)
{
    if constexpr (sizeof(T) == 2)
        e.c += norm;
    return e;
}
template <typename T, bool F> __device__ __forceinline__ float hsm_expo_out(const hsm_expo<F> &e, float x, float norm)
{
    if constexpr (sizeof(T) == 2)
        return hsm_exp2(e.at(x));
    else
        return hsm_exp2(e.at(x)) * norm;
}

/* The 8 16-bit elements at p as a 16-byte pack's four words (w[i]: elements 2i and 2i + 1), where p
 * lies on 4 bytes (ODD false: four 4-byte loads) or 2 bytes past (ODD: the two ends alone, three words
 * between). ROW's packed peeled kernels read x so where their row takes the output's layout
 * (hsm_peel_col): fewer loads than eight of 2 bytes. */
template <bool ODD>
__device__ __forceinline__ void hsm_load_words(const void *p, uint32_t *w)
{
    if constexpr (!ODD) {
        const uint32_t *q = reinterpret_cast<const uint32_t *>(p);
#pragma unroll
        for (int i = 0; i < 4; i++)
            w[i] = q[i];
    } else {
        const uint16_t *h = reinterpret_cast<const uint16_t *>(p);
        const uint32_t *q = reinterpret_cast<const uint32_t *>(h + 1);
        const uint32_t q0 = q[0], q1 = q[1], q2 = q[2];
        w[0] = (uint32_t)h[0] | q0 << 16;
        w[1] = q0 >> 16 | q1 << 16;
        w[2] = q1 >> 16 | q2 << 16;
        w[3] = q2 >> 16 | (uint32_t)h[7] << 16;
    }
}

/* One thread's share of a chunk of a row: C elements at columns col0 + (p * width + lane) * VEC + i,
 * for p < C / VEC, i < VEC; columns outside [0, cols) (col0 may be negative: hsm_line_lead) read as
 * -inf (the padding value) and are never written. Consecutive lanes touch consecutive VEC-element
 * accesses, so a warp's accesses coalesce. A column of the first access (p == 0) that lies before
 * the row's start moves `wrap` columns on: a block whose chunk holds the whole row (wrap = its width)
 * takes the columns its lead leaves at the row's end there, with no access more. Only p == 0 needs
 * it: a lead is under one 128-byte line, and one access of every lane of a warp spans 512 bytes. */
/* words (16-bit, VEC 8): each pack read in words, 0: none, 1: on 4 bytes, 2: 2 bytes past
 * (hsm_load_words; the peeled 16-bit kernels' rows laid out as their output's: hsm_peel_col). */
template <typename T, int VEC, int C>
__device__ __forceinline__ float hsm_chunk_load(const T *xr, int64_t col0, int64_t cols, int lane, int width,
                                                float *v, int64_t wrap = 0, int words = 0)
{
    float m = HSM_NEG_INF;
#pragma unroll
    for (int p = 0; p < C / VEC; p++) {
        int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
        if (p == 0 && col < 0)
            col += wrap;
        if ((uint64_t)col < (uint64_t)cols) {
            bool read = false;
            if constexpr (sizeof(T) == 2 && VEC == 8) {
                if (words != 0) {
                    uint32_t w[4];
                    if (words == 1)
                        hsm_load_words<false>(xr + col, w);
                    else
                        hsm_load_words<true>(xr + col, w);
#pragma unroll
                    for (int i = 0; i < 4; i++) {
                        v[p * VEC + 2 * i] = hsm_lo_to_float(w[i], T{});
                        v[p * VEC + 2 * i + 1] = hsm_hi_to_float(w[i], T{});
                    }
                    read = true;
                }
            }
            if (!read)
                hsm_load<T, VEC>(xr + col, v + p * VEC);
        } else {
#pragma unroll
            for (int i = 0; i < VEC; i++)
                v[p * VEC + i] = HSM_NEG_INF;
        }
#pragma unroll
        for (int i = 0; i < VEC; i++)
            m = hsm_max(m, v[p * VEC + i]);
    }
    return m;
}

/* by_elem: the output an element at a time (the peeled fp32 kernels' rows whose output lies at another
 * offset from 16 bytes than their input: hsm_peel_col). */
template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_chunk_store(T *yr, int64_t col0, int64_t cols, int lane, int width,
                                                const float *v, float mul, int64_t wrap = 0, bool by_elem = false)
{
#pragma unroll
    for (int p = 0; p < C / VEC; p++) {
        int64_t col = col0 + ((int64_t)p * width + lane) * VEC;
        if (p == 0 && col < 0)
            col += wrap;
        if ((uint64_t)col < (uint64_t)cols) {
            if (by_elem) {
#pragma unroll
                for (int i = 0; i < VEC; i++)
                    yr[col + i] = hsm_from_float<T>(v[p * VEC + i] * mul);
            } else {
                hsm_store<T, VEC>(yr + col, v + p * VEC, mul);
            }
        }
    }
}

/* Peeled rows (ROW's _peel kernels: rows at any element offset from 16 bytes, issue 14). A row is laid
 * out from the 128-byte line that holds its start as on the vector path (hsm_line_lead counts the
 * lead in elements, whole accesses or not), so every pack lies on 16 bytes; the packs wholly inside
 * the row are read and written whole, and the few elements of the two packs that straddle its ends
 * (fewer than VEC at each end) are read and written one at a time by threads 0 to 2 VEC - 1, one
 * each. Nothing outside the row is touched: an exact-size allocation's last row ends anywhere in its
 * last 16 bytes. Where the output row lies at another offset from 16 bytes than the input row, 16-bit
 * kernels lay the row out as the output's and read the input in 4-byte words, or 2-byte ends and words
 * (hsm_load_words, hsm_chunk_load's words): the other lanes' loads of the same lines then hit L1,
 * where 2-byte stores each go to L2 (bf16, 4096 x 50257, x rows 50258 apart, y dense, H200: 20% of a
 * same-size copy with the stores split, 58% with the loads split into elements, against 80% for the
 * dense rows; H100, ROW's packed kernel: loads in words 72%, in elements 70%, 4-byte word stores,
 * the words across two lanes' packs by a shuffle or in halves, 47% and 39%). ROW's _shift twins of
 * its packed kernels keep x's layout instead, 16-byte stores too, lanes passing each other the
 * elements across y's packs (hsm_row_packed_body's S: 81% there). fp32 kernels split their 4-byte
 * stores instead (hsm_chunk_store's by_elem: 4096 x 12345, x rows 12346 apart, 83% against 89%):
 * splitting their loads took registers that lowered their residency; ROW's fp32 _shift twins store
 * 16-byte packs as the 16-bit ones do, on rows of 10000 columns or more (hsm_row_shift_store: 4096 x
 * 30001 1.72x the element stores, H200). */
/* hsm_peel_bound: the bound to give hsm_chunk_load and hsm_chunk_store for "the pack at col lies wholly
 * in the row" (col < bound); hsm_peel_col: this thread's edge element's column, or -1. */
template <int VEC>
__device__ __forceinline__ int64_t hsm_peel_bound(int64_t cols)
{
    return cols >= VEC ? cols - VEC + 1 : 0;
}
template <int VEC>
__device__ __forceinline__ int hsm_peel_col(int lead, int64_t cols)
{
    const int64_t head = (VEC - lead % VEC) % VEC < cols ? (VEC - lead % VEC) % VEC : cols; /* [0, head) */
    const int64_t full_end = (cols + lead) / VEC * VEC - lead; /* past the last whole pack */
    const int64_t tail = full_end > head ? full_end : head;   /* [tail, cols) */
    const int t = (int)threadIdx.x;
    const int64_t c = t < VEC ? (t < head ? t : -1) : t < 2 * VEC ? tail + (t - VEC) : -1;
    return c < cols ? (int)c : -1;
}

/* hsm_rescale with exponent multiplier k (exp(sigma * (x - m)) for k = sigma * log2(e)). */
__device__ __forceinline__ float hsm_rescale_k(float x, float m, float k)
{
    return x == HSM_NEG_INF ? 0.0f : hsm_exp2((x - m) * k);
}

/* Folds C values whose max is vmax into a running (max m, sum s) (the online normalizer), the sum of
 * exp2((v - m) * k) (k = log2(e) for a plain softmax). While every value so far is -inf the exponent
 * shift is 0, so those terms are exp(-inf) = 0 rather than exp(-inf - -inf) = NaN; a NaN value still
 * makes s NaN. */
template <int C>
__device__ __forceinline__ void hsm_online_fold(const float *v, float vmax, float &m, float &s, float k = HSM_LOG2E)
{
    const float nm = hsm_max(m, vmax);
    const float shift = nm == HSM_NEG_INF ? 0.0f : nm;
    float t = 0.0f;
#pragma unroll
    for (int i = 0; i < C; i++)
        t += hsm_exp2((v[i] - shift) * k);
    s = s * hsm_rescale_k(m, shift, k) + t;
    m = nm;
}

/* Reductions across `width` lanes (a power of two <= HSM_WARP_SIZE); every lane gets the result. */
__device__ __forceinline__ float hsm_warp_max(float v, int width)
{
    for (int o = width >> 1; o > 0; o >>= 1)
        v = hsm_max(v, hsm_shfl_xor(v, o, width));
    return v;
}
__device__ __forceinline__ float hsm_warp_sum(float v, int width)
{
    for (int o = width >> 1; o > 0; o >>= 1)
        v += hsm_shfl_xor(v, o, width);
    return v;
}

/* Block reductions; every thread gets the result. `scratch` holds one float per warp and must not be
 * reused by the next reduction until all threads passed a barrier: callers alternate two buffers. */
#define HSM_MAX_WARPS (1024 / HSM_WARP_SIZE)
__device__ __forceinline__ float hsm_block_max(float v, float *scratch)
{
    const int lane = threadIdx.x % HSM_WARP_SIZE, warp = threadIdx.x / HSM_WARP_SIZE;
    const int nwarps = (blockDim.x + HSM_WARP_SIZE - 1) / HSM_WARP_SIZE;
    v = hsm_warp_max(v, HSM_WARP_SIZE);
    if (lane == 0)
        scratch[warp] = v;
    __syncthreads();
    v = lane < nwarps ? scratch[lane] : HSM_NEG_INF;
    return hsm_warp_max(v, HSM_WARP_SIZE);
}
__device__ __forceinline__ float hsm_block_sum(float v, float *scratch)
{
    const int lane = threadIdx.x % HSM_WARP_SIZE, warp = threadIdx.x / HSM_WARP_SIZE;
    const int nwarps = (blockDim.x + HSM_WARP_SIZE - 1) / HSM_WARP_SIZE;
    v = hsm_warp_sum(v, HSM_WARP_SIZE);
    if (lane == 0)
        scratch[warp] = v;
    __syncthreads();
    v = lane < nwarps ? scratch[lane] : 0.0f;
    return hsm_warp_sum(v, HSM_WARP_SIZE);
}
/* The same for blocks of at most MAXW warps, each thread adding every warp's share itself after the
 * barrier (MAXW reads of shared memory at once, each thread in the same order) in place of a second
 * round of shuffles, which a short-lived block waits on before its stores. The three repeat their
 * first half (warp reduction, lane 0's write, barrier) on purpose: written once in a helper, the
 * sm_90 code of 14 kernels changed (12 ROW, among them the peeled _log ones and hsm_row_f16_p32_bwd;
 * 2 ONLINE backward), in registers and order, none of it measured. */
template <int MAXW>
__device__ __forceinline__ float hsm_block_sum_few(float v, float *scratch)
{
    const int lane = threadIdx.x % HSM_WARP_SIZE, warp = threadIdx.x / HSM_WARP_SIZE;
    const int nwarps = (blockDim.x + HSM_WARP_SIZE - 1) / HSM_WARP_SIZE;
    v = hsm_warp_sum(v, HSM_WARP_SIZE);
    if (lane == 0)
        scratch[warp] = v;
    __syncthreads();
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < MAXW; i++)
        s += i < nwarps ? scratch[i] : 0.0f;
    return s;
}

/* The kernel argument block, shared by all families. */
struct hsm_args {
    const void *x;                 /* forward x; backward y */
    const void *x2;                /* backward dy */
    void *y;                       /* forward y; backward dx */
    int64_t rows, cols, x_stride, x2_stride, y_stride;
    int group_width;
    int blocks_per_row;
    unsigned *workspace;
    int workspace_blocks;
    unsigned epoch;
    int fenced;
    int cached_tiles;
    int staged;
    int64_t inner;
    int channel_warps;
    int channel_lanes;
    int flat_rows;
    int ahead;
    hsm_op_args op;
};

static inline hsm_args hsm_args_from(const hsm_launch *a)
{
    hsm_args k;
    k.x = a->x;
    k.x2 = a->x2;
    k.y = a->y;
    k.rows = a->rows;
    k.cols = a->cols;
    k.x_stride = a->x_stride;
    k.x2_stride = a->x2_stride;
    k.y_stride = a->y_stride;
    k.group_width = a->group_width;
    k.blocks_per_row = a->blocks_per_row;
    k.workspace = (unsigned *)a->workspace;
    k.workspace_blocks = a->workspace_blocks;
    k.epoch = a->epoch;
    k.fenced = a->fenced;
    k.cached_tiles = a->cached_tiles;
    k.staged = a->staged;
    k.inner = a->inner;
    k.channel_warps = a->channel_warps;
    k.channel_lanes = a->channel_lanes;
    k.flat_rows = a->flat_rows;
    k.ahead = a->ahead;
    k.op = a->op;
    return k;
}

/* Launches a table entry whose kernel takes only hsm_args, on the caller's stream: the launch of
 * every family but SPLIT (cooperative). The launch call returns its own status: the runtime's
 * last-error state, which holds the application's own earlier errors too, is neither read nor
 * cleared. */
static inline int hsm_launch_plain(const hsm_kernel *k, const hsm_launch *a)
{
    hsm_args args = hsm_args_from(a);
    void *params[] = {&args};
    return (int)hipLaunchKernel(k->func, dim3(a->grid), dim3(a->block), params, a->smem_bytes,
                                (hipStream_t)a->stream);
}

#endif /* HSM_SOFTMAX_COMMON_H_4A7E19 */
