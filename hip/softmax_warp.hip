/* softmax_warp.hip: the tiny-row family. A group of `group_width` lanes (a power of two up to the warp
 * size) holds one row in registers, C elements per lane, so a warp serves several rows at once and no
 * block barrier is needed. Reads each element once and writes it once. Three bodies: the plain
 * forward, the forward with every option (softmax_ops.h), the backward (y and dy held, 2C values). */
#include "softmax_ops.h"

#define HSM_WARP_BLOCK 128

/* How a group walks its rows. The loop bound is the first group of the warp, so all lanes of a warp
 * run the same iterations and every shuffle has all its lanes; groups past the last row only skip
 * their loads and stores: for (base = first; base < rows; base += step), row = base + offset.
 * W is a power of two known only at launch: shifts and masks by its log, where a division by W cost
 * three integer divisions (some 20 dependent instructions each) before a row's first load. */
struct hsm_warp_walk {
    int64_t first, step, offset;
    int lane;
};
__device__ __forceinline__ hsm_warp_walk hsm_warp_walk_of(int W)
{
    const int lw = __ffs(W) - 1;
    const int64_t groups_per_block = blockDim.x >> lw;
    const int64_t group = (int64_t)blockIdx.x * groups_per_block + (threadIdx.x >> lw);
    hsm_warp_walk w;
    w.first = (int64_t)blockIdx.x * groups_per_block + (threadIdx.x / HSM_WARP_SIZE) * (HSM_WARP_SIZE >> lw);
    w.step = (int64_t)gridDim.x * groups_per_block;
    w.offset = group - w.first;
    w.lane = threadIdx.x & (W - 1);
    return w;
}

/* The plain forward's and log-softmax's rows (the scalar kernels, VEC 1: _s<C>, _s<C>_log; the
 * vector kernels, VEC 16 bytes' worth: _v<C / VEC>, _v<C / VEC>_log; 16-bit packs of 8 and 4 bytes:
 * _h, _q): pack p W + lane of a row (VEC elements) for p < C / VEC; the scalar kernels' rows at any
 * offset and stride (plan.c's scalar_rows), the vector kernels' on their packs with cols a multiple
 * of VEC (a pack lies wholly in the row or past it). One pointer a lane and columns in 32 bits (a
 * row is at most C elements a lane of a warp), and W known at compile time (WS) for the widths most
 * rows take: with
 * hsm_chunk_load's 64-bit columns of a launch-time width the scalar kernels took 40-54 registers and
 * 1.4x the instructions of cuDNN's kernel of the same layout (H100, fp32 65536 x 127, Nsight
 * Compute), and ran 28.0-28.6 us against its 25.7; now 25.9. LOG: the plain log-softmax (kop
 * HSM_KOP_LOG), as hsm_row_body's: outputs (v - m) - log(sum), v - m kept from the sum's exponents.
 * One row a group and no loop over rows: the launch gives every group its row (hsm_launch_warp_rows
 * launches again for rows past a grid's). The loop over rows that was here held its bounds and steps
 * in registers beside the row's values: fp32 _v4 took 43 registers (ten blocks a SM) where the same
 * body without it takes 32 (sixteen blocks: HSM_WARP_SMALL_BOUNDS), and a stand-alone kernel of this
 * shape had run fp32 16384 x 200 in 7.55 us against the library's 8.86
 * (bench/results/h200-2026-12-01-fwd-shapes.md). y is written with plain stores, not streaming ones
 * (1.01-1.02x in that kernel; in this body with the loop kept, 0.99-1.02x). Both, against the library
 * before (H200, kernel time, same command; bench/results/h200-2026-12-01-warp-once.md): fp32 rows of
 * 128-512 columns 1.02-1.15x (4096 x 256 3.90 -> 3.78 us, 16384 x 200 8.86 -> 7.71), 16-bit 1.02-1.25x
 * (bf16 65536 x 302 on _q8 30.8 -> 24.7 us, fp16 65536 x 77 rows 78 apart on _s8 13.2 -> 10.6). */
template <typename T, int VEC, int C, int WS, bool LOG>
__device__ __forceinline__ void hsm_warp_rows(const hsm_args a)
{
    const int W = WS != 0 ? WS : a.group_width;
    const int lw = __ffs(W) - 1, lane = threadIdx.x & (W - 1);
    const int64_t row = (int64_t)blockIdx.x * (blockDim.x >> lw) + (threadIdx.x >> lw);
    /* A group past the last row reads and writes nothing; its lanes still take part in the warp's
     * shuffles, which run on every lane of it. */
    const bool live = row < a.rows;
    const int n = live ? (int)a.cols - lane * VEC : 0; /* this lane's packs: p W VEC < n */
    const T *xl = (const T *)a.x + (live ? row : 0) * a.x_stride + lane * VEC;
    float v[C];
    float m = HSM_NEG_INF;
#pragma unroll
    for (int p = 0; p < C / VEC; p++) {
        if (p * W * VEC < n) {
            hsm_load<T, VEC>(xl + p * W * VEC, v + p * VEC);
        } else {
#pragma unroll
            for (int i = 0; i < VEC; i++)
                v[p * VEC + i] = HSM_NEG_INF;
        }
#pragma unroll
        for (int i = 0; i < VEC; i++)
            m = hsm_max(m, v[p * VEC + i]);
    }
    m = hsm_warp_max(m, W);
    float s = 0.0f, mul = 1.0f;
    if constexpr (LOG) {
#pragma unroll
        for (int i = 0; i < C; i++) {
            v[i] -= m;
            s += hsm_exp2(v[i] * HSM_LOG2E);
        }
        const float lns = logf(hsm_warp_sum(s, W));
#pragma unroll
        for (int i = 0; i < C; i++)
            v[i] -= lns;
    } else {
#pragma unroll
        for (int i = 0; i < C; i++) {
            v[i] = hsm_exp(v[i], m);
            s += v[i];
        }
        mul = 1.0f / hsm_warp_sum(s, W);
    }
    T *yl = (T *)a.y + (live ? row : 0) * a.y_stride + lane * VEC;
#pragma unroll
    for (int p = 0; p < C / VEC; p++)
        if (p * W * VEC < n)
            hsm_store<T, VEC, false>(yl + p * W * VEC, v + p * VEC, mul);
}
template <typename T, int VEC, int C, bool LOG = false>
__device__ __forceinline__ void hsm_warp_body(const hsm_args a)
{
    if (a.group_width == HSM_WARP_SIZE)
        hsm_warp_rows<T, VEC, C, HSM_WARP_SIZE, LOG>(a);
    else if (a.group_width == HSM_WARP_SIZE / 2)
        hsm_warp_rows<T, VEC, C, HSM_WARP_SIZE / 2, LOG>(a);
    else
        hsm_warp_rows<T, VEC, C, 0, LOG>(a);
}
template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_warp_log_body(const hsm_args a)
{
    hsm_warp_body<T, VEC, C, true>(a);
}

/* The plain forward peeled (issue 14): rows at any element offset from 16 bytes, x and y rows at the
 * same offset (the plan gives other rows to the scalar kernels). A group lays its row out from the 16
 * bytes that hold its start, so every pack lies on 16 bytes. Every pack that holds any of the row's
 * elements is read whole, all of them before any is used, and the elements outside the row are set to
 * -inf in registers; only a pack that reaches past x's own elements (its first row's start off 16
 * bytes, its last row's end anywhere in its last 16 bytes: an exact-size allocation ends there) is
 * read an element at a time, each bounded by the row. A pack wholly in the row is written whole, one
 * that straddles an end an element at a time (the neighbouring rows' elements are other groups').
 * Reading the straddling packs an element at a time, as this body first did, put a branch between
 * each pack's load and the next, and the loads went one after another: fp16 65536 x 77 ran at
 * 0.65-0.69 of 65536 x 80 and 1.5-2.0x as long as the staged kernels (H200). The plan sizes the group
 * for cols + VEC - 1 columns: the lead is under VEC. W known at compile time (WS) for the widths a
 * short row takes, columns in 32 bits (a row is at most C elements a lane of a warp), as
 * hsm_warp_rows. */
template <typename T, int VEC, int C, int WS>
__device__ __forceinline__ void hsm_warp_peel_rows(const hsm_args a)
{
    const int W = WS != 0 ? WS : a.group_width;
    const hsm_warp_walk w = hsm_warp_walk_of(W);
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    const int64_t extent = (a.rows - 1) * a.x_stride + a.cols; /* x's elements, its first row's start on */
    float v[C];

    for (int64_t base = w.first; base < a.rows; base += w.step) {
        const int64_t row = base + w.offset;
        const bool live = row < a.rows;
        const int64_t ro = (live ? row : 0) * a.x_stride;
        const T *xr = x + ro;
        const int n = live ? (int)a.cols : 0;
        const int c0 = w.lane * VEC - hsm_pack_lead(xr); /* the column of the lane's pack 0 */
        /* Columns [lo, hi) of this row lie among x's elements: a pack inside them is read whole. */
        const int lo = ro >= VEC ? -VEC : -(int)ro;
        const int hi = extent - ro < n + VEC ? (int)(extent - ro) : n + VEC;
        hsm_pack<T, VEC> pk[C / VEC];
#pragma unroll
        for (int p = 0; p < C / VEC; p++) {
            const int c = c0 + p * W * VEC;
            pk[p] = c + VEC > 0 && c < n && c >= lo && c + VEC <= hi ? *reinterpret_cast<const hsm_pack<T, VEC> *>(xr + c)
                                                                    : hsm_neg_inf_pack<T, VEC>();
        }
#pragma unroll
        for (int p = 0; p < C / VEC; p++) {
            const int c = c0 + p * W * VEC;
            if (c + VEC > 0 && c < n && (c < lo || c + VEC > hi)) {
#pragma unroll
                for (int i = 0; i < VEC; i++)
                    if (c + i >= 0 && c + i < n)
                        pk[p].v[i] = xr[c + i];
            }
        }
        /* Elements outside the row to -inf: a compare and a select each, no branch (with the compare
         * behind a test of whether the pack straddles an end, the compiler made a branch of every
         * element, and the kernel ran slower than with the element loads). */
        float lm = HSM_NEG_INF;
#pragma unroll
        for (int p = 0; p < C / VEC; p++) {
            const int c = c0 + p * W * VEC;
#pragma unroll
            for (int i = 0; i < VEC; i++) {
                const float f = hsm_to_float(pk[p].v[i]);
                v[p * VEC + i] = (unsigned)(c + i) < (unsigned)n ? f : HSM_NEG_INF;
                lm = hsm_max(lm, v[p * VEC + i]);
            }
        }
        const float m = hsm_warp_max(lm, W);
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < C; i++) {
            v[i] = hsm_exp(v[i], m);
            s += v[i];
        }
        const float inv = 1.0f / hsm_warp_sum(s, W);
        T *yr = y + (live ? row : 0) * a.y_stride;
#pragma unroll
        for (int p = 0; p < C / VEC; p++) {
            const int c = c0 + p * W * VEC;
            /* Converted first, then only stores under each condition: with the conversion inside
             * an element's condition the compiler branched around each element. */
            hsm_pack<T, VEC> out;
            hsm_pack_of<T, VEC>(out, v + p * VEC, inv);
            const bool whole = c >= 0 && c + VEC <= n;
            if (whole)
                hsm_store16_streaming(yr + c, &out);
#pragma unroll
            for (int i = 0; i < VEC; i++)
                if (!whole && (unsigned)(c + i) < (unsigned)n)
                    yr[c + i] = out.v[i];
        }
    }
}
template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_warp_peel_body(const hsm_args a)
{
    switch (a.group_width) {
    case HSM_WARP_SIZE: hsm_warp_peel_rows<T, VEC, C, HSM_WARP_SIZE>(a); break;
    case 16: hsm_warp_peel_rows<T, VEC, C, 16>(a); break;
    case 8: hsm_warp_peel_rows<T, VEC, C, 8>(a); break;
    case 4: hsm_warp_peel_rows<T, VEC, C, 4>(a); break;
    default: hsm_warp_peel_rows<T, VEC, C, 0>(a); break;
    }
}

/* The plain forward of dense 16-bit rows staged through shared memory (_flat kernels, issue 14;
 * fp32 rows, whose scalar accesses fill a warp's 128 bytes, ran faster on the scalar kernels
 * everywhere measured and have none: plan.c's scalar_rows): x's rows lie cols apart, and so do y's,
 * so the flat_rows rows a block serves at once are one span of each tensor. The block copies x's
 * span into shared memory in 16-byte accesses, laid out from the 16 bytes that hold its first
 * element; only the packs that straddle the span's two ends go an element at a time, each element
 * bounded by the span (nothing outside it is read or written: an exact-size allocation ends
 * anywhere in its last 16 bytes, and the neighbouring spans are other blocks'). Its groups reduce
 * their rows from there (hsm_flat_row: consecutive lanes on consecutive banks) and write y over
 * them, and the block copies y's span out the same way, from y's own 16 bytes. So a row at any
 * offset from 16 bytes, and x and y at different ones, cost two packs a span instead of two a row
 * (the peeled twins ran fp16 65536 x 77 at 0.65-0.69 of 65536 x 80, and odd 127-column rows stayed
 * scalar).
 * Two buffers: the block's next span is copied in (asynchronously where the target can: cp.async;
 * its straddling packs into registers, written when that span's turn comes) while it reduces and
 * writes the current one, so a block keeps loads in flight through every phase. Without that (one
 * buffer, H200) the staged kernels ran fp16 65536 x 77 at 20-29 us against 16.5 for the register
 * kernels on 65536 x 80. */
#define HSM_WARP_FLAT_PACKS (HSM_WARP_FLAT_BYTES / 16 + 1) /* a span and its lead */
#define HSM_WARP_FLAT_ROUNDS ((HSM_WARP_FLAT_PACKS + HSM_WARP_BLOCK - 1) / HSM_WARP_BLOCK)
#define HSM_WARP_FLAT_REGS 64 /* eight 128-thread blocks a SM (HSM_KERNEL_REG_CAP: NVIDIA only) */

/* A span of x: n elements (32-bit: at most HSM_WARP_FLAT_BYTES) from xs, xs's offset from 16 bytes
 * (lead, elements), and the packs that cover it from there. */
template <typename T> struct hsm_flat_span {
    const T *xs;
    int nr, n, lead, packs;
};
template <typename T>
__device__ __forceinline__ hsm_flat_span<T> hsm_flat_span_of(const hsm_args &a, int64_t r0)
{
    constexpr int VEC = 16 / sizeof(T);
    hsm_flat_span<T> s;
    s.nr = a.rows - r0 < a.flat_rows ? (int)(a.rows - r0) : a.flat_rows;
    s.n = s.nr * (int)a.cols;
    s.xs = (const T *)a.x + r0 * a.cols;
    s.lead = hsm_pack_lead(s.xs);
    s.packs = (s.lead + s.n + VEC - 1) / VEC;
    return s;
}

/* A pack that straddles an end of a span, an element at a time: d[k] = s[k] for the pack's elements
 * e0 + k inside the span [0, n), the others neither read nor written. */
template <typename T>
__device__ __forceinline__ void hsm_flat_part(T *d, const T *s, int e0, int n)
{
#pragma unroll
    for (int k = 0; k < (int)(16 / sizeof(T)); k++)
        if (e0 + k >= 0 && e0 + k < n)
            d[k] = s[k];
}
/* Whether pack p of span s straddles one of its ends; its owner is thread p % HSM_WARP_BLOCK. Only the
 * first and the last pack can. */
template <typename T>
__device__ __forceinline__ bool hsm_flat_partial(const hsm_flat_span<T> &s, int p)
{
    constexpr int VEC = 16 / sizeof(T);
    return (p == 0 && (s.lead > 0 || s.n < VEC)) || (p > 0 && p == s.packs - 1 && (s.lead + s.n) % VEC != 0);
}

/* Starts copying span s into buf: whole packs by hsm_copy16_async, the straddling ones into e[0]
 * (the first pack, thread 0) and e[1] (the last, its owner), loads left in flight until
 * hsm_flat_edges stores them. */
template <typename T>
__device__ __forceinline__ void hsm_flat_issue(const hsm_flat_span<T> &s, uint4 *buf, uint4 *e)
{
    constexpr int VEC = 16 / sizeof(T);
#pragma unroll
    for (int i = 0; i < HSM_WARP_FLAT_ROUNDS; i++) {
        const int p = threadIdx.x + i * HSM_WARP_BLOCK;
        const int e0 = p * VEC - s.lead;
        if (e0 >= 0 && e0 + VEC <= s.n)
            hsm_copy16_async(buf + p, s.xs + e0); /* s.xs + e0 lies on 16 bytes */
    }
    const int last = s.packs - 1;
    if (threadIdx.x == 0 && hsm_flat_partial(s, 0))
        hsm_flat_part((T *)&e[0], s.xs - s.lead, -s.lead, s.n);
    if ((int)threadIdx.x == last % HSM_WARP_BLOCK && hsm_flat_partial(s, last))
        hsm_flat_part((T *)&e[1], s.xs + last * VEC - s.lead, last * VEC - s.lead, s.n);
}
template <typename T>
__device__ __forceinline__ void hsm_flat_edges(const hsm_flat_span<T> &s, uint4 *buf, const uint4 *e)
{
    constexpr int VEC = 16 / sizeof(T);
    const int last = s.packs - 1;
    if (threadIdx.x == 0 && hsm_flat_partial(s, 0))
        hsm_flat_part((T *)buf, (const T *)&e[0], -s.lead, s.n);
    if ((int)threadIdx.x == last % HSM_WARP_BLOCK && hsm_flat_partial(s, last))
        hsm_flat_part((T *)(buf + last), (const T *)&e[1], last * VEC - s.lead, s.n);
}

/* Copies src's elements from + e for e in [0, n) to dst's elements e (lead: dst's offset from 16
 * bytes); where from == lead, each pack is one 16-byte read of shared memory. */
template <typename T>
__device__ __forceinline__ void hsm_flat_out(T *dst, int lead, int n, const uint4 *src, int from)
{
    constexpr int VEC = 16 / sizeof(T);
    const T *s = (const T *)src + from;
#pragma unroll
    for (int i = 0; i < HSM_WARP_FLAT_ROUNDS; i++) {
        const int p = threadIdx.x + i * HSM_WARP_BLOCK;
        const int e0 = p * VEC - lead;
        if (e0 >= 0 && e0 + VEC <= n) {
            uint4 w;
            if (from == lead) {
                w = src[p];
            } else {
                T *t = (T *)&w;
#pragma unroll
                for (int k = 0; k < VEC; k++)
                    t[k] = s[e0 + k];
            }
            *(uint4 *)(dst + e0) = w;
        } else if (e0 + VEC > 0 && e0 < n) {
            hsm_flat_part(dst + e0, s + e0, e0, n);
        }
    }
}

/* A staged row's output from what hsm_flat_row holds of each element and the row's sum: softmax,
 * exp(v - m) / sum; LOG, (v - m) - log(sum). */
template <bool LOG> struct hsm_flat_out_of {
    float k;
    __device__ __forceinline__ explicit hsm_flat_out_of(float sum) : k(LOG ? logf(sum) : 1.0f / sum) {}
    __device__ __forceinline__ float operator()(float held) const { return LOG ? held - k : held * k; }
};

/* One row of the span, in place: its softmax from shared memory (row: its first element; live: its
 * columns, or 0 for a group past the span's last row, which reads and writes nothing; cols: the
 * columns of every row, the same for all lanes of the warp). LOG: its log-softmax, (v - m) -
 * log(sum), v - m kept from the sum's exponents, as hsm_warp_rows'.
 * The row's elements a pair at a time, from the 32-bit words that hold them, word lane + k W from
 * the one that holds the row's first element (off: 1 where that is the word's upper half). A word
 * wholly in the row is one shared-memory access and one conversion back. An element alone in a word
 * it shares with the next or the previous row (the row's first at an odd offset, its last where the
 * row ends in a lower half) is read and written on its own, 16 bits, by the lane of that word: no
 * group touches another row's bytes (compute-sanitizer's racecheck counts a read of them as a race
 * even where its value goes unused). A lane holds C / 2 words: rows of up to C W - 1 columns (the
 * plan leaves the room). */
template <typename T, int C, int W, bool LOG>
__device__ __forceinline__ void hsm_flat_row(T *row, int live, int cols, int lane)
{
    static_assert(sizeof(T) == 2, "the staged kernels are 16-bit (plan.c's scalar_rows)");
    const int off = (int)((uintptr_t)row / sizeof(T)) & 1;
    uint32_t *words = (uint32_t *)(row - off) + lane;
    const int first = 2 * lane - off; /* the row's element in the low half of the lane's word 0 */
    const bool lone_first = live > 0 && off == 1 && lane == 0;
    const bool lone_last = live > 0 && ((off + live) & 1) != 0 && lane == (live - 1 + off) / 2 % W;
    float vf = lone_first ? hsm_to_float(row[0]) : HSM_NEG_INF;
    float vl = lone_last ? hsm_to_float(row[live - 1]) : HSM_NEG_INF;
    float v[C];
    /* The words as stored, -inf pairs outside the row; their max as pairs (hsm_words_max: one
     * instruction a word where the vendor has it, before the conversions the exponentials need). */
    uint32_t wv[C / 2];
#pragma unroll
    for (int k = 0; k < C / 2; k++) {
        const int e = first + 2 * k * W;
        wv[k] = 2 * k * W <= cols && e >= 0 && e + 1 < live ? words[k * W] : hsm_neg_inf_word<T>();
    }
    const float m = hsm_warp_max(hsm_max(hsm_max(vf, vl), hsm_words_max<T, C / 2>(wv)), W);
#pragma unroll
    for (int k = 0; k < C / 2; k++) {
        v[2 * k] = hsm_lo_to_float(wv[k], T{});
        v[2 * k + 1] = hsm_hi_to_float(wv[k], T{});
    }
    float sum;
    if constexpr (LOG) {
        vf -= m;
        vl -= m;
        sum = hsm_exp2(vf * HSM_LOG2E) + hsm_exp2(vl * HSM_LOG2E);
#pragma unroll
        for (int k = 0; k < C; k++)
            if ((k & ~1) * W <= cols) {
                v[k] -= m;
                sum += hsm_exp2(v[k] * HSM_LOG2E);
            }
    } else {
        vf = hsm_exp(vf, m);
        vl = hsm_exp(vl, m);
        sum = vf + vl;
#pragma unroll
        for (int k = 0; k < C / 2; k++)
            if (2 * k * W <= cols) {
                v[2 * k] = hsm_exp(v[2 * k], m);
                v[2 * k + 1] = hsm_exp(v[2 * k + 1], m);
                sum += v[2 * k] + v[2 * k + 1];
            }
    }
    const hsm_flat_out_of<LOG> out(hsm_warp_sum(sum, W));
#pragma unroll
    for (int k = 0; k < C / 2; k++) {
        const int e = first + 2 * k * W;
        if (2 * k * W <= cols && e >= 0 && e + 1 < live)
            words[k * W] = hsm_pair_from_float(out(v[2 * k]), out(v[2 * k + 1]), T{});
    }
    if (lone_first)
        row[0] = hsm_from_float<T>(out(vf));
    if (lone_last)
        row[live - 1] = hsm_from_float<T>(out(vl));
}

/* W lanes a row, C elements a lane, both compile-time: every shared-memory access of a round is the
 * row's address plus an immediate, the shuffles unroll, and the accesses past the row (k W >= cols,
 * the same for every lane of the warp) are skipped by a branch all lanes take alike. With W a launch
 * value, Nsight Compute counted 88 instructions a row of fp16 65536 x 77 (8 lanes of 16): the
 * addresses and the reductions' loops cost as much as the elements. */
template <typename T, int C, int W, bool LOG>
__device__ __forceinline__ void hsm_warp_flat_body(const hsm_args a)
{
    __shared__ uint4 bufs[2][HSM_WARP_FLAT_PACKS];
    constexpr int groups = HSM_WARP_BLOCK / W;
    const int lane = threadIdx.x % W, group = threadIdx.x / W;
    const int cols = (int)a.cols;
    const int64_t step = (int64_t)gridDim.x * a.flat_rows; /* flat_rows: a multiple of groups */
    int64_t r0 = (int64_t)blockIdx.x * a.flat_rows;
    uint4 e[2]; /* the straddling packs of the span copied in next */
    if (r0 < a.rows)
        hsm_flat_issue(hsm_flat_span_of<T>(a, r0), bufs[0], e);
    hsm_copy_async_commit();
    for (int b = 0; r0 < a.rows; r0 += step, b ^= 1) {
        const hsm_flat_span<T> s = hsm_flat_span_of<T>(a, r0);
        hsm_flat_edges(s, bufs[b], e);
        if (r0 + step < a.rows)
            hsm_flat_issue(hsm_flat_span_of<T>(a, r0 + step), bufs[b ^ 1], e);
        hsm_copy_async_commit();
        hsm_copy_async_wait_pending(1); /* this span's copies: all but the group just committed */
        __syncthreads();
        /* Every group of a warp runs as many rounds (nr rounded up to the groups), so each shuffle has
         * all its lanes; a group past the span's last row reads and writes nothing. */
        const int rounds_end = (s.nr + groups - 1) / groups * groups;
        for (int rr = group; rr < rounds_end; rr += groups)
            hsm_flat_row<T, C, W, LOG>((T *)bufs[b] + s.lead + (rr < s.nr ? rr : 0) * cols, rr < s.nr ? cols : 0, cols,
                                  lane);
        __syncthreads();
        T *ys = (T *)a.y + r0 * a.cols;
        hsm_flat_out<T>(ys, hsm_pack_lead(ys), s.n, bufs[b], s.lead);
        __syncthreads(); /* the next round's copies go into this buffer */
    }
}

template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_warp_fwd_body(const hsm_args a)
{
    const int W = a.group_width;
    const hsm_warp_walk w = hsm_warp_walk_of(W);
    const int lane = w.lane;
    const T *x = (const T *)a.x;
    float v[C];
    for (int64_t base = w.first; base < a.rows; base += w.step) {
        const int64_t row = base + w.offset;
        const bool live = row < a.rows;
        const int64_t r0 = live ? row : 0;
        hsm_row_ctx rc = hsm_fwd_row(a, r0);
        if (!live)
            rc.lim = 0;
        const float mraw = hsm_warp_max(hsm_fwd_chunk_load<T, VEC, C>(a, rc, x + r0 * a.x_stride, 0, lane, W, v), W);
        const bool given = a.op.stats_in != NULL; /* as in hsm_row_fwd_body */
        hsm_epi e = given ? hsm_epi_given(a, r0) : hsm_epi_begin(a, mraw);
        const float ts = a.op.causal ? hsm_fwd_sum_causal<VEC, C>(a, v, e, 0, rc.lim, lane, W, 0) : hsm_fwd_sum<C>(a, v, e);
        const float s = hsm_warp_sum(ts, W);
        if (!given)
            hsm_epi_end(a, e, mraw, s, row, live && lane == 0);
        if (live && !a.op.no_out)
            hsm_fwd_chunk_store<VEC, C>(a, hsm_out_row(a, row), 0, lane, W, v, e);
    }
}

/* The forward with options on 16-bit rows with no mask tensor, one row a warp, held as stored: C
 * values a lane in packs of 8 (four words), pack p of lane l at column (p W + l) 8, so that each pack
 * index covers 8 W columns the warp reads as one. Written for causal attention rows of 1K-2K columns,
 * where ROW's forward took one-warp blocks of 32 fp32 values a lane: 62 registers and 32 blocks a
 * SM, both capping the rows in flight at 32, and a block reduction's barrier and shared-memory round
 * trip twice a row (bench/results/h200-2026-11-26-rows-causal.md). Here the reductions are shuffles
 * alone, a block holds several rows, and a pack index past the row's causal bound (the same for
 * every lane: W is the warp) is neither read nor exponentiated, only written as zeros. Each value
 * is converted, and its exponential computed, again for the output (hsm_words_store), as in ROW's
 * packed kernels. */
template <typename T, int C>
__device__ __forceinline__ void hsm_warp_packed_fwd_body(const hsm_args a)
{
    constexpr int NP = C / 8, W = HSM_WARP_SIZE;
    const int lane = threadIdx.x % W;
    const int64_t f0 = (int64_t)lane * 8, step = (int64_t)W * 8;
    const int64_t warps = blockDim.x / W;
    uint32_t w[4 * NP];
    for (int64_t row = (int64_t)blockIdx.x * warps + threadIdx.x / W; row < a.rows; row += gridDim.x * warps) {
        const T *xr = (const T *)a.x + row * a.x_stride + f0;
        const int64_t lim = hsm_fwd_row(a, row).lim, left = lim - f0;
#pragma unroll
        for (int p = 0; p < NP; p++)
            hsm_words_load<T>(w + 4 * p, xr + p * step, p * step < left);
        /* After every load has been issued (hsm_fwd_chunk_load_m says why); only a causal bound
         * falls inside a pack (cols is a multiple of 8 on this path). */
        if (lim % 8 != 0) {
#pragma unroll
            for (int p = 0; p < NP; p++)
                hsm_words_cut<T>(w + 4 * p, f0 + p * step, lim);
        }
        const float mraw = hsm_warp_max(hsm_words_max<T, 4 * NP>(w), W);
        const bool given = a.op.stats_in != NULL;
        hsm_epi e;
        if (given) {
            float M, S;
            hsm_given_warp(a, row, M, S);
            e = hsm_epi_given(a, M, S);
        } else {
            e = hsm_epi_begin(a, mraw);
        }
        float s = 0.0f;
        hsm_expo_branch(e.m, e.k, [&](auto ex) {
#pragma unroll
            for (int p = 0; p < NP; p++) {
                if (p * step >= lim) /* every lane's pack p is past the bound: exp(-inf) = 0 */
                    break;
                hsm_words_exp_add<T>(s, w + 4 * p, ex);
            }
        });
        s = hsm_warp_sum(s, W);
        if (!given)
            hsm_epi_end(a, e, mraw, s, row, lane == 0);
        if (a.op.no_out)
            continue;
#pragma unroll
        for (int i = 0; i < 4 * NP; i++)
            w[i] = hsm_opaque(w[i]);
        void *yrow = hsm_out_row(a, row);
        if (a.op.log)
            hsm_words_store<T, NP, HSM_FROM_U_LOG>(a, yrow, f0, w, f0, a.cols, a.cols - f0, step, lim, e);
        else
            hsm_words_store<T, NP, HSM_FROM_U_SOFTMAX>(a, yrow, f0, w, f0, a.cols, a.cols - f0, step, lim, e);
    }
}

template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_warp_bwd_body(const hsm_args a)
{
    const int W = a.group_width;
    const hsm_warp_walk w = hsm_warp_walk_of(W);
    const int lane = w.lane;
    const T *y = (const T *)a.x;
    float yv[C], dv[C];
    for (int64_t base = w.first; base < a.rows; base += w.step) {
        const int64_t row = base + w.offset;
        const bool live = row < a.rows;
        const int64_t r0 = live ? row : 0;
        const float ls = hsm_bwd_chunk_load<T, VEC, C>(a, y + r0 * a.x_stride, hsm_in2_row(a, r0), 0,
                                                       live ? a.cols : 0, lane, W, yv, dv);
        const float s = a.op.stats_in != NULL ? hsm_bwd_given(a, r0) : hsm_warp_sum(ls, W);
        if (live && a.op.no_out && lane == 0)
            hsm_bwd_stats(a, s, row);
        if (live && !a.op.no_out)
            hsm_bwd_chunk_store<VEC, C>(a, hsm_out_row(a, row), 0, a.cols, lane, W, yv, dv, s);
    }
}

/* The plain backward (dy and dx in y's dtype; no alpha/beta, no statistics; scale and log-softmax at
 * run time) on rows on 16 bytes of whole packs, one row a warp, y and dy held as stored: C values a
 * lane in packs of 16 bytes, pack p of lane l at column (p W + l) E, as in the packed forward. Its
 * loads, sum and stores are softmax_ops.h's hsm_packed_bwd_* (ROW's packed backward shares them).
 * hsm_warp_bwd_body and ROW's backward serve every option: per row they work out a row's lead and
 * its edge element, 64-bit columns, dy's and dx's dtype, the blend; at 4096 x 1024 ROW's kernel
 * issued 3.2x the instructions torch.compile's one-warp kernel did for the same bytes (Nsight
 * Compute, H200: 3.18M against 1.00M, issue slots 73% busy against 26%) and ran 5-7% slower, with a
 * block's reduction through shared memory and a barrier where a warp's needs neither.
 * Here a row's loads are issued first, its sum is shuffles alone, and a block holds several rows. y
 * and dy are read with L2 priority evict_last, as in ROW's backward (hsm_load16_l2_last): with plain
 * loads 4096 rows of 264-512 columns ran 0.82-0.84x as fast, the rest 0.96-1.02x
 * (bench/results/h200-2026-11-30-warp-packed-bwd.md).
 * One row a warp and no loop over rows (the plan gives a block to every four rows, and does not
 * take these kernels past HSM_WARP_MAX_GRID blocks), the scale multiplied only where it is not 1,
 * the words left to the compiler after the sum (it keeps their floats where it has the registers:
 * bf16 C = 32 70 registers, sm_90; 68 since the code is shared, 62 with plain stores): against the
 * kernel that looped over rows, hid its words from the optimizer and multiplied by a scale of 1,
 * 1.01-1.09x on 4096 rows of 264-1024 columns (bf16 4096 x 1024 7.46 -> 7.26 us), 1.03-1.06x on
 * 256-1024 rows, 0.993-1.008x on 16384-131072 rows (H200, kernel time, same run, one buffer set,
 * whose evict_last lines outlast the timer's flush: with four sets in turn bf16 4096 x 1024 takes
 * 8.00 us against 7.23; bench/results/h200-2026-11-30-packed-bwd-lean.md). Held to 64 registers (8
 * blocks a SM) the bf16 C = 32 kernel spilled 4 bytes and ran no faster (log-softmax 0.97x); fp32's
 * spilled 224 bytes and ran 0.64x as fast. dx is written with plain stores
 * (hsm_packed_bwd_store_t): tried first here with one buffer set, bf16 and fp16 4096 x 1024 ran
 * 0.983-0.996x (fp32 1.003-1.012x); with buffer sets in turn and the code shared with ROW, bf16
 * 4096 x 1024 1.025x, fp32 1.001x (bench/results/h200-2026-11-30-packed-bwd-stores.md). */
template <typename T, int C>
__device__ __forceinline__ void hsm_warp_packed_bwd_body(const hsm_args a)
{
    constexpr int E = 16 / (int)sizeof(T), NP = C / E, W = HSM_WARP_SIZE;
    const int lane = threadIdx.x % W, cols = (int)a.cols; /* cols <= W C: the plan's */
    const int64_t row = (int64_t)blockIdx.x * (blockDim.x / W) + threadIdx.x / W;
    if (row >= a.rows)
        return;
    const T *yr = (const T *)a.x + row * a.x_stride, *dr = (const T *)a.x2 + row * a.x2_stride;
    uint32_t wy[4 * NP], wd[4 * NP];
    hsm_packed_bwd_load<T, NP>(yr, dr, cols, lane, W, wy, wd);
    const float s = hsm_warp_sum(hsm_packed_bwd_share<T, NP>(a, wy, wd), W);
    hsm_packed_bwd_store<T, NP>(a, (T *)a.y + row * a.y_stride, cols, lane, W, wy, wd, s);
}

/* BOUNDS: a kernel's launch bounds, HSM_WARP_BOUNDS for all but fp32's small plain and log kernels. */
#define HSM_WARP_BOUNDS __launch_bounds__(HSM_WARP_BLOCK)
#define HSM_WARP_KERNEL_B(NAME, T, VEC, C, BODY, BOUNDS)                                              \
    extern "C" __global__ void BOUNDS NAME(hsm_args a)                                                \
    {                                                                                                 \
        BODY<T, VEC, C>(a);                                                                           \
    }
#define HSM_WARP_KERNEL(NAME, T, VEC, C, BODY) HSM_WARP_KERNEL_B(NAME, T, VEC, C, BODY, HSM_WARP_BOUNDS)
/* The plain forward's and log-softmax's kernels of up to 16 values a lane held to 32 registers, so
 * that 16 blocks of 128 threads fit a SM (NVIDIA; CDNA keeps the block bound): fp32's _v1, _v2, _v4,
 * _s1 to _s8 (BS, B12, B4); 16-bit's _v1, _v2 (B12), _h1 to _h4, _q2 to _q8. Not 16-bit's _v4 (B4),
 * _h8, _q16, 32 values a lane, left at 47-64 (held to 40 they spilled 48-176 bytes), nor its scalar
 * ones (BS): _s8, 34, held to 32 ran fp16 65536 x 77 rows 78 apart 1.07x, 120 rows 121 apart 0.90x
 * (H200, same run; bench/results/h200-2026-12-01-short16-lanes.md). fp32: the
 * compiler gave _v2 33: 12 blocks a SM, so 16384 x 128 (2048 blocks of 8 rows) ran in two waves
 * where cuDNN's kernel of the same layout, 32 registers, ran in one (H200, Nsight Compute: 6.14 us
 * against 5.89-6.18, 50% of the warps active against 62%). Capped: 5.89 us against 6.27 (kernel time,
 * same command; bench/results/h200-2026-11-29-warp-f32-regs.md), no spills. _v4 fits since
 * hsm_warp_rows has no loop over rows (43 registers before). 16-bit: fp16's _v2 took 40, _h4 39-40,
 * _q8 39 (twelve blocks); capped, no spills, each forced against the library before (H200, kernel
 * time, same run; bench/results/h200-2026-12-01-short16-lanes.md): fp16 65536 x 80 on _v2 8.10 ->
 * 7.51 us, 262144 x 320 90.62 -> 83.54, 8192 x 320 4.86 -> 4.35; 65536 x 302 on _q8 24.22 -> 22.70,
 * bf16 65536 x 258 23.45 -> 22.06; fp16 16384 x 180 on _h4 5.42 -> 4.93; and two packs a lane now
 * run ahead of four on tensors of up to 32 MB (plan.c's fewer_lanes). */
#define HSM_WARP_SMALL_BOUNDS HSM_KERNEL_REG_CAP(HSM_WARP_BLOCK, 32)

/* The launch of hsm_warp_rows' kernels, which serve one row a group and do not loop: grid x groups
 * rows a launch (groups: block / group_width), launched again, x and y moved on, for the rows past
 * them (the plan bounds the grid: HSM_WARP_ONCE_MAX_GRID in plan.c). The plain forward and
 * log-softmax read x and write y and nothing else, so a launch on later rows is the same call on
 * tensors that start there. */
static int hsm_launch_warp_rows(const hsm_kernel *k, const hsm_launch *a)
{
    const int64_t groups = a->block / a->group_width, per = (int64_t)a->grid * groups;
    if (per >= a->rows)
        return hsm_launch_plain(k, a);
    const int64_t es = (int64_t)hsm_dtype_bytes(k->dtype); /* the plain forward's x and y: k's dtype */
    hsm_launch c = *a;
    for (int64_t r0 = 0; r0 < a->rows; r0 += per) {
        c.x = (const char *)a->x + r0 * a->x_stride * es;
        c.y = (char *)a->y + r0 * a->y_stride * es;
        c.rows = a->rows - r0 < per ? a->rows - r0 : per;
        c.grid = (int)((c.rows + groups - 1) / groups);
        const int st = hsm_launch_plain(k, &c);
        if (st != 0)
            return st;
    }
    return 0;
}

/* An entry; the plain forward's and log-softmax's kernels but the peeled ones (hsm_warp_rows) launch
 * by hsm_launch_warp_rows. */
#define HSM_WARP_ONCE(KOP, PEEL) (((KOP) == HSM_KOP_PLAIN || (KOP) == HSM_KOP_LOG) && !(PEEL))
#define HSM_WARP_ENTRY_P(NAME, KOP, DT, VEC, C, PEEL)                                                 \
    {#NAME, (const void *)NAME, HSM_FAMILY_WARP, KOP, DT, VEC, C, HSM_WARP_BLOCK,                     \
     HSM_WARP_ONCE(KOP, PEEL) ? hsm_launch_warp_rows : hsm_launch_plain, PEEL, 0, 0, 0}
#define HSM_WARP_ENTRY(NAME, KOP, DT, VEC, C) HSM_WARP_ENTRY_P(NAME, KOP, DT, VEC, C, 0)

/* The vector kernels of one body, _v1 to _v8 (1 to 8 accesses of 16 bytes a lane), suffix KS: each
 * set's vector half, and the _log and _peel sets, which have no scalar half. */
#define HSM_WARP_VEC_SET_B(SFX, KS, T, VEC, BODY, B12, B4)                                            \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_v1##KS, T, VEC, VEC, BODY, B12)                                \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_v2##KS, T, VEC, 2 * VEC, BODY, B12)                            \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_v4##KS, T, VEC, 4 * VEC, BODY, B4)                             \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_v8##KS, T, VEC, 8 * VEC, BODY)
#define HSM_WARP_VEC_SET(SFX, KS, T, VEC, BODY)                                                       \
    HSM_WARP_VEC_SET_B(SFX, KS, T, VEC, BODY, HSM_WARP_BOUNDS, HSM_WARP_BOUNDS)
#define HSM_WARP_VEC_ENTRIES(SFX, KS, KOP, DT, VEC, PEEL)                                             \
    HSM_WARP_ENTRY_P(hsm_warp_##SFX##_v1##KS, KOP, DT, VEC, VEC, PEEL),                               \
        HSM_WARP_ENTRY_P(hsm_warp_##SFX##_v2##KS, KOP, DT, VEC, 2 * VEC, PEEL),                       \
        HSM_WARP_ENTRY_P(hsm_warp_##SFX##_v4##KS, KOP, DT, VEC, 4 * VEC, PEEL),                       \
        HSM_WARP_ENTRY_P(hsm_warp_##SFX##_v8##KS, KOP, DT, VEC, 8 * VEC, PEEL)

/* The scalar kernels of one body, _s1 to _s32 (elements a lane), suffix KS. */
#define HSM_WARP_SCALAR_SET(SFX, KS, T, BODY, B8)                                                     \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_s1##KS, T, 1, 1, BODY, B8)                                     \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_s2##KS, T, 1, 2, BODY, B8)                                     \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_s4##KS, T, 1, 4, BODY, B8)                                     \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_s8##KS, T, 1, 8, BODY, B8)                                     \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s16##KS, T, 1, 16, BODY)                                         \
    HSM_WARP_KERNEL(hsm_warp_##SFX##_s32##KS, T, 1, 32, BODY)
#define HSM_WARP_SCALAR_ENTRIES(SFX, KS, KOP, DT)                                                     \
    HSM_WARP_ENTRY(hsm_warp_##SFX##_s1##KS, KOP, DT, 1, 1), HSM_WARP_ENTRY(hsm_warp_##SFX##_s2##KS, KOP, DT, 1, 2), \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s4##KS, KOP, DT, 1, 4),                                       \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s8##KS, KOP, DT, 1, 8),                                       \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s16##KS, KOP, DT, 1, 16),                                     \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_s32##KS, KOP, DT, 1, 32)

/* Elements per lane: the vector paths hold 1 to 8 accesses of 16 bytes, the scalar paths 1 to 32
 * elements; 32 fp32 values per lane is where register use starts to cost occupancy. One set per body:
 * plain (no suffix), forward with options (_fwd), backward (_bwd). */
#define HSM_WARP_SET(SFX, KS, T, VEC, BODY, BS, B12, B4)                                              \
    HSM_WARP_SCALAR_SET(SFX, KS, T, BODY, BS)                                                         \
    HSM_WARP_VEC_SET_B(SFX, KS, T, VEC, BODY, B12, B4)
#define HSM_WARP_SET_ENTRIES(SFX, KS, KOP, DT, VEC)                                                   \
    HSM_WARP_SCALAR_ENTRIES(SFX, KS, KOP, DT), HSM_WARP_VEC_ENTRIES(SFX, KS, KOP, DT, VEC, 0)
#define HSM_WARP_ALL(SFX, T, VEC, BS, B12, B4)                                                        \
    HSM_WARP_SET(SFX, , T, VEC, hsm_warp_body, BS, B12, B4)                                           \
    HSM_WARP_SET(SFX, _fwd, T, VEC, hsm_warp_fwd_body, HSM_WARP_BOUNDS, HSM_WARP_BOUNDS, HSM_WARP_BOUNDS) \
    HSM_WARP_SET(SFX, _bwd, T, VEC, hsm_warp_bwd_body, HSM_WARP_BOUNDS, HSM_WARP_BOUNDS, HSM_WARP_BOUNDS)
#define HSM_WARP_ALL_ENTRIES(SFX, DT, VEC)                                                            \
    HSM_WARP_SET_ENTRIES(SFX, , HSM_KOP_PLAIN, DT, VEC), HSM_WARP_SET_ENTRIES(SFX, _fwd, HSM_KOP_FWD, DT, VEC), \
        HSM_WARP_SET_ENTRIES(SFX, _bwd, HSM_KOP_BWD, DT, VEC)

/* The plain log-softmax (kop HSM_KOP_LOG, hsm_warp_body's LOG), _log: the plain forward's scalar and
 * vector kernels with log-softmax for their output, for the rows the forward with options would give
 * WARP (as ROW's _log kernels, plan.c's hsm_plan_get): the scalar ones rows off 16 bytes. */
#define HSM_WARP_LOG_SET(SFX, T, VEC, BS, B12, B4) HSM_WARP_SET(SFX, _log, T, VEC, hsm_warp_log_body, BS, B12, B4)
#define HSM_WARP_LOG_ENTRIES(SFX, DT, VEC) HSM_WARP_SET_ENTRIES(SFX, _log, HSM_KOP_LOG, DT, VEC)

/* The plain forward's vector kernels peeled (hsm_warp_peel_body), _peel: 1 to 8 accesses a lane. */
#define HSM_WARP_PEEL_SET(SFX, T, VEC) HSM_WARP_VEC_SET(SFX, _peel, T, VEC, hsm_warp_peel_body)
#define HSM_WARP_PEEL_ENTRIES(SFX, DT, VEC) HSM_WARP_VEC_ENTRIES(SFX, _peel, HSM_KOP_PLAIN, DT, VEC, 1)

/* The plain forward's and log-softmax's 16-bit rows on 8 bytes, not 16 (dense: cols a multiple of 4
 * and not of 8, every other row 8 bytes off 16: 300, 420, ...), _h<N> and
 * _h<N>_log: hsm_warp_rows with packs of 8 bytes, N a lane (C = 4 N). Every pack lies wholly in the
 * row or past it, so nothing is peeled. Those rows otherwise take the staged or the scalar kernels
 * (or, padded, the peeled ones), which ran fp16 65536 x 300 at 33.9-37.7 us where aligned 65536 x 288
 * ran 22.9 on _v4 and torch.compile's kernel took 27.8; _h8 runs it in 25.4 (H200,
 * bench/results/h200-2026-11-30-half.md). 8-byte stores are plain ones (hsm_store: only 16-byte packs
 * stream). The rows on 4 bytes, not 8 (cols even, not a multiple of 4: 302, 258, ...) likewise with
 * packs of 4 bytes, _q<N> and _q<N>_log (C = 2 N): fp16 65536 x 302 27.3 us on _q8 against 33.8 on
 * the staged kernel (bench/results/h200-2026-11-30-quad.md). */
#define HSM_WARP_SUB_SET(SFX, KS, T, BODY, L, VEC, N1, N2, N3, N4)                                   \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_##L##N1##KS, T, VEC, N1 * VEC, BODY, HSM_WARP_SMALL_BOUNDS)   \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_##L##N2##KS, T, VEC, N2 * VEC, BODY, HSM_WARP_SMALL_BOUNDS)   \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_##L##N3##KS, T, VEC, N3 * VEC, BODY, HSM_WARP_SMALL_BOUNDS)   \
    HSM_WARP_KERNEL_B(hsm_warp_##SFX##_##L##N4##KS, T, VEC, N4 * VEC, BODY, HSM_WARP_BOUNDS)
#define HSM_WARP_SUB_ENTRIES(SFX, KS, KOP, DT, L, VEC, N1, N2, N3, N4)                                \
    HSM_WARP_ENTRY(hsm_warp_##SFX##_##L##N1##KS, KOP, DT, VEC, N1 * VEC),                            \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_##L##N2##KS, KOP, DT, VEC, N2 * VEC),                        \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_##L##N3##KS, KOP, DT, VEC, N3 * VEC),                        \
        HSM_WARP_ENTRY(hsm_warp_##SFX##_##L##N4##KS, KOP, DT, VEC, N4 * VEC)
/* Both hold 4 to 32 values a lane: _h1-_h8, _q2-_q16. */
#define HSM_WARP_HALF_SET(SFX, KS, T, BODY) HSM_WARP_SUB_SET(SFX, KS, T, BODY, h, 4, 1, 2, 4, 8)
#define HSM_WARP_QUAD_SET(SFX, KS, T, BODY) HSM_WARP_SUB_SET(SFX, KS, T, BODY, q, 2, 2, 4, 8, 16)
#define HSM_WARP_HALF_ENTRIES(SFX, KS, KOP, DT) HSM_WARP_SUB_ENTRIES(SFX, KS, KOP, DT, h, 4, 1, 2, 4, 8)
#define HSM_WARP_QUAD_ENTRIES(SFX, KS, KOP, DT) HSM_WARP_SUB_ENTRIES(SFX, KS, KOP, DT, q, 2, 2, 4, 8, 16)

/* The staged plain forward (hsm_warp_flat_body), _flat_w<W>, 16-bit: W lanes a row (1 to 32) of 16
 * elements each, rows of up to 16 W - 1 columns (HSM_WARP_MAX_COLS - 1 on 32). Its vec is 16
 * bytes' worth: its accesses are; its `flat` is W. The reduction from shared memory is what bounds
 * them (Nsight Compute, H200, fp16 262144 x 77, W a launch value: issue slots 80% busy, DRAM 22%),
 * so fewer lanes a row do better: with 16 lanes of 8 and 32 of 4 that row ran 1.2x and 1.7x as long
 * as with 8 lanes of 16, and 1 or 2 elements a lane were slower wherever they served; the plan
 * takes the fewest lanes that hold the row. At most HSM_WARP_FLAT_REGS registers on NVIDIA: without
 * the cap, with W a launch value, 16 elements took 96, five blocks a SM; with the cap at 40 (twelve
 * blocks, small spills) they were no faster (H200, same run: 0.84-1.08x, 0.91-0.96x on fp16 and
 * bf16 262144 x 77). */
#define HSM_WARP_FLAT_KERNEL(NAME, T, W, LOG)                                                         \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_WARP_BLOCK, HSM_WARP_FLAT_REGS) NAME(hsm_args a)  \
    {                                                                                                 \
        hsm_warp_flat_body<T, 16, W, LOG>(a);                                                         \
    }
/* KS: no suffix, the plain forward (LOG false); _log, the plain log-softmax (kop HSM_KOP_LOG), which
 * the plan gives the rows it gives the staged softmax (hsm_plan_get). */
#define HSM_WARP_FLAT_SET(SFX, KS, T, LOG)                                                            \
    HSM_WARP_FLAT_KERNEL(hsm_warp_##SFX##_flat_w1##KS, T, 1, LOG)                                     \
    HSM_WARP_FLAT_KERNEL(hsm_warp_##SFX##_flat_w2##KS, T, 2, LOG)                                     \
    HSM_WARP_FLAT_KERNEL(hsm_warp_##SFX##_flat_w4##KS, T, 4, LOG)                                     \
    HSM_WARP_FLAT_KERNEL(hsm_warp_##SFX##_flat_w8##KS, T, 8, LOG)                                     \
    HSM_WARP_FLAT_KERNEL(hsm_warp_##SFX##_flat_w16##KS, T, 16, LOG)                                   \
    HSM_WARP_FLAT_KERNEL(hsm_warp_##SFX##_flat_w32##KS, T, 32, LOG)
#define HSM_WARP_FLAT_ENTRY(NAME, KOP, DT, VEC, W)                                                    \
    {#NAME, (const void *)NAME, HSM_FAMILY_WARP, KOP, DT, VEC, 16, HSM_WARP_BLOCK, hsm_launch_plain, 0, W, 0, 0}
#define HSM_WARP_FLAT_ENTRIES(SFX, KS, KOP, DT, VEC)                                                  \
    HSM_WARP_FLAT_ENTRY(hsm_warp_##SFX##_flat_w1##KS, KOP, DT, VEC, 1),                               \
        HSM_WARP_FLAT_ENTRY(hsm_warp_##SFX##_flat_w2##KS, KOP, DT, VEC, 2),                           \
        HSM_WARP_FLAT_ENTRY(hsm_warp_##SFX##_flat_w4##KS, KOP, DT, VEC, 4),                           \
        HSM_WARP_FLAT_ENTRY(hsm_warp_##SFX##_flat_w8##KS, KOP, DT, VEC, 8),                           \
        HSM_WARP_FLAT_ENTRY(hsm_warp_##SFX##_flat_w16##KS, KOP, DT, VEC, 16),                         \
        HSM_WARP_FLAT_ENTRY(hsm_warp_##SFX##_flat_w32##KS, KOP, DT, VEC, 32)

/* The packed forward with options (hsm_warp_packed_fwd_body), _p<C>_fwd: 32 and 64 values a lane,
 * rows of 16-32 and 32-64 values a lane of the warp (NVIDIA: 513-1024 and 1025-2048 columns). */
#define HSM_WARP_PACKED_KERNEL(NAME, T, C)                                                            \
    extern "C" __global__ void __launch_bounds__(HSM_WARP_BLOCK) NAME(hsm_args a)                    \
    {                                                                                                 \
        hsm_warp_packed_fwd_body<T, C>(a);                                                            \
    }
#define HSM_WARP_PACKED_SET(SFX, T)                                                                   \
    HSM_WARP_PACKED_KERNEL(hsm_warp_##SFX##_p32_fwd, T, 32)                                          \
    HSM_WARP_PACKED_KERNEL(hsm_warp_##SFX##_p64_fwd, T, 64)
#define HSM_WARP_PACKED_ENTRY(NAME, DT, C)                                                            \
    {#NAME, (const void *)NAME, HSM_FAMILY_WARP, HSM_KOP_FWD, DT, 8, C, HSM_WARP_BLOCK, hsm_launch_plain, 0, 0, HSM_WARP_SIZE, 0}
#define HSM_WARP_PACKED_ENTRIES(SFX, DT)                                                              \
    HSM_WARP_PACKED_ENTRY(hsm_warp_##SFX##_p32_fwd, DT, 32), HSM_WARP_PACKED_ENTRY(hsm_warp_##SFX##_p64_fwd, DT, 64)

/* The packed backward (hsm_warp_packed_bwd_body), _p<C>_bwd: 16 and 32 values a lane, rows that need
 * the whole warp (on 32 lanes rows of 257-512 and 513-1024 columns, on 64 lanes 513-1024 and
 * 1025-2048). Its `lanes` is the warp size, as the packed forward's. */
#define HSM_WARP_PACKED_BWD_KERNEL(NAME, T, C)                                                        \
    extern "C" __global__ void __launch_bounds__(HSM_WARP_BLOCK) NAME(hsm_args a)                    \
    {                                                                                                 \
        hsm_warp_packed_bwd_body<T, C>(a);                                                            \
    }
#define HSM_WARP_PACKED_BWD_ENTRY(NAME, DT, VEC, C)                                                   \
    {#NAME, (const void *)NAME, HSM_FAMILY_WARP, HSM_KOP_BWD, DT, VEC, C, HSM_WARP_BLOCK, hsm_launch_plain, 0, 0, HSM_WARP_SIZE, 0}

HSM_WARP_ALL(f32, float, 4, HSM_WARP_SMALL_BOUNDS, HSM_WARP_SMALL_BOUNDS, HSM_WARP_SMALL_BOUNDS)
HSM_WARP_ALL(f16, hsm_f16, 8, HSM_WARP_BOUNDS, HSM_WARP_SMALL_BOUNDS, HSM_WARP_BOUNDS)
HSM_WARP_ALL(bf16, hsm_bf16, 8, HSM_WARP_BOUNDS, HSM_WARP_SMALL_BOUNDS, HSM_WARP_BOUNDS)
HSM_WARP_LOG_SET(f32, float, 4, HSM_WARP_SMALL_BOUNDS, HSM_WARP_SMALL_BOUNDS, HSM_WARP_SMALL_BOUNDS)
HSM_WARP_LOG_SET(f16, hsm_f16, 8, HSM_WARP_BOUNDS, HSM_WARP_SMALL_BOUNDS, HSM_WARP_BOUNDS)
HSM_WARP_LOG_SET(bf16, hsm_bf16, 8, HSM_WARP_BOUNDS, HSM_WARP_SMALL_BOUNDS, HSM_WARP_BOUNDS)
HSM_WARP_PEEL_SET(f32, float, 4)
HSM_WARP_PEEL_SET(f16, hsm_f16, 8)
HSM_WARP_PEEL_SET(bf16, hsm_bf16, 8)
HSM_WARP_HALF_SET(f16, , hsm_f16, hsm_warp_body)
HSM_WARP_HALF_SET(bf16, , hsm_bf16, hsm_warp_body)
HSM_WARP_HALF_SET(f16, _log, hsm_f16, hsm_warp_log_body)
HSM_WARP_HALF_SET(bf16, _log, hsm_bf16, hsm_warp_log_body)
HSM_WARP_QUAD_SET(f16, , hsm_f16, hsm_warp_body)
HSM_WARP_QUAD_SET(bf16, , hsm_bf16, hsm_warp_body)
HSM_WARP_QUAD_SET(f16, _log, hsm_f16, hsm_warp_log_body)
HSM_WARP_QUAD_SET(bf16, _log, hsm_bf16, hsm_warp_log_body)
HSM_WARP_FLAT_SET(f16, , hsm_f16, false)
HSM_WARP_FLAT_SET(bf16, , hsm_bf16, false)
HSM_WARP_FLAT_SET(f16, _log, hsm_f16, true)
HSM_WARP_FLAT_SET(bf16, _log, hsm_bf16, true)
HSM_WARP_PACKED_SET(f16, hsm_f16)
HSM_WARP_PACKED_SET(bf16, hsm_bf16)
HSM_WARP_PACKED_BWD_KERNEL(hsm_warp_f32_p16_bwd, float, 16)
HSM_WARP_PACKED_BWD_KERNEL(hsm_warp_f32_p32_bwd, float, 32)
HSM_WARP_PACKED_BWD_KERNEL(hsm_warp_f16_p16_bwd, hsm_f16, 16)
HSM_WARP_PACKED_BWD_KERNEL(hsm_warp_f16_p32_bwd, hsm_f16, 32)
HSM_WARP_PACKED_BWD_KERNEL(hsm_warp_bf16_p16_bwd, hsm_bf16, 16)
HSM_WARP_PACKED_BWD_KERNEL(hsm_warp_bf16_p32_bwd, hsm_bf16, 32)

static const hsm_kernel hsm_warp_table[] = {
    HSM_WARP_ALL_ENTRIES(f32, HSM_F32, 4),
    HSM_WARP_ALL_ENTRIES(f16, HSM_F16, 8),
    HSM_WARP_ALL_ENTRIES(bf16, HSM_BF16, 8),
    HSM_WARP_LOG_ENTRIES(f32, HSM_F32, 4),
    HSM_WARP_LOG_ENTRIES(f16, HSM_F16, 8),
    HSM_WARP_LOG_ENTRIES(bf16, HSM_BF16, 8),
    HSM_WARP_PEEL_ENTRIES(f32, HSM_F32, 4),
    HSM_WARP_PEEL_ENTRIES(f16, HSM_F16, 8),
    HSM_WARP_PEEL_ENTRIES(bf16, HSM_BF16, 8),
    HSM_WARP_HALF_ENTRIES(f16, , HSM_KOP_PLAIN, HSM_F16),
    HSM_WARP_HALF_ENTRIES(bf16, , HSM_KOP_PLAIN, HSM_BF16),
    HSM_WARP_HALF_ENTRIES(f16, _log, HSM_KOP_LOG, HSM_F16),
    HSM_WARP_HALF_ENTRIES(bf16, _log, HSM_KOP_LOG, HSM_BF16),
    HSM_WARP_QUAD_ENTRIES(f16, , HSM_KOP_PLAIN, HSM_F16),
    HSM_WARP_QUAD_ENTRIES(bf16, , HSM_KOP_PLAIN, HSM_BF16),
    HSM_WARP_QUAD_ENTRIES(f16, _log, HSM_KOP_LOG, HSM_F16),
    HSM_WARP_QUAD_ENTRIES(bf16, _log, HSM_KOP_LOG, HSM_BF16),
    HSM_WARP_FLAT_ENTRIES(f16, , HSM_KOP_PLAIN, HSM_F16, 8),
    HSM_WARP_FLAT_ENTRIES(bf16, , HSM_KOP_PLAIN, HSM_BF16, 8),
    HSM_WARP_FLAT_ENTRIES(f16, _log, HSM_KOP_LOG, HSM_F16, 8),
    HSM_WARP_FLAT_ENTRIES(bf16, _log, HSM_KOP_LOG, HSM_BF16, 8),
    HSM_WARP_PACKED_ENTRIES(f16, HSM_F16),
    HSM_WARP_PACKED_ENTRIES(bf16, HSM_BF16),
    HSM_WARP_PACKED_BWD_ENTRY(hsm_warp_f32_p16_bwd, HSM_F32, 4, 16),
    HSM_WARP_PACKED_BWD_ENTRY(hsm_warp_f32_p32_bwd, HSM_F32, 4, 32),
    HSM_WARP_PACKED_BWD_ENTRY(hsm_warp_f16_p16_bwd, HSM_F16, 8, 16),
    HSM_WARP_PACKED_BWD_ENTRY(hsm_warp_f16_p32_bwd, HSM_F16, 8, 32),
    HSM_WARP_PACKED_BWD_ENTRY(hsm_warp_bf16_p16_bwd, HSM_BF16, 8, 16),
    HSM_WARP_PACKED_BWD_ENTRY(hsm_warp_bf16_p32_bwd, HSM_BF16, 8, 32),
};

extern "C" const hsm_kernel *hsm_warp_kernels(size_t *count)
{
    *count = sizeof hsm_warp_table / sizeof hsm_warp_table[0];
    return hsm_warp_table;
}

extern "C" int hsm_warp_once(const hsm_kernel *k) { return k->launch == hsm_launch_warp_rows; }
