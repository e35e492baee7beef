/* softmax_split.hip: the family for rows longer than one block's registers hold, and for few long rows.
 * A group of `blocks_per_row` co-resident blocks (a cooperative launch guarantees co-residency; one
 * block, with no exchange, where the row fits one block's registers and shared memory) shares a row:
 * each block keeps its chunk of the row on chip, in registers and in the shared memory/LDS the plan
 * gives it, the group exchanges per-block (max, sum) through a small workspace and a group barrier,
 * and each block then writes its chunk from there, so DRAM is read once. Columns past what the group
 * holds (rows longer than the whole GPU holds on chip) are streamed with an online (max, sum) and
 * re-read in reverse order, so the re-read finds them in L2. */
#include "softmax_ops.h"

#define HSM_SPLIT_UNROLL 2        /* accesses in flight per thread on the streamed columns */
#define HSM_SPLIT_COMBINE_LOADS 2 /* partials in flight per thread when a group combines them */
#define HSM_SPLIT_BWD_STAGE 2     /* the backward's accesses per thread per staging step, of y and of dy */

/* One access's worth of the row into shared memory: hsm_copy16_async for 16-byte packs (asynchronous
 * where the vendor has it), an ordinary copy for the narrower packs of the scalar path. */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_stage_pack(hsm_pack<T, VEC> *dst, const T *src)
{
    if constexpr (sizeof(hsm_pack<T, VEC>) == 16)
        hsm_copy16_async(dst, src);
    else
        *dst = *reinterpret_cast<const hsm_pack<T, VEC> *>(src);
}

/* This thread's NP packs of the register chunk at col0 (the hsm_chunk_load layout), as stored. From
 * one first column and one step: 64-bit addresses kept per pack across the loop would spill. */
template <typename T, int VEC, int NP>
__device__ __forceinline__ void hsm_chunk_load_raw(hsm_pack<T, VEC> *raw, const T *xr, int64_t col0, int64_t cols)
{
    const int64_t first = col0 + (int64_t)threadIdx.x * VEC, step = (int64_t)blockDim.x * VEC;
#pragma unroll
    for (int p = 0; p < NP; p++)
        raw[p] = hsm_load_pack<T, VEC>(xr, first + p * step, cols);
}

/* Column of this thread's p-th staged access (the hsm_chunk_load layout from scol0), or -1 where that
 * access lies outside the row or past the `staged` accesses the plan gave the block. */
__device__ __forceinline__ int64_t hsm_staged_col(int64_t scol0, int p, int staged, int64_t cols, int vec)
{
    const int64_t col = scol0 + ((int64_t)p * blockDim.x + threadIdx.x) * vec;
    return p < staged && (uint64_t)col < (uint64_t)cols ? col : -1;
}

/* Copies staged tile t of the row at xr (this thread's HSM_SPLIT_STAGE_PACKS accesses) into shared
 * memory as one copy group. */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_stage_tile_issue(hsm_pack<T, VEC> *stage, const T *xr, int t, int64_t scol0,
                                                     int staged, int64_t cols)
{
#pragma unroll
    for (int q = 0; q < HSM_SPLIT_STAGE_PACKS; q++) {
        const int p = t * HSM_SPLIT_STAGE_PACKS + q;
        const int64_t col = hsm_staged_col(scol0, p, staged, cols, VEC);
        if (col >= 0)
            hsm_stage_pack<T, VEC>(stage + p * blockDim.x + threadIdx.x, xr + col);
    }
    hsm_copy_async_commit();
}

/* Workspace: a barrier word per possible group (hsm_group_arrive_wait), each alone in a 128-byte cache
 * line (groups whose words shared a line slowed each other's atomics and spinning: 8 groups of 128
 * blocks, M=32, N=1M fp32, H200, 66% of the copy bandwidth with adjacent pairs, 74% with a line
 * each), then one pair a block for each of two rounds (a row's and the next's): two 64-bit words,
 * (max, tag) and (sum, tag), the tag in the high 32 bits (hsm_split_publish). The tag is the
 * round's: the launch's first (hsm_args.epoch, which the host advances past every round of every
 * launch on the handle, so no pair an earlier launch left carries a tag of this one) plus the rows
 * the group handled before; a fenced launch (hsm_group_arrive_wait) takes tags of its own, from 2^31
 * up, and advances nothing. A block reads a pair once the barrier says every block arrived, and
 * takes it when both words carry the round's tag, else reads it again: so no fence orders a pair
 * before its block's arrival, nor the arrival before the reads. A pair is overwritten two rounds
 * later, by a block past the barrier of the round between, which each block reaches only after it
 * has read this round's pairs. The layout depends only on the workspace's size, never on a launch's
 * grid: the barrier words of one launch must never lie where another launch wrote pairs. */
#define HSM_SPLIT_BAR_WORDS 32 /* 128 bytes: the cache line of both vendors' L2 */
extern "C" size_t hsm_split_workspace_bytes(int grid)
{
    return (size_t)grid * (HSM_SPLIT_BAR_WORDS * sizeof(unsigned) + 2 * 2 * sizeof(uint64_t));
}

/* The pairs of group g's round of parity `parity`: block j's at 2 j. */
__device__ __forceinline__ uint64_t *hsm_split_slots(const hsm_args &a, int parity, int64_t g, int k)
{
    uint64_t *pairs = (uint64_t *)(a.workspace + HSM_SPLIT_BAR_WORDS * (size_t)a.workspace_blocks);
    return pairs + 2 * ((size_t)parity * a.workspace_blocks + (size_t)g * k);
}

/* Block j's pair (m, s) of round `tag` (thread 0 alone). */
__device__ __forceinline__ void hsm_split_publish(uint64_t *slots, int j, float m, float s, unsigned tag)
{
    const uint64_t t = (uint64_t)tag << 32;
    hsm_store_words2(slots + 2 * j, t | __float_as_uint(m), t | __float_as_uint(s));
}

/* Barrier among the k blocks of one group, on one word: arrivals in its low 16 bits, the generation in
 * its high 16. The last block to arrive (its add returns k - 1 arrivals) adds 2^16 - k: arrivals back
 * to zero and the generation one on, in one atomic. The others wait for the generation their own add
 * returned to change (k < 2^16: a group is never more blocks than a GPU holds). Arrivals return to
 * zero at every crossing, so the workspace needs zeroing once, not per launch. No fence: the pairs
 * carry their round's tag (above); but where the tags are not unique (hsm_launch.fenced: a launch
 * captured into a graph, whose every replay repeats them) a fence on each side of the add orders the
 * pairs instead, as before the tags. A fence on each side of the add (__threadfence, MEMBAR.SC.GPU
 * on NVIDIA), on the path every block waits on, with untagged pairs: H200, kernel time, same command,
 * fp32 8 x 262144 9.15 us against 8.55, bf16 64 x 128256 12.74 against 12.30; 1.00-1.12x on every
 * SPLIT launch measured but rows longer than the GPU holds (fp32 4 x 8388608, 1024 blocks a row,
 * 0.99x). Acquire-release fences in their place were slower (0.96-1.00x), and waiting on the tagged
 * pairs alone, no barrier word, every block's warp polling them, slower again (0.85-0.96x on all but
 * one; 0.59x at 1024 blocks a row): bench/results/h200-2026-11-29-split-tags.md. */
__device__ __forceinline__ void hsm_group_arrive_wait(unsigned *bar, unsigned k, int fenced) /* thread 0 alone */
{
    if (fenced)
        __threadfence(); /* this block's pair before its arrival */
    const unsigned seen = atomicAdd(bar, 1u);
    if ((seen & 0xffffu) == k - 1) {
        atomicAdd(bar, 0x10000u - k);
    } else {
        volatile unsigned *word = bar;
        while ((*word ^ seen) >> 16 == 0)
            hsm_spin_pause();
    }
    if (fenced)
        __threadfence(); /* the others' pairs after the crossing */
}

/* Block j publishes its pair (bm, bs) of round `tag` and crosses the group's barrier; the block waits
 * at one block barrier. */
__device__ __forceinline__ void hsm_split_arrive(const hsm_args &a, int64_t g, uint64_t *slots, int k, int j,
                                                 unsigned tag, float bm, float bs)
{
    if (threadIdx.x == 0) {
        hsm_split_publish(slots, j, bm, bs, tag);
        hsm_group_arrive_wait(a.workspace + HSM_SPLIT_BAR_WORDS * g, (unsigned)k, a.fenced);
    }
    __syncthreads();
}

/* Whether both words of a pair carry `tag`. */
__device__ __forceinline__ bool hsm_split_tagged(uint64_t w0, uint64_t w1, unsigned tag)
{
    return (unsigned)(w0 >> 32) == tag && (unsigned)(w1 >> 32) == tag;
}

/* Folds the pairs first, first + stride, ... of a group's k of round `tag` into (cm, cs) (SUM: the
 * sums alone into cs), with L loads in flight (a group can have a thousand blocks; one L2 round trip
 * a pair would stall every row). A pair read before its store reached L2 is read again. */
template <int L, bool SUM = false>
__device__ __forceinline__ void hsm_split_fold_partials(const uint64_t *slots, int k, unsigned tag, int first,
                                                        int stride, float &cm, float &cs, float ek)
{
    for (int i0 = first; i0 < k; i0 += L * stride) {
        uint64_t w0[L], w1[L];
#pragma unroll
        for (int u = 0; u < L; u++) {
            const int i = i0 + u * stride;
            w0[u] = w1[u] = (uint64_t)tag << 32; /* past the group: (0, 0), taken as it is */
            if (i < k)
                hsm_load_words2(slots + 2 * i, &w0[u], &w1[u]);
        }
#pragma unroll
        for (int u = 0; u < L; u++) {
            while (!hsm_split_tagged(w0[u], w1[u], tag)) {
                hsm_spin_pause();
                hsm_load_words2(slots + 2 * (i0 + u * stride), &w0[u], &w1[u]);
            }
            const float ps = __uint_as_float((unsigned)w1[u]);
            if constexpr (SUM) {
                cs += ps;
            } else {
                const float pm = i0 + u * stride < k ? __uint_as_float((unsigned)w0[u]) : HSM_NEG_INF;
                const float nm = hsm_max(cm, pm);
                cs = cs * hsm_rescale_k(cm, nm, ek) + ps * hsm_rescale_k(pm, nm, ek);
                cm = nm;
            }
        }
    }
}

/* The row's (max, sum) from the k pairs of its group, in the same order in every block so that all
 * get bit-identical results: the block's threads over the pairs, then the block's reductions. */
__device__ __forceinline__ void hsm_split_combine(const uint64_t *slots, int k, unsigned tag, float *red_max,
                                                  float *red_sum, float *mx, float *sum, float ek = HSM_LOG2E)
{
    float cm = HSM_NEG_INF, cs = 0.0f;
    hsm_split_fold_partials<HSM_SPLIT_COMBINE_LOADS>(slots, k, tag, threadIdx.x, blockDim.x, cm, cs, ek);
    *mx = hsm_block_max(cm, red_max);
    *sum = hsm_block_sum(cs * hsm_rescale_k(cm, *mx, ek), red_sum);
}

/* hsm_split_combine in every warp on its own, the same way in each (so still bit-identical in every
 * block): no block barrier, for groups of up to HSM_SPLIT_WARP_COMBINE_MAX blocks (a round or two of
 * L loads a lane; more would stall on L2 round trips where the block's threads take them at once). */
#define HSM_SPLIT_WARP_COMBINE_MAX (HSM_SPLIT_COMBINE_LOADS * HSM_WARP_SIZE)
template <int L>
__device__ __forceinline__ void hsm_split_combine_warp(const uint64_t *slots, int k, unsigned tag, float *mx,
                                                       float *sum, float ek = HSM_LOG2E)
{
    float cm = HSM_NEG_INF, cs = 0.0f;
    hsm_split_fold_partials<L>(slots, k, tag, (int)threadIdx.x % HSM_WARP_SIZE, HSM_WARP_SIZE, cm, cs, ek);
    *mx = hsm_warp_max(cm, HSM_WARP_SIZE);
    *sum = hsm_warp_sum(cs * hsm_rescale_k(cm, *mx, ek), HSM_WARP_SIZE);
}

/* The backward's row sum from the k pair sums of its group, in the same order in every block. */
__device__ __forceinline__ float hsm_split_sum(const uint64_t *slots, int k, unsigned tag, float *red)
{
    float cm = 0.0f, cs = 0.0f;
    hsm_split_fold_partials<HSM_SPLIT_COMBINE_LOADS, true>(slots, k, tag, threadIdx.x, blockDim.x, cm, cs, 0.0f);
    return hsm_block_sum(cs, red);
}

/* Folds staged tile t (this thread's HSM_SPLIT_STAGE_PACKS accesses) into a running (max om, sum os).
 * 16-byte packs are read as 32-bit words: 16-bit elements each in a register of their own would
 * spill, and hsm_words_max compares 16-bit pairs as stored. */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_stage_tile_fold(const hsm_pack<T, VEC> *stage, int t, int64_t scol0, int staged,
                                                    int64_t cols, float &om, float &os, float k = HSM_LOG2E)
{
    constexpr int PW = (int)sizeof(hsm_pack<T, VEC>) / 4;
    constexpr int NE = PW > 0 ? HSM_SPLIT_STAGE_PACKS * PW : HSM_SPLIT_STAGE_PACKS; /* words or elements */
    uint32_t tw[NE];
    float te[NE];
#pragma unroll
    for (int q = 0; q < HSM_SPLIT_STAGE_PACKS; q++) {
        const int p = t * HSM_SPLIT_STAGE_PACKS + q;
        const int ok = hsm_staged_col(scol0, p, staged, cols, VEC) >= 0;
        if constexpr (PW > 0) {
            if (ok) {
                __builtin_memcpy(tw + q * PW, stage + p * blockDim.x + threadIdx.x, sizeof(hsm_pack<T, VEC>));
            } else {
#pragma unroll
                for (int i = 0; i < PW; i++)
                    tw[q * PW + i] = hsm_neg_inf_word<T>();
            }
        } else {
            te[q] = ok ? hsm_to_float(stage[p * blockDim.x + threadIdx.x].v[0]) : HSM_NEG_INF;
        }
    }
    float tm = HSM_NEG_INF;
    if constexpr (PW > 0) {
        tm = hsm_words_max<T, NE>(tw);
    } else {
#pragma unroll
        for (int q = 0; q < NE; q++)
            tm = hsm_max(tm, te[q]);
    }
    const float nm = hsm_max(om, tm);
    const float sh = nm == HSM_NEG_INF ? 0.0f : nm;
    float ts = 0.0f;
#pragma unroll
    for (int q = 0; q < HSM_SPLIT_STAGE_PACKS; q++) {
        if (hsm_staged_col(scol0, t * HSM_SPLIT_STAGE_PACKS + q, staged, cols, VEC) >= 0) {
#pragma unroll
            for (int i = 0; i < VEC; i++)
                ts += hsm_exp2(((PW > 0 ? hsm_word_elem<T>(tw + q * PW, i) : te[q]) - sh) * k);
        }
    }
    os = os * hsm_rescale_k(om, sh, k) + ts;
    om = nm;
}

/* hsm_stage_tile_fold for the forward with options: each staged pack (columns below the row's read
 * bound lim) converted to u with the row's mask and folded with exponent multiplier k, one pack at a
 * time (a tile's values at once would spill beside the register chunk). */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_stage_tile_fold_fwd(const hsm_args &a, const hsm_row_ctx &rc,
                                                        const hsm_pack<T, VEC> *stage, int t, int64_t scol0, int staged,
                                                        float k, float &om, float &os)
{
#pragma unroll
    for (int q = 0; q < HSM_SPLIT_STAGE_PACKS; q++) {
        const int p = t * HSM_SPLIT_STAGE_PACKS + q;
        const int64_t col = hsm_staged_col(scol0, p, staged, rc.lim, VEC);
        if (col >= 0) {
            float u[VEC], pm = HSM_NEG_INF;
            hsm_fwd_conv<T, VEC>(a, rc, stage[p * blockDim.x + threadIdx.x], col, u);
#pragma unroll
            for (int i = 0; i < VEC; i++)
                pm = hsm_max(pm, u[i]);
            hsm_online_fold<VEC>(u, pm, om, os, k);
        }
    }
}

/* F: the forward with options (softmax_ops.h): loads bounded by the row's causal bound and converted
 * with its mask, the exponent multiplier sigma * log2(e), and the epilogue of the call; else the plain
 * forward, as it was tuned, its softmax or (LOG) its log-softmax. */
template <typename T, int VEC, int C, bool F, bool LOG = false>
__device__ __forceinline__ void hsm_split_body(const hsm_args a)
{
    static_assert(!(F && LOG), "LOG: the plain log-softmax (the forward with options reads a.op.log)");
    constexpr int U = VEC * HSM_SPLIT_UNROLL;
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS];
    extern __shared__ __align__(16) unsigned char hsm_split_stage_mem[];
    hsm_pack<T, VEC> *stage = reinterpret_cast<hsm_pack<T, VEC> *>(hsm_split_stage_mem);
    const int k = a.blocks_per_row;
    const int64_t ngroups = gridDim.x / k;
    const int64_t g = blockIdx.x / k;
    const int j = blockIdx.x % k;
    if (g >= ngroups)
        return;
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    const float ek = F ? a.op.sigma * HSM_LOG2E : HSM_LOG2E;
    /* A row's read bound and mask row (the plain forward reads every column). */
    auto row_ctx = [&](int64_t r) {
        hsm_row_ctx rc;
        if constexpr (F) {
            rc = hsm_fwd_row(a, r);
        } else {
            rc.lim = a.cols;
            rc.mrow = NULL;
        }
        return rc;
    };
    /* A block's part of the row: `chunk` columns in registers, then `staged` packs per thread in
     * shared memory (the hsm_chunk_load layout, blockDim.x packs after blockDim.x packs). */
    const int64_t chunk = (int64_t)blockDim.x * C;
    const int staged = a.staged;
    const int stiles = (staged + HSM_SPLIT_STAGE_PACKS - 1) / HSM_SPLIT_STAGE_PACKS;
    const int64_t span = chunk + (int64_t)staged * blockDim.x * VEC;
    const int64_t col0 = j * span;
    const int64_t scol0 = col0 + chunk;
    const int64_t resident = span * k;
    const int64_t tile = (int64_t)blockDim.x * U;
    /* Streamed tiles (rows longer than the group holds): `rest` columns from this block's first one,
     * plus the row's lead on the 16-byte path, `tile` columns for each of the group's k blocks. */
    const int64_t rest = a.cols - resident - j * tile;
    auto streamed_tiles = [&](int64_t left) { return left > 0 ? (left + k * tile - 1) / (k * tile) : 0; };
    const int64_t line_ntiles = streamed_tiles(rest);
    float v[C], w[U];
    hsm_pack<T, VEC> raw[C / VEC];
    int parity = 0;

    /* Issue order = arrival order: the staged tiles, one copy group per tile, then the register chunk,
     * whose raw packs are converted only once the staged tiles are folded, so the block folds each
     * tile while later ones are in flight. A row's staged tiles are issued while the group writes its
     * previous row, each as soon as its shared memory is written out, so DRAM reads the next row during
     * the writes instead of idling between them. A 16-bit row's register chunk (C values in C / 2
     * registers) is loaded just after this row's chunk is written; an fp32 one, held through the
     * writes, would spill, and waits for the loop's next turn (bf16 N=256K on an H200: 72% -> 79% of
     * the copy bandwidth with it ahead; fp32 few long rows: 61% -> 57%). The scalar path's copies go
     * through registers, and are made at the start of each row. Copies stop at the row's read bound. */
    constexpr bool ahead = sizeof(hsm_pack<T, VEC>) == 16; /* where the copy is asynchronous */
    constexpr bool raw_ahead = ahead && sizeof(T) == 2;
    if (ahead && g < a.rows) {
        const int64_t lim_g = row_ctx(g).lim;
        for (int t = 0; t < stiles; t++)
            hsm_stage_tile_issue<T, VEC>(stage, x + g * a.x_stride, t,
                                         scol0 - hsm_line_lead<T, VEC>(x + g * a.x_stride), staged, lim_g);
    }
    unsigned tag = a.epoch; /* the round's (hsm_split_slots) */
    for (int64_t row = g; row < a.rows; row += ngroups, parity ^= 1, tag++) {
        const T *xr = x + row * a.x_stride;
        T *yr = y + row * a.y_stride;
        const int more = ahead && row + ngroups < a.rows;
        const T *xn = x + (more ? row + ngroups : row) * a.x_stride;
        const hsm_row_ctx rc = row_ctx(row);
        /* The group lays each row out from the line that holds its start (hsm_line_lead): this row's
         * columns at c0 and s0 instead of col0 and scol0, the next row's at s0n. The plan leaves room
         * for the lead where rows can start off a line. */
        const int lead = hsm_line_lead<T, VEC>(xr);
        const int64_t c0 = col0 - lead, s0 = scol0 - lead;
        int64_t ntiles = line_ntiles; /* computed once: per row, it spilled in the scalar kernels */
        if constexpr (ahead)
            ntiles = streamed_tiles(rest + lead);
        for (int t = 0; !ahead && t < stiles; t++)
            hsm_stage_tile_issue<T, VEC>(stage, xr, t, s0, staged, rc.lim);
        if (!raw_ahead || row == g)
            hsm_chunk_load_raw<T, VEC, C / VEC>(raw, xr, c0, rc.lim);
        /* Held as words until converted, for the reason hsm_stage_tile_fold gives. */
        static_assert(sizeof(raw) % 4 == 0, "a register chunk of whole words");
        uint32_t rw[sizeof(raw) / 4];
        __builtin_memcpy(rw, raw, sizeof raw);
        float om = HSM_NEG_INF, os = 0.0f;
        for (int t = 0; t < stiles; t++) {
            hsm_copy_async_wait_pending(stiles - 1 - t);
            /* Where u = x over the whole row (no mask, no causal bound), the plain fold serves the
             * forward with options too, its exponent multiplier sigma * log2(e). */
            if (F && (a.op.mask != HSM_MK_NONE || rc.lim < a.cols))
                hsm_stage_tile_fold_fwd<T, VEC>(a, rc, stage, t, s0, staged, ek, om, os);
            else
                hsm_stage_tile_fold<T, VEC>(stage, t, s0, staged, a.cols, om, os, ek);
        }
        for (int64_t t = 0; t < ntiles; t++) {
            const int64_t t0 = resident + (t * k + j) * tile - lead;
            float wmax;
            if constexpr (F)
                wmax = hsm_fwd_chunk_load<T, VEC, U>(a, rc, xr, t0, threadIdx.x, blockDim.x, w);
            else
                wmax = hsm_chunk_load<T, VEC, U>(xr, t0, a.cols, threadIdx.x, blockDim.x, w);
            hsm_online_fold<U>(w, wmax, om, os, ek);
        }
        float lm;
        if constexpr (F) {
            /* u of the register chunk, with the row's mask. */
            hsm_pack<T, VEC> rp[C / VEC];
            __builtin_memcpy(rp, rw, sizeof rp);
            lm = hsm_fwd_conv_chunk<T, VEC, C / VEC>(a, rc, rp, c0, threadIdx.x, blockDim.x, v);
        } else {
            lm = hsm_words_max<T, (int)sizeof(rw) / 4>(rw);
#pragma unroll
            for (int i = 0; i < C; i++)
                v[i] = hsm_word_elem<T>(rw, i);
        }

        /* This block's (max, sum); a chunk of only -inf gives (-inf, 0) rather than NaN. Log-softmax
         * keeps u in v for its output; softmax keeps the exponentials. */
        const float bm = hsm_block_max(hsm_max(lm, om), red_max);
        const float shift = bm == HSM_NEG_INF ? 0.0f : bm;
        float ls = os * hsm_rescale_k(om, shift, ek);
        if ((F && a.op.log) || LOG) {
#pragma unroll
            for (int i = 0; i < C; i++)
                ls += hsm_exp2((v[i] - shift) * ek);
        } else {
#pragma unroll
            for (int i = 0; i < C; i++) {
                v[i] = hsm_exp2((v[i] - shift) * ek);
                ls += v[i];
            }
        }
        const float bs = hsm_block_sum(ls, red_sum);
        /* A group of one block (a row that fits one block's registers and shared memory) needs no
         * exchange: its (max, sum) is the row's; nor does a row whose statistics are given. */
        float mx = bm, sum = bs;
        const bool given = F && a.op.stats_in != NULL;
        if (k > 1 && !given) {
            uint64_t *slots = hsm_split_slots(a, parity, g, k);
            hsm_split_arrive(a, g, slots, k, j, tag, bm, bs);
            hsm_split_combine(slots, k, tag, red_max, red_sum, &mx, &sum, ek);
        }
        /* LOG: the outputs are (u - mx) - log(sum), as hsm_epi_value's HSM_FROM_U_LOG with sigma 1. */
        const float lns = LOG ? logf(sum) : 0.0f;

        hsm_epi e;
        void *yrow = NULL;
        if constexpr (F) {
            if (given) {
                e = hsm_epi_given(a, row);
            } else {
                e = hsm_epi_begin(a, mx);
                hsm_epi_end(a, e, mx, sum, row, j == 0 && threadIdx.x == 0);
            }
            yrow = hsm_out_row(a, row);
            /* The register chunk's exponentials were taken from this block's max. fp32: rescaled to
             * the row's in place, so that one epilogue serves every store. The reference to one of
             * two epilogues (e, or a copy with the normaliser rescaled) that 16-bit keeps puts both
             * in local memory, written back to DRAM every row: 40 bytes a thread, 15% more bytes
             * written at fp32 4096 x 65536 (H100: log-softmax 1.10x faster without it, 768 us,
             * within 1.5% of the plain forward). The 16-bit kernels, held at 64 registers, spilled 44-64
             * bytes with one epilogue and ran 0.95-0.98x (bench/results/h100-2026-11-26-split-epi.md). */
            if constexpr (sizeof(T) == 4) {
                if (!a.op.log) {
                    const float r = hsm_rescale_k(bm, e.m, ek);
#pragma unroll
                    for (int i = 0; i < C; i++)
                        v[i] *= r;
                }
                if (!a.op.no_out)
                    hsm_fwd_chunk_store<VEC, C>(a, yrow, c0, threadIdx.x, blockDim.x, v, e);
            } else {
                hsm_epi eb = e;
                eb.inv *= hsm_rescale_k(bm, e.m, ek);
                if (!a.op.no_out)
                    hsm_fwd_chunk_store<VEC, C>(a, yrow, c0, threadIdx.x, blockDim.x, v, a.op.log ? e : eb);
            }
        } else if constexpr (LOG) {
#pragma unroll
            for (int i = 0; i < C; i++)
                v[i] = (v[i] - mx) - lns;
            hsm_chunk_store<T, VEC, C>(yr, c0, a.cols, threadIdx.x, blockDim.x, v, 1.0f);
        } else {
            hsm_chunk_store<T, VEC, C>(yr, c0, a.cols, threadIdx.x, blockDim.x, v, hsm_rescale(bm, mx) / sum);
        }
        const int lead_n = hsm_line_lead<T, VEC>(xn);
        if (raw_ahead && more)
            hsm_chunk_load_raw<T, VEC, C / VEC>(raw, xn, col0 - lead_n, more ? row_ctx(row + ngroups).lim : a.cols);
        const int64_t s0n = scol0 - lead_n;
        const int64_t lim_n = more ? row_ctx(row + ngroups).lim : a.cols;
        const float norm = hsm_norm_of<T>(sum); /* of the outputs taken again (hsm_exp_norm) */
        auto out = [&](float u) { return LOG ? (u - mx) - lns : hsm_exp_norm<T>(u, mx, norm); };
        for (int t = 0; t < stiles; t++) {
#pragma unroll
            for (int q = 0; q < HSM_SPLIT_STAGE_PACKS; q++) {
                const int p = t * HSM_SPLIT_STAGE_PACKS + q;
                const int64_t col = hsm_staged_col(s0, p, staged, a.cols, VEC);
                if (col >= 0 && !(F && a.op.no_out)) {
                    const hsm_pack<T, VEC> pk = stage[p * blockDim.x + threadIdx.x];
                    if constexpr (F) {
                        float u[VEC];
                        if (col < rc.lim) {
                            hsm_fwd_conv<T, VEC>(a, rc, pk, col, u);
                        } else {
#pragma unroll
                            for (int i = 0; i < VEC; i++)
                                u[i] = HSM_NEG_INF;
                        }
                        if (a.op.log)
                            hsm_fwd_store_pack<VEC, HSM_FROM_U_LOG>(a, yrow, col, u, e);
                        else
                            hsm_fwd_store_pack<VEC, HSM_FROM_U_SOFTMAX>(a, yrow, col, u, e);
                    } else {
                        float f[VEC];
#pragma unroll
                        for (int i = 0; i < VEC; i++)
                            f[i] = out(hsm_to_float(pk.v[i]));
                        hsm_store<T, VEC>(yr + col, f, 1.0f);
                    }
                }
            }
            /* Each thread copies into only the slots it read itself, just above: no block barrier. */
            if (more)
                hsm_stage_tile_issue<T, VEC>(stage, xn, t, s0n, staged, lim_n);
        }
        for (int64_t t = F && a.op.no_out ? -1 : ntiles - 1; t >= 0; t--) {
            const int64_t t0 = resident + (t * k + j) * tile - lead;
            if constexpr (F) {
                hsm_fwd_chunk_load<T, VEC, U>(a, rc, xr, t0, threadIdx.x, blockDim.x, w);
                hsm_fwd_chunk_store<VEC, U, true>(a, yrow, t0, threadIdx.x, blockDim.x, w, e);
            } else {
                hsm_chunk_load<T, VEC, U>(xr, t0, a.cols, threadIdx.x, blockDim.x, w);
#pragma unroll
                for (int i = 0; i < U; i++)
                    w[i] = out(w[i]);
                hsm_chunk_store<T, VEC, U>(yr, t0, a.cols, threadIdx.x, blockDim.x, w, 1.0f);
            }
        }
    }
}

/* The backward over a group of co-resident blocks: each block holds y and dy of its part of the row,
 * `chunk` columns in registers and `staged` accesses per thread in shared memory (the plan gives 8
 * bytes a column: y's and dy's packs as stored take 4-8 of them where both are 16 bytes, else their
 * values as fp32 take all 8), sums dy * y (softmax) or dy (log-softmax) over it, and the group
 * exchanges one partial sum per block; columns past what the group holds are read twice.
 * P: peeled, rows at any element offset, dy's and dx's rows at the same offset as y's from their own
 * accesses (the plan's condition). The group lays out the row's whole packs, from its first column
 * on 16 bytes, as a row of its own (shorter by fewer than 2 VEC columns: the plan's geometry for the
 * full length covers it); the edge elements around them go one a thread to the row's first block
 * (hsm_peel_col), their terms in its partial sum. */
template <typename T, int VEC, int C, bool F, bool P = false>
__device__ __forceinline__ void hsm_split_bwd_body(const hsm_args a)
{
    constexpr int SP = HSM_SPLIT_BWD_STAGE; /* accesses per staging step (of each tensor) */
    constexpr int U = VEC;                  /* streamed columns per thread per step (of each tensor) */
    /* Block sums alternate between red[0] and red[1] from row to row; the group's combine has red[2]:
     * its last reads and the next row's first writes have no barrier between them. */
    __shared__ float red[3][HSM_MAX_WARPS];
    extern __shared__ __align__(16) unsigned char hsm_split_stage_mem[];
    unsigned char *stage = hsm_split_stage_mem;
    float *sy = reinterpret_cast<float *>(hsm_split_stage_mem);
    const int k = a.blocks_per_row;
    const int64_t ngroups = gridDim.x / k;
    const int64_t g = blockIdx.x / k;
    const int j = blockIdx.x % k;
    if (g >= ngroups)
        return;
    const T *y = (const T *)a.x;
    const int64_t chunk = (int64_t)blockDim.x * C;
    const int staged = a.staged;
    const int stiles = (staged + SP - 1) / SP;
    const int64_t saccess = (int64_t)blockDim.x * VEC;  /* columns of one staged access of every thread */
    float *sd = sy + (size_t)staged * saccess;            /* dy after y */
    /* Bytes of one copied access of every thread (y's packs, then dy's): at most the 8 a column the
     * plan gives staging. */
    const size_t pbytes = (size_t)saccess * (sizeof(T) + hsm_dtype_bytes(a.op.in2_dtype));
    const int64_t span = chunk + staged * saccess;
    const int64_t col0 = j * span, scol0 = col0 + chunk, send = scol0 + staged * saccess;
    const int64_t resident = span * k;
    const int64_t tile = (int64_t)blockDim.x * U;
    const int64_t rest = a.cols - resident - j * tile;
    const int64_t ntiles = rest > 0 ? (rest + k * tile - 1) / (k * tile) : 0;
    float yv[C], dv[C], ty[SP * VEC], td[SP * VEC], wy[U], wd[U];
    int parity = 0;
    unsigned tag = a.epoch; /* the round's (hsm_split_slots) */
    for (int64_t row = g; row < a.rows; row += ngroups, parity ^= 1, tag++) {
        const T *yr = y + row * a.x_stride;
        const void *dr = hsm_in2_row(a, row);
        hsm_peel_row pr = {0, a.cols, -1, 0.0f, 0.0f, 0.0f}; /* the columns laid out, from column head */
        if constexpr (P) {
            pr = hsm_bwd_peel_row<T, VEC>(a, yr, dr, j == 0);
            yr += pr.head;
            dr = (const char *)dr + pr.head * hsm_dtype_bytes(a.op.in2_dtype);
        }
        const int64_t cols = pr.cols;
        const int64_t bound = send < cols ? send : cols; /* this block's staged columns end here */
        /* 16-byte packs of y and dy (every dtype pair but an fp32 y with a 16-bit dy, whose pack is 8
         * bytes): the staged columns copied asynchronously, all at once, in flight with the register
         * chunk's and the streamed ones, as stored; access p of every thread at stage + p * pbytes in
         * hsm_bwd_tile_copy's layout (each thread reads back only what it copied: no barrier). Loaded
         * through registers two accesses a tensor at a time instead, softmax 4096 x 65536 ran at 84%
         * (fp32) and 57% (bf16 forced on SPLIT) of the copy bandwidth, copied at 90% and 79% (H200:
         * bench/results/h200-2026-11-28-held-words.md, h200-2026-11-28-split-copies.md). */
        bool copied = false;
        if constexpr (VEC * sizeof(T) == 16) {
            if (VEC * hsm_dtype_bytes(a.op.in2_dtype) >= 16) {
                for (int p = 0; p < staged; p++)
                    hsm_bwd_tile_copy<T, VEC, VEC, true>(a, yr, dr, scol0 + p * saccess, bound, stage + p * pbytes);
                hsm_copy_async_commit();
                copied = true;
            }
        }
        float ls = pr.term + hsm_bwd_chunk_load<T, VEC, C>(a, yr, dr, col0, cols, threadIdx.x, blockDim.x, yv, dv);
        for (int t = 0; t < (copied ? 0 : stiles); t++) {
            const int64_t c = scol0 + (int64_t)t * SP * saccess;
            ls += hsm_bwd_chunk_load<T, VEC, SP * VEC>(a, yr, dr, c, bound, threadIdx.x, blockDim.x, ty, td);
            /* Each thread keeps its own accesses (it alone reads them back), value i of access p at
             * (p * VEC + i) * blockDim.x + threadIdx.x: consecutive threads, consecutive words, no bank
             * conflict (a thread's VEC values side by side were 8-way conflicts for 16-bit rows). */
#pragma unroll
            for (int q = 0; q < SP; q++)
#pragma unroll
                for (int i = 0; i < VEC; i++) {
                    const size_t at = ((size_t)(t * SP + q) * VEC + i) * blockDim.x + threadIdx.x;
                    if (t * SP + q < staged) {
                        sy[at] = ty[q * VEC + i];
                        sd[at] = td[q * VEC + i];
                    }
                }
        }
        for (int64_t t = 0; t < ntiles; t++)
            ls += hsm_bwd_chunk_load<T, VEC, U>(a, yr, dr, resident + (t * k + j) * tile, cols, threadIdx.x,
                                                blockDim.x, wy, wd);
        if (copied) {
            hsm_copy_async_wait_pending(0);
            for (int p = 0; p < staged; p++)
                ls += hsm_bwd_chunk_load<T, VEC, VEC, true, HSM_BWD_FROM, true>(
                    a, yr, dr, scol0 + p * saccess, bound, threadIdx.x, blockDim.x, wy, wd, 0, stage + p * pbytes);
        }
        const bool given = a.op.stats_in != NULL;
        float sum = given ? hsm_bwd_given(a, row) : hsm_block_sum(ls, red[parity]);
        if (k > 1 && !given) {
            uint64_t *slots = hsm_split_slots(a, parity, g, k);
            hsm_split_arrive(a, g, slots, k, j, tag, 0.0f, sum);
            sum = hsm_split_sum(slots, k, tag, red[2]);
        }
        if (a.op.no_out) {
            if (j == 0 && threadIdx.x == 0)
                hsm_bwd_stats(a, sum, row);
            continue;
        }
        void *xrow = hsm_out_row(a, row);
        if constexpr (P) {
            hsm_bwd_edge_store(a, xrow, pr.ec, pr.ey, pr.ed, sum);
            xrow = (char *)xrow + pr.head * hsm_dtype_bytes(a.op.out_dtype);
        }
        hsm_bwd_chunk_store<VEC, C>(a, xrow, col0, cols, threadIdx.x, blockDim.x, yv, dv, sum);
        for (int p = 0; p < (copied ? staged : 0); p++) {
            hsm_bwd_chunk_load<T, VEC, VEC, true, HSM_BWD_FROM, true>(a, yr, dr, scol0 + p * saccess, bound, threadIdx.x,
                                                                      blockDim.x, wy, wd, 0, stage + p * pbytes);
            hsm_bwd_chunk_store<VEC, VEC>(a, xrow, scol0 + (int64_t)p * saccess, bound, threadIdx.x, blockDim.x, wy,
                                          wd, sum);
        }
        for (int t = 0; t < (copied ? 0 : stiles); t++) {
#pragma unroll
            for (int q = 0; q < SP; q++)
#pragma unroll
                for (int i = 0; i < VEC; i++) {
                    const size_t at = ((size_t)(t * SP + q) * VEC + i) * blockDim.x + threadIdx.x;
                    ty[q * VEC + i] = t * SP + q < staged ? sy[at] : 0.0f;
                    td[q * VEC + i] = t * SP + q < staged ? sd[at] : 0.0f;
                }
            hsm_bwd_chunk_store<VEC, SP * VEC>(a, xrow, scol0 + (int64_t)t * SP * saccess, bound, threadIdx.x,
                                               blockDim.x, ty, td, sum);
        }
        for (int64_t t = ntiles - 1; t >= 0; t--) {
            const int64_t t0 = resident + (t * k + j) * tile;
            hsm_bwd_chunk_load<T, VEC, U>(a, yr, dr, t0, cols, threadIdx.x, blockDim.x, wy, wd);
            hsm_bwd_chunk_store<VEC, U>(a, xrow, t0, cols, threadIdx.x, blockDim.x, wy, wd, sum);
        }
    }
}

/* The held kernels' store of a row's share (hsm_split_held_body and its lean twin): pack p of the
 * words w (NP packs of 16 bytes, as loaded) to yr + p step where in_row(p), from the row's max mx and
 * sum: the softmax (hsm_expo_out), or with LOG the plain log-softmax, (u - mx) - log(sum), log(sum)
 * from the normaliser (hsm_log_sum_of). I: the type the body counts columns in. */
template <typename T, int NP, bool LOG, typename I, typename InRow>
__device__ __forceinline__ void hsm_split_words_store(const uint32_t *w, T *yr, I step, float mx, float sum,
                                                      InRow in_row)
{
    constexpr int E = 16 / (int)sizeof(T);
    const float norm = hsm_norm_of<T>(sum);
    if constexpr (LOG) {
        const float lns = hsm_log_sum_of<T>(norm);
#pragma unroll
        for (int p = 0; p < NP; p++) {
            if (in_row(p)) {
                float f[E];
#pragma unroll
                for (int e = 0; e < E; e++)
                    f[e] = (hsm_word_elem<T>(w + 4 * p, e) - mx) - lns;
                hsm_store<T, E>(yr + p * step, f, 1.0f);
            }
        }
        return;
    }
    hsm_expo_branch(mx, HSM_LOG2E, [&](auto ex) {
        const auto eo = hsm_expo_norm<T>(ex, norm);
#pragma unroll
        for (int p = 0; p < NP; p++) {
            if (in_row(p)) {
                float f[E];
#pragma unroll
                for (int e = 0; e < E; e++)
                    f[e] = hsm_expo_out<T>(eo, hsm_word_elem<T>(w + 4 * p, e), norm);
                hsm_store<T, E>(yr + p * step, f, 1.0f);
            }
        }
    });
}

/* The plain forward of a row its group holds whole in registers, as stored (the decode rows: few
 * rows of 32K-512K columns, a group each): up to C elements a thread in C * sizeof(T) / 4 words,
 * nothing staged in shared memory, nothing streamed, each exponential taken twice (for the sum and
 * for the store) as ROW's packed kernels take them. hsm_split_body's staged and streamed cases cost
 * such a row most of its instructions: bf16 64 x 128256 ran about 32 a element there, the work of a
 * row's addresses and bounds spread over 63 elements a thread (H100 source counters,
 * bench/results/h100-2026-11-26-decode-ncu.md). Block j takes n = a.staged packs a thread (at most
 * C / E), its share of the row laid out from the line that holds the row's start: the plan's k
 * blocks of n packs cover the row and its lead. */
template <typename T, int C, bool LOG = false>
__device__ __forceinline__ void hsm_split_held_body(const hsm_args a)
{
    constexpr int E = 16 / (int)sizeof(T); /* elements a 16-byte pack */
    constexpr int NP = C / E;
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS], wpairs[2][2 * HSM_MAX_WARPS];
    const int lane = (int)threadIdx.x % HSM_WARP_SIZE, warp = (int)threadIdx.x / HSM_WARP_SIZE;
    const int nwarps = ((int)blockDim.x + HSM_WARP_SIZE - 1) / HSM_WARP_SIZE;
    const int k = a.blocks_per_row;
    const int64_t ngroups = gridDim.x / k;
    const int64_t g = blockIdx.x / k;
    const int j = blockIdx.x % k;
    if (g >= ngroups)
        return;
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    const int n = a.staged < NP ? a.staged : NP;
    const int64_t step = (int64_t)blockDim.x * E;
    const int64_t first = (int64_t)j * n * step + (int64_t)threadIdx.x * E;
    uint32_t w[4 * NP];
    int parity = 0;
    unsigned tag = a.epoch; /* the round's (hsm_split_slots) */
    for (int64_t row = g; row < a.rows; row += ngroups, parity ^= 1, tag++) {
        const T *xr = x + row * a.x_stride;
        const int64_t f0 = first - hsm_line_lead<T, E>(xr); /* pack 0's column */
        /* Pack p at column f0 + p step, held where it lies in the row (one unsigned compare: a column
         * before the row's start is a large one) and p < n. */
        auto in_row = [&](int p) { return p < n && (uint64_t)(f0 + p * step) < (uint64_t)a.cols; };
#pragma unroll
        for (int p = 0; p < NP; p++)
            hsm_words_load<T>(w + 4 * p, xr + f0 + p * step, in_row(p));
        /* This block's (max, sum) with one block barrier: each warp's max and the sum of its
         * exponentials from it, then every warp folds the warps' pairs. A share of only -inf gives
         * (-inf, 0) rather than NaN. */
        const float wm = hsm_warp_max(hsm_words_max<T, 4 * NP>(w), HSM_WARP_SIZE);
        float ws = 0.0f;
        hsm_expo_branch(wm == HSM_NEG_INF ? 0.0f : wm, HSM_LOG2E, [&](auto ex) {
#pragma unroll
            for (int e = 0; e < C; e++)
                ws += hsm_exp2(ex.at(hsm_word_elem<T>(w, e)));
        });
        ws = hsm_warp_sum(ws, HSM_WARP_SIZE);
        float *pairs = wpairs[parity]; /* two rows' buffers: no barrier between one row's reads and the next's writes */
        if (lane == 0) {
            pairs[2 * warp] = wm;
            pairs[2 * warp + 1] = ws;
        }
        __syncthreads();
        const float pm = lane < nwarps ? pairs[2 * lane] : HSM_NEG_INF;
        const float bm = hsm_warp_max(pm, HSM_WARP_SIZE);
        const float bs = hsm_warp_sum(lane < nwarps ? pairs[2 * lane + 1] * hsm_rescale_k(pm, bm, HSM_LOG2E) : 0.0f,
                                      HSM_WARP_SIZE);
        float mx = bm, sum = bs;
        if (k > 1) {
            /* Thread 0 publishes and crosses the group barrier; the block waits at one barrier. */
            uint64_t *slots = hsm_split_slots(a, parity, g, k);
            hsm_split_arrive(a, g, slots, k, j, tag, bm, bs);
            /* Loads in flight a lane: 1 for 16-bit rows, 2 for fp32 (16-byte pairs); more spilled
             * (sm_90) under the 64 registers a 1024-thread block leaves. */
            if (k <= HSM_SPLIT_WARP_COMBINE_MAX)
                hsm_split_combine_warp<sizeof(T) == 2 ? 1 : 2>(slots, k, tag, &mx, &sum);
            else
                hsm_split_combine(slots, k, tag, red_max, red_sum, &mx, &sum);
        }
        /* The store converts again from the words (hsm_row_packed_body says why). */
#pragma unroll
        for (int i = 0; i < 4 * NP; i++)
            w[i] = hsm_opaque(w[i]);
        hsm_split_words_store<T, NP, LOG>(w, y + row * a.y_stride + f0, step, mx, sum, in_row);
    }
}

/* The held forward's lean twin, for the decode rows the plan gives it (plan_split): blocks of
 * HSM_SPLIT_LEAN_BLOCK threads, x's rows on their 128-byte line and y's on 16 bytes (no line lead), a
 * group a row (the grid is rows * k blocks: no loop over rows), columns counted in 32 bits (the plan
 * keeps cols under HSM_SPLIT_LEAN_MAX_COLS), the block's max and sum each at a barrier of its own and
 * folded by every thread (no second round of shuffles), the group's barrier and combine as the held
 * body's. A stand-alone twin of the held body without that generality ran the decode rows 1.03-1.10x
 * as fast as the library's held kernel (H200, kernel time: fp32 16 x 131072 at 79% of a same-size
 * copy against 73%; bench/results/h200-2026-12-01-decode-held.md), which executed 10-15% more
 * instructions; the same lean path as a second branch of the held kernels, under their 1024-thread
 * bound, spilled 4-16 bytes and lost 2-4%. As kernels of their own under a 128-thread bound (62
 * registers, none spilled), against the held kernels on the same rows: fp32 8 x 262144 1.045-1.057x
 * (74% of a same-size copy), 4 x 262144 1.059x, 1 x 524288 1.065-1.071x, 16 x 131072 1.046-1.051x,
 * bf16 4 x 262144 1.085-1.092x, fp16 16 x 262144 1.037-1.043x, 16-bit 64 x 128256 0.995-1.003x; the
 * block's (max, sum) at one barrier, folded by each thread (56-60 registers), ran 1-3% slower at 1-16
 * rows and within 0.7% either way at 32-64 (H200, kernel time, three runs in two commands;
 * bench/results/h200-2026-12-01-decode-lean.md). The _log twins (LOG), against the staged _v_log
 * kernels the plan gave the log-softmax's decode rows before: 1.023-1.187x, each within 1.3% of the
 * softmax of its row or faster (same file, command 3). */
#define HSM_SPLIT_LEAN_BLOCK 128
template <typename T, int C, bool LOG = false>
__device__ __forceinline__ void hsm_split_lean_body(const hsm_args a)
{
    constexpr int E = 16 / (int)sizeof(T); /* elements a 16-byte pack */
    constexpr int NP = C / E;
    constexpr int NW = HSM_SPLIT_LEAN_BLOCK / HSM_WARP_SIZE;
    constexpr int step = HSM_SPLIT_LEAN_BLOCK * E;
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS];
    const int lane = (int)threadIdx.x % HSM_WARP_SIZE, warp = (int)threadIdx.x / HSM_WARP_SIZE;
    const int k = a.blocks_per_row;
    const int64_t row = blockIdx.x / k;
    const int j = (int)(blockIdx.x % k);
    if (row >= a.rows)
        return;
    const int n = a.staged < NP ? a.staged : NP; /* packs a thread: the plan spreads the row evenly */
    const int cols = (int)a.cols;
    const int first = (j * n * HSM_SPLIT_LEAN_BLOCK + (int)threadIdx.x) * E; /* pack 0's column */
    const T *xr = (const T *)a.x + row * a.x_stride + first;
    auto in_row = [&](int p) { return p < n && first + p * step < cols; };
    uint32_t w[4 * NP];
#pragma unroll
    for (int p = 0; p < NP; p++)
        hsm_words_load<T>(w + 4 * p, xr + p * step, in_row(p));
    /* The block's max, then the sum of its exponentials from it; a share of only -inf gives (-inf, 0)
     * rather than NaN. Two arrays: no barrier between the max's reads and the sum's writes. Folded
     * here, not by hip/softmax_common.h's hsm_block_sum_few and a max twin of it: with the helper's
     * compares on the warp count the 16-bit twins ran 0.984-1.004x (bf16 8 x 262144 0.984-0.989x),
     * without them (its unsigned lane arithmetic left) fp16 16 x 262144's softmax and log-softmax
     * 0.988-0.992x (H200, kernel time; bench/results/h200-2026-12-02-lean-fold.md). */
    float m = hsm_warp_max(hsm_words_max<T, 4 * NP>(w), HSM_WARP_SIZE);
    if (lane == 0)
        red_max[warp] = m;
    __syncthreads();
    m = red_max[0];
#pragma unroll
    for (int i = 1; i < NW; i++)
        m = hsm_max(m, red_max[i]);
    float s = 0.0f;
    hsm_expo_branch(m == HSM_NEG_INF ? 0.0f : m, HSM_LOG2E, [&](auto ex) {
#pragma unroll
        for (int e = 0; e < C; e++)
            s += hsm_exp2(ex.at(hsm_word_elem<T>(w, e)));
    });
    s = hsm_warp_sum(s, HSM_WARP_SIZE);
    if (lane == 0)
        red_sum[warp] = s;
    __syncthreads();
    s = red_sum[0];
#pragma unroll
    for (int i = 1; i < NW; i++)
        s += red_sum[i];
    float mx = m, sum = s;
    if (k > 1) {
        /* The round's tag is the launch's (a group a row: one round). The arrival's block barrier
         * also orders the reads of red_max and red_sum above before hsm_split_combine's writes. */
        uint64_t *slots = hsm_split_slots(a, 0, row, k);
        hsm_split_arrive(a, row, slots, k, j, a.epoch, m, s);
        if (k <= HSM_SPLIT_WARP_COMBINE_MAX)
            hsm_split_combine_warp<sizeof(T) == 2 ? 1 : 2>(slots, k, a.epoch, &mx, &sum);
        else
            hsm_split_combine(slots, k, a.epoch, red_max, red_sum, &mx, &sum);
    }
    /* 16-bit stores convert again from the words (hsm_row_packed_body says why). */
    if constexpr (sizeof(T) == 2) {
#pragma unroll
        for (int i = 0; i < 4 * NP; i++)
            w[i] = hsm_opaque(w[i]);
    }
    hsm_split_words_store<T, NP, LOG>(w, (T *)a.y + row * a.y_stride + first, step, mx, sum, in_row);
}

/* hsm_split_body's LOG, in the form the kernel macro calls (BODY<T, VEC, C, F>). */
template <typename T, int VEC, int C, bool F>
__device__ __forceinline__ void hsm_split_log_body(const hsm_args a)
{
    hsm_split_body<T, VEC, C, F, true>(a);
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
#define HSM_SPLIT_KERNEL_B(NAME, T, VEC, C, BOUND, MINB, BODY, F)                                     \
    extern "C" __global__ void __launch_bounds__(BOUND, MINB) NAME(hsm_args a)                        \
    {                                                                                                 \
        BODY<T, VEC, C, F>(a);                                                                        \
    }
#define HSM_SPLIT_KERNEL(NAME, T, VEC, C, BOUND, MINB) HSM_SPLIT_KERNEL_B(NAME, T, VEC, C, BOUND, MINB, hsm_split_body, false)
#define HSM_SPLIT_ENTRY_KP(NAME, KOP, DT, VEC, C, BOUND, PEEL)                                        \
    {#NAME, (const void *)NAME, HSM_FAMILY_SPLIT, KOP, DT, VEC, C, BOUND, hsm_split_launch, PEEL, 0, 0, 0}
#define HSM_SPLIT_ENTRY_K(NAME, KOP, DT, VEC, C, BOUND) HSM_SPLIT_ENTRY_KP(NAME, KOP, DT, VEC, C, BOUND, 0)
#define HSM_SPLIT_ENTRY(NAME, DT, VEC, C, BOUND) HSM_SPLIT_ENTRY_K(NAME, HSM_KOP_PLAIN, DT, VEC, C, BOUND)

/* Two register budgets: 24 values per thread in blocks of up to 1024 threads (64 registers each), and
 * 56 in blocks of up to 256 (128 registers: more of the row per block, so fewer blocks share a row and
 * each group barrier covers more bytes); neither spills on sm_90. Each block adds what shared memory
 * its residency leaves (the plan's staged accesses). The plan picks between them (src/plan.c). */
#define HSM_SPLIT_SET(SFX, T, DT, VEC)                                                                \
    HSM_SPLIT_KERNEL(hsm_split_##SFX##_s, T, 1, 12, 1024, 1)                                          \
    HSM_SPLIT_KERNEL(hsm_split_##SFX##_v, T, VEC, 24, 1024, 1)                                        \
    HSM_SPLIT_KERNEL(hsm_split_##SFX##_sw, T, 1, 24, 256, 2)                                          \
    HSM_SPLIT_KERNEL(hsm_split_##SFX##_vw, T, VEC, 56, 256, 2)
#define HSM_SPLIT_SET_ENTRIES(SFX, DT, VEC)                                                           \
    HSM_SPLIT_ENTRY(hsm_split_##SFX##_s, DT, 1, 12, 1024), HSM_SPLIT_ENTRY(hsm_split_##SFX##_v, DT, VEC, 24, 1024), \
        HSM_SPLIT_ENTRY(hsm_split_##SFX##_sw, DT, 1, 24, 256),                                        \
        HSM_SPLIT_ENTRY(hsm_split_##SFX##_vw, DT, VEC, 56, 256)

/* The forward with options (_fwd): smaller register chunks than the plain ones (the options' code
 * paths spill beside a full one), more in shared memory. CV, the 1024-thread kernel's chunk: 12 fp32
 * values (16 spilled 32 bytes under the 64-register cap, and fp32 log-softmax 4096 x 65536 ran at 76%
 * of the copy bandwidth against the plain kernel's 90%), 8 16-bit ones. The backward (_bwd) holds y and dy: half the values
 * per thread in registers, its shared memory 8 bytes a column. */
#define HSM_SPLIT_OP_SET(SFX, T, VEC, CV)                                                             \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_s_fwd, T, 1, 8, 1024, 1, hsm_split_body, true)               \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_v_fwd, T, VEC, CV, 1024, 1, hsm_split_body, true)            \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_sw_fwd, T, 1, 16, 256, 2, hsm_split_body, true)              \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_vw_fwd, T, VEC, 40, 256, 2, hsm_split_body, true)            \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_s_bwd, T, 1, 6, 1024, 1, hsm_split_bwd_body, true)           \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_v_bwd, T, VEC, 8, 1024, 1, hsm_split_bwd_body, true)         \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_sw_bwd, T, 1, 12, 256, 2, hsm_split_bwd_body, true)          \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_vw_bwd, T, VEC, 24, 256, 2, hsm_split_bwd_body, true)
#define HSM_SPLIT_OP_SET_ENTRIES(SFX, DT, VEC, CV)                                                    \
    HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_s_fwd, HSM_KOP_FWD, DT, 1, 8, 1024),                          \
        HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_v_fwd, HSM_KOP_FWD, DT, VEC, CV, 1024),                   \
        HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_sw_fwd, HSM_KOP_FWD, DT, 1, 16, 256),                     \
        HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_vw_fwd, HSM_KOP_FWD, DT, VEC, 40, 256),                   \
        HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_s_bwd, HSM_KOP_BWD, DT, 1, 6, 1024),                      \
        HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_v_bwd, HSM_KOP_BWD, DT, VEC, 8, 1024),                    \
        HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_sw_bwd, HSM_KOP_BWD, DT, 1, 12, 256),                     \
        HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_vw_bwd, HSM_KOP_BWD, DT, VEC, 24, 256)

HSM_SPLIT_SET(f32, float, HSM_F32, 4)
HSM_SPLIT_SET(f16, hsm_f16, HSM_F16, 8)
HSM_SPLIT_SET(bf16, hsm_bf16, HSM_BF16, 8)
HSM_SPLIT_OP_SET(f32, float, 4, 12)
HSM_SPLIT_OP_SET(f16, hsm_f16, 8, 8)
HSM_SPLIT_OP_SET(bf16, hsm_bf16, 8, 8)
/* The backward's vector kernels peeled (hsm_split_bwd_body's P) for rows at any element offset, which
 * otherwise take the scalar kernels (bf16 4096 x 50257 at 0.60 of its aligned neighbour's speed, H200,
 * bench/results/h200-2026-11-23-peel.md). */
#define HSM_SPLIT_BWD_PEEL_KERNEL(NAME, T, VEC, C, BOUND, MINB)                                       \
    extern "C" __global__ void __launch_bounds__(BOUND, MINB) NAME(hsm_args a)                        \
    {                                                                                                 \
        hsm_split_bwd_body<T, VEC, C, true, true>(a);                                                 \
    }
#define HSM_SPLIT_BWD_PEEL_SET(SFX, T, VEC)                                                           \
    HSM_SPLIT_BWD_PEEL_KERNEL(hsm_split_##SFX##_v_peel_bwd, T, VEC, 8, 1024, 1)                       \
    HSM_SPLIT_BWD_PEEL_KERNEL(hsm_split_##SFX##_vw_peel_bwd, T, VEC, 24, 256, 2)
#define HSM_SPLIT_BWD_PEEL_SET_ENTRIES(SFX, DT, VEC)                                                  \
    HSM_SPLIT_ENTRY_KP(hsm_split_##SFX##_v_peel_bwd, HSM_KOP_BWD, DT, VEC, 8, 1024, 1),              \
        HSM_SPLIT_ENTRY_KP(hsm_split_##SFX##_vw_peel_bwd, HSM_KOP_BWD, DT, VEC, 24, 256, 1)
HSM_SPLIT_BWD_PEEL_SET(f32, float, 4)
HSM_SPLIT_BWD_PEEL_SET(f16, hsm_f16, 8)
HSM_SPLIT_BWD_PEEL_SET(bf16, hsm_bf16, 8)
/* The held kernels (hsm_split_held_body), last in the table with their _log twins (hsm_split_held): 64
 * 16-bit values or 32 fp32 ones a thread in 32 words, in blocks of up to 1024 threads (64 registers
 * each). */
#define HSM_SPLIT_HELD_KERNEL(NAME, T, C, LOG)                                                        \
    extern "C" __global__ void __launch_bounds__(1024, 1) NAME(hsm_args a)                          \
    {                                                                                                 \
        hsm_split_held_body<T, C, LOG>(a);                                                            \
    }
HSM_SPLIT_HELD_KERNEL(hsm_split_f32_held, float, 32, false)
HSM_SPLIT_HELD_KERNEL(hsm_split_f16_held, hsm_f16, 64, false)
HSM_SPLIT_HELD_KERNEL(hsm_split_bf16_held, hsm_bf16, 64, false)
/* The plain log-softmax (kop HSM_KOP_LOG; src/plan.c's hsm_plan_get): the plain kernels' twins with
 * LOG (the scalar ones take rows off 16 bytes), for the reasons hip/softmax_row.hip gives for ROW's
 * _log kernels (the forward with options' kernels hold smaller register chunks: fp32 12 values a
 * thread against 24, 16-bit 8 against 24, so their groups are larger, and they have no held twins). */
#define HSM_SPLIT_LOG_SET(SFX, T, VEC)                                                                \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_s_log, T, 1, 12, 1024, 1, hsm_split_log_body, false)         \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_v_log, T, VEC, 24, 1024, 1, hsm_split_log_body, false)       \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_sw_log, T, 1, 24, 256, 2, hsm_split_log_body, false)         \
    HSM_SPLIT_KERNEL_B(hsm_split_##SFX##_vw_log, T, VEC, 56, 256, 2, hsm_split_log_body, false)
#define HSM_SPLIT_LOG_SET_ENTRIES(SFX, DT, VEC)                                                       \
    HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_s_log, HSM_KOP_LOG, DT, 1, 12, 1024),                         \
        HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_v_log, HSM_KOP_LOG, DT, VEC, 24, 1024),                   \
        HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_sw_log, HSM_KOP_LOG, DT, 1, 24, 256),                     \
        HSM_SPLIT_ENTRY_K(hsm_split_##SFX##_vw_log, HSM_KOP_LOG, DT, VEC, 56, 256)
HSM_SPLIT_LOG_SET(f32, float, 4)
HSM_SPLIT_LOG_SET(f16, hsm_f16, 8)
HSM_SPLIT_LOG_SET(bf16, hsm_bf16, 8)
HSM_SPLIT_HELD_KERNEL(hsm_split_f32_held_log, float, 32, true)
HSM_SPLIT_HELD_KERNEL(hsm_split_f16_held_log, hsm_f16, 64, true)
HSM_SPLIT_HELD_KERNEL(hsm_split_bf16_held_log, hsm_bf16, 64, true)
/* The held kernels' lean twins (hsm_split_lean_body) and their _log twins, last in the table
 * (hsm_split_held, hsm_split_lean): blocks of 128 threads, so up to 255 registers a thread where the
 * plan's occupancy allows (it reads the compiled count). */
#define HSM_SPLIT_LEAN_KERNEL(NAME, T, C, LOG)                                                        \
    extern "C" __global__ void __launch_bounds__(HSM_SPLIT_LEAN_BLOCK) NAME(hsm_args a)               \
    {                                                                                                 \
        hsm_split_lean_body<T, C, LOG>(a);                                                            \
    }
HSM_SPLIT_LEAN_KERNEL(hsm_split_f32_held_lean, float, 32, false)
HSM_SPLIT_LEAN_KERNEL(hsm_split_f16_held_lean, hsm_f16, 64, false)
HSM_SPLIT_LEAN_KERNEL(hsm_split_bf16_held_lean, hsm_bf16, 64, false)
HSM_SPLIT_LEAN_KERNEL(hsm_split_f32_held_lean_log, float, 32, true)
HSM_SPLIT_LEAN_KERNEL(hsm_split_f16_held_lean_log, hsm_f16, 64, true)
HSM_SPLIT_LEAN_KERNEL(hsm_split_bf16_held_lean_log, hsm_bf16, 64, true)
#define HSM_SPLIT_LEAN_COUNT 6
#define HSM_SPLIT_HELD_COUNT (6 + HSM_SPLIT_LEAN_COUNT)

static const hsm_kernel hsm_split_table[] = {
    HSM_SPLIT_SET_ENTRIES(f32, HSM_F32, 4),
    HSM_SPLIT_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_SPLIT_SET_ENTRIES(bf16, HSM_BF16, 8),
    HSM_SPLIT_OP_SET_ENTRIES(f32, HSM_F32, 4, 12),
    HSM_SPLIT_OP_SET_ENTRIES(f16, HSM_F16, 8, 8),
    HSM_SPLIT_OP_SET_ENTRIES(bf16, HSM_BF16, 8, 8),
    HSM_SPLIT_BWD_PEEL_SET_ENTRIES(f32, HSM_F32, 4),
    HSM_SPLIT_BWD_PEEL_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_SPLIT_BWD_PEEL_SET_ENTRIES(bf16, HSM_BF16, 8),
    HSM_SPLIT_LOG_SET_ENTRIES(f32, HSM_F32, 4),
    HSM_SPLIT_LOG_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_SPLIT_LOG_SET_ENTRIES(bf16, HSM_BF16, 8),
    HSM_SPLIT_ENTRY(hsm_split_f32_held, HSM_F32, 4, 32, 1024),
    HSM_SPLIT_ENTRY(hsm_split_f16_held, HSM_F16, 8, 64, 1024),
    HSM_SPLIT_ENTRY(hsm_split_bf16_held, HSM_BF16, 8, 64, 1024),
    HSM_SPLIT_ENTRY_K(hsm_split_f32_held_log, HSM_KOP_LOG, HSM_F32, 4, 32, 1024),
    HSM_SPLIT_ENTRY_K(hsm_split_f16_held_log, HSM_KOP_LOG, HSM_F16, 8, 64, 1024),
    HSM_SPLIT_ENTRY_K(hsm_split_bf16_held_log, HSM_KOP_LOG, HSM_BF16, 8, 64, 1024),
    HSM_SPLIT_ENTRY(hsm_split_f32_held_lean, HSM_F32, 4, 32, HSM_SPLIT_LEAN_BLOCK),
    HSM_SPLIT_ENTRY(hsm_split_f16_held_lean, HSM_F16, 8, 64, HSM_SPLIT_LEAN_BLOCK),
    HSM_SPLIT_ENTRY(hsm_split_bf16_held_lean, HSM_BF16, 8, 64, HSM_SPLIT_LEAN_BLOCK),
    HSM_SPLIT_ENTRY_K(hsm_split_f32_held_lean_log, HSM_KOP_LOG, HSM_F32, 4, 32, HSM_SPLIT_LEAN_BLOCK),
    HSM_SPLIT_ENTRY_K(hsm_split_f16_held_lean_log, HSM_KOP_LOG, HSM_F16, 8, 64, HSM_SPLIT_LEAN_BLOCK),
    HSM_SPLIT_ENTRY_K(hsm_split_bf16_held_lean_log, HSM_KOP_LOG, HSM_BF16, 8, 64, HSM_SPLIT_LEAN_BLOCK),
};

extern "C" const hsm_kernel *hsm_split_kernels(size_t *count)
{
    *count = sizeof hsm_split_table / sizeof hsm_split_table[0];
    return hsm_split_table;
}

extern "C" int hsm_split_held(const hsm_kernel *k)
{
    const size_t n = sizeof hsm_split_table / sizeof hsm_split_table[0];
    return k >= hsm_split_table + n - HSM_SPLIT_HELD_COUNT && k < hsm_split_table + n;
}

extern "C" int hsm_split_lean(const hsm_kernel *k)
{
    const size_t n = sizeof hsm_split_table / sizeof hsm_split_table[0];
    return k >= hsm_split_table + n - HSM_SPLIT_LEAN_COUNT && k < hsm_split_table + n;
}
