/* softmax_split.hip: the family for rows longer than one block's registers hold, and for few long rows.
 * A group of `blocks_per_row` co-resident blocks (a cooperative launch guarantees co-residency; one
 * block, with no exchange, where the row fits one block's registers and shared memory) shares a row:
 * each block keeps its chunk of the row on chip, in registers and in the shared memory/LDS the plan
 * gives it, the group exchanges per-block (max, sum) through a small workspace and a group barrier,
 * and each block then writes its chunk from there, so DRAM is read once. Columns past what the group
 * holds (rows longer than the whole GPU holds on chip) are streamed with an online (max, sum) and
 * re-read in reverse order, so the re-read finds them in L2. */
#include "softmax_common.h"

#define HSM_SPLIT_UNROLL 2        /* accesses in flight per thread on the streamed columns */
#define HSM_SPLIT_COMBINE_LOADS 4 /* partials in flight per thread when a group combines them */

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

/* Workspace: a (count, generation) barrier pair per possible group, each pair alone in a 128-byte
 * cache line, then (max, sum) per block for two rounds. Groups whose barrier words shared a line
 * slowed each other's atomics and spinning: 8 groups of 128 blocks (M=32, N=1M fp32, H200) ran at
 * 66% of the copy bandwidth with adjacent pairs and 74% with a line each. The layout depends only on
 * the workspace's size, never on a launch's grid: the barrier words of one launch must never lie
 * where another launch wrote partials. */
#define HSM_SPLIT_BAR_WORDS 32 /* 128 bytes: the cache line of both vendors' L2 */
extern "C" size_t hsm_split_workspace_bytes(int grid)
{
    return (size_t)grid * (HSM_SPLIT_BAR_WORDS * sizeof(unsigned) + 2 * 2 * sizeof(float));
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

/* The row's (max, sum) from the k partials of its group, in the same order in every block so that all
 * get bit-identical results: one pass over (max, sum) pairs with HSM_SPLIT_COMBINE_LOADS loads in
 * flight per thread (a group can have a thousand blocks; one L2 round trip per partial would stall
 * every row). */
__device__ __forceinline__ void hsm_split_combine(const float *grp, int k, float *red_max, float *red_sum, float *mx,
                                                  float *sum)
{
    float cm = HSM_NEG_INF, cs = 0.0f;
    for (int i0 = threadIdx.x; i0 < k; i0 += HSM_SPLIT_COMBINE_LOADS * blockDim.x) {
        float pm[HSM_SPLIT_COMBINE_LOADS], ps[HSM_SPLIT_COMBINE_LOADS];
#pragma unroll
        for (int u = 0; u < HSM_SPLIT_COMBINE_LOADS; u++) {
            const int i = i0 + u * blockDim.x;
            pm[u] = HSM_NEG_INF;
            ps[u] = 0.0f;
            if (i < k)
                hsm_load_pair_coherent(grp + 2 * i, &pm[u], &ps[u]);
        }
#pragma unroll
        for (int u = 0; u < HSM_SPLIT_COMBINE_LOADS; u++) {
            const float nm = hsm_max(cm, pm[u]);
            cs = cs * hsm_rescale(cm, nm) + ps[u] * hsm_rescale(pm[u], nm);
            cm = nm;
        }
    }
    *mx = hsm_block_max(cm, red_max);
    *sum = hsm_block_sum(cs * hsm_rescale(cm, *mx), red_sum);
}

/* Folds staged tile t (this thread's HSM_SPLIT_STAGE_PACKS accesses) into a running (max om, sum os).
 * 16-byte packs are read as 32-bit words: 16-bit elements each in a register of their own would
 * spill, and hsm_words_max compares 16-bit pairs as stored. */
template <typename T, int VEC>
__device__ __forceinline__ void hsm_stage_tile_fold(const hsm_pack<T, VEC> *stage, int t, int64_t scol0, int staged,
                                                    int64_t cols, float &om, float &os)
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
                ts += hsm_exp(PW > 0 ? hsm_word_elem<T>(tw + q * PW, i) : te[q], sh);
        }
    }
    os = os * hsm_rescale(om, sh) + ts;
    om = nm;
}

template <typename T, int VEC, int C>
__device__ __forceinline__ void hsm_split_body(const hsm_args a)
{
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
    unsigned *bar = a.workspace + HSM_SPLIT_BAR_WORDS * g;
    volatile float *part = (volatile float *)(a.workspace + HSM_SPLIT_BAR_WORDS * (size_t)a.workspace_blocks);
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
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
     * through registers, and are made at the start of each row. */
    constexpr bool ahead = sizeof(hsm_pack<T, VEC>) == 16; /* where the copy is asynchronous */
    constexpr bool raw_ahead = ahead && sizeof(T) == 2;
    for (int t = 0; ahead && g < a.rows && t < stiles; t++)
        hsm_stage_tile_issue<T, VEC>(stage, x + g * a.x_stride, t, scol0 - hsm_line_lead<T, VEC>(x + g * a.x_stride),
                                     staged, a.cols);
    for (int64_t row = g; row < a.rows; row += ngroups, parity ^= 1) {
        const T *xr = x + row * a.x_stride;
        T *yr = y + row * a.y_stride;
        const int more = ahead && row + ngroups < a.rows;
        const T *xn = x + (more ? row + ngroups : row) * a.x_stride;
        /* The group lays each row out from the line that holds its start (hsm_line_lead): this row's
         * columns at c0 and s0 instead of col0 and scol0, the next row's at s0n. The plan leaves room
         * for the lead where rows can start off a line. */
        const int lead = hsm_line_lead<T, VEC>(xr);
        const int64_t c0 = col0 - lead, s0 = scol0 - lead;
        int64_t ntiles = line_ntiles; /* computed once: per row, it spilled in the scalar kernels */
        if constexpr (ahead)
            ntiles = streamed_tiles(rest + lead);
        for (int t = 0; !ahead && t < stiles; t++)
            hsm_stage_tile_issue<T, VEC>(stage, xr, t, s0, staged, a.cols);
        if (!raw_ahead || row == g)
            hsm_chunk_load_raw<T, VEC, C / VEC>(raw, xr, c0, a.cols);
        /* Held as words until converted, for the reason hsm_stage_tile_fold gives. */
        static_assert(sizeof(raw) % 4 == 0, "a register chunk of whole words");
        uint32_t rw[sizeof(raw) / 4];
        __builtin_memcpy(rw, raw, sizeof raw);
        float om = HSM_NEG_INF, os = 0.0f;
        for (int t = 0; t < stiles; t++) {
            hsm_copy_async_wait_pending(stiles - 1 - t);
            hsm_stage_tile_fold<T, VEC>(stage, t, s0, staged, a.cols, om, os);
        }
        for (int64_t t = 0; t < ntiles; t++) {
            const int64_t t0 = resident + (t * k + j) * tile - lead;
            const float wmax = hsm_chunk_load<T, VEC, U>(xr, t0, a.cols, threadIdx.x, blockDim.x, w);
            hsm_online_fold<U>(w, wmax, om, os);
        }
        const float lm = hsm_words_max<T, (int)sizeof(rw) / 4>(rw);
#pragma unroll
        for (int i = 0; i < C; i++)
            v[i] = hsm_word_elem<T>(rw, i);

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
        /* A group of one block (a row that fits one block's registers and shared memory) needs no
         * exchange: its (max, sum) is the row's. */
        float mx = bm, sum = bs;
        if (k > 1) {
            volatile float *mine = part + 2 * ((size_t)parity * gridDim.x + blockIdx.x);
            if (threadIdx.x == 0) {
                mine[0] = bm;
                mine[1] = bs;
            }
            hsm_group_barrier(bar, (unsigned)k);
            hsm_split_combine((const float *)part + 2 * ((size_t)parity * gridDim.x + (size_t)g * k), k, red_max,
                              red_sum, &mx, &sum);
        }

        hsm_chunk_store<T, VEC, C>(yr, c0, a.cols, threadIdx.x, blockDim.x, v, hsm_rescale(bm, mx) / sum);
        const int lead_n = hsm_line_lead<T, VEC>(xn);
        if (raw_ahead && more)
            hsm_chunk_load_raw<T, VEC, C / VEC>(raw, xn, col0 - lead_n, a.cols);
        const int64_t s0n = scol0 - lead_n;
        const float inv = 1.0f / sum;
        for (int t = 0; t < stiles; t++) {
#pragma unroll
            for (int q = 0; q < HSM_SPLIT_STAGE_PACKS; q++) {
                const int p = t * HSM_SPLIT_STAGE_PACKS + q;
                const int64_t col = hsm_staged_col(s0, p, staged, a.cols, VEC);
                if (col >= 0) {
                    const hsm_pack<T, VEC> pk = stage[p * blockDim.x + threadIdx.x];
                    float f[VEC];
#pragma unroll
                    for (int i = 0; i < VEC; i++)
                        f[i] = hsm_exp(hsm_to_float(pk.v[i]), mx);
                    hsm_store<T, VEC>(yr + col, f, inv);
                }
            }
            /* Each thread copies into only the slots it read itself, just above: no block barrier. */
            if (more)
                hsm_stage_tile_issue<T, VEC>(stage, xn, t, s0n, staged, a.cols);
        }
        for (int64_t t = ntiles - 1; t >= 0; t--) {
            const int64_t t0 = resident + (t * k + j) * tile - lead;
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
