/* softmax_row.hip: the row family (the Triton tutorial's kernel). A block holds one row in registers,
 * C elements per thread, reads it once and writes it once, then moves on to the row `gridDim.x`
 * further: the plan launches a block a row on large problems, and the blocks the SMs hold at once
 * (sized from the kernel's occupancy) on small ones (src/plan.c's HSM_BLOCK_A_ROW_MIN_BYTES). */
#include "softmax_ops.h"

#define HSM_ROW_MAX_BLOCK 1024
/* The packed backward's largest block (hsm_row_packed_bwd_body): a thread holds C of y and of dy, so
 * rows of up to 256 C columns (16-bit C = 32: 8192; fp32 C = 16: 4096); its 16-bit _p32_b512 kernels
 * run blocks of HSM_ROW_PACKED_BWD_WIDE_BLOCK (rows of up to 16384 columns) at
 * HSM_ROW_PACKED_BWD_WIDE_REGS registers a thread, two blocks a SM on NVIDIA's 64K-register file. */
#define HSM_ROW_PACKED_BWD_BLOCK 256
#define HSM_ROW_PACKED_BWD_WIDE_BLOCK 512
#define HSM_ROW_PACKED_BWD_WIDE_REGS 64

/* The fp32 _shift twins' stores (hsm_row_body's S): y K elements past x's packs (K = 1 to 3), the
 * values v already scaled, laid out a warp's packs one after another (pack p of lane l at col0 +
 * (p W + l) 4, W lanes a warp, pack 0 moved `wrap` on before the row's start, as hsm_chunk_load).
 * Each lane stores the 16-byte y pack that starts K elements into its pack, with the next pack's
 * first K elements from lane + 1 (the last lane: from lane 0's next pack; one shuffle each), as
 * hsm_row_packed_body's S does for 16-bit rows; the elements no lane's y pack takes (a pack whose
 * neighbour is not the next lane's: the warp's two ends, the row's first and last whole packs, pack
 * 0's wrap) go out one at a time. The last lane reading the next warp's first pack again to store its
 * y pack whole spilled and ran 0.97x (bench/results/h200-2026-11-29-row-shift-f32.md). `bound`:
 * hsm_peel_bound's. */
template <int K, int C>
__device__ __forceinline__ void hsm_row_shift_store(float *yr, int col0, int bound, int lane, const float *v, int wrap)
{
    constexpr int NP = C / 4;
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int c = col0 + (p * HSM_WARP_SIZE + lane) * 4; /* before the wrap */
        const int col = p == 0 && c < 0 ? c + wrap : c;
        const float *o = v + 4 * p;
        float b[K];
#pragma unroll
        for (int i = 0; i < K; i++)
            b[i] = hsm_shfl_idx(lane == 0 && p + 1 < NP ? v[4 * (p + 1) + i] : o[i], (lane + 1) % HSM_WARP_SIZE);
        const bool ok = (unsigned)col < (unsigned)bound;
        /* next: the lane after (the last lane: lane 0, a pack on) holds the next pack of the row,
         * both or neither moved by the wrap; covered: the lane before stores this pack's first K. */
        const bool next = (lane < HSM_WARP_SIZE - 1 || p < NP - 1) && (c >= 0 || c < -4) && col + 4 < bound;
        const bool covered = p > 0 || (lane > 0 && (c < 0 || c >= 4));
        if (ok && next) {
            float out[4];
#pragma unroll
            for (int i = 0; i < 4; i++)
                out[i] = i + K < 4 ? o[i + K] : b[i + K - 4 >= 0 ? i + K - 4 : 0];
            hsm_store<float, 4>(yr + col + K, out, 1.0f);
        }
        if (ok && !covered) {
#pragma unroll
            for (int i = 0; i < K; i++)
                yr[col + i] = o[i];
        }
        if (ok && !next) {
#pragma unroll
            for (int i = K; i < 4; i++)
                yr[col + i] = o[i];
        }
    }
}

/* The _stage kernels' second half: y's row of `cols` elements written from its image in shared
 * memory, `mem` (column c at mem[c + y's offset from its 16 bytes], so that mem's 16-byte packs are
 * y's): its head an element each, its 16-byte packs, its tail an element each. After the block's
 * barrier. */
template <typename T>
__device__ __forceinline__ void hsm_row_stage_write(T *yr, const T *mem, int cols)
{
    constexpr int V = 16 / sizeof(T);
    const int off = hsm_pack_lead(yr), to16 = (V - off) % V, head = to16 < cols ? to16 : cols;
    const T *sr = mem + off;
    const int t = (int)threadIdx.x, width = (int)blockDim.x;
    const int whole = (cols - head) / V, tail = head + V * whole;
    if (t < head)
        yr[t] = sr[t];
    const hsm_pack<uint32_t, 4> *sp = reinterpret_cast<const hsm_pack<uint32_t, 4> *>(mem) + (off > 0);
    for (int q = t; q < whole; q += width) {
        const hsm_pack<uint32_t, 4> pk = sp[q];
        hsm_store16_streaming(yr + head + V * q, &pk);
    }
    if (t < cols - tail)
        yr[tail + t] = sr[tail + t];
}

/* The fp32 _stage kernels' stores (hsm_row_body's G): each value of the row, already scaled, into
 * dynamic shared memory at its column plus y's offset from 16 bytes, the edge element ev at its
 * column ec (hsm_peel_col's, or -1), a block barrier, then y written from its own 16-byte boundary
 * (hsm_row_stage_write). x's packs are read from x's
 * lines and y's written from y's, so no y pack straddles two 32-byte sectors, which the _shift twins'
 * shuffled packs do on the rows where x and y lie at different offsets (Nsight Compute, 4096 x 12344,
 * x rows 12345 apart: 4.7% more DRAM bytes written than the dense rows; the staged stand-alone wrote
 * the dense rows' bytes exactly: bench/results/h200-2026-12-02-shift-stage.md). Pack p of thread t at
 * col0 + (p blockDim + t) 4 as hsm_chunk_store's, pack 0 moved `wrap` on before the row's start.
 * Shared memory: cols + 3 values (src/plan.c's row_stage_bytes). The next row's values go in only
 * after its block reductions' barriers, which every thread passes after this row's stores. */
template <int C>
__device__ __forceinline__ void hsm_row_stage_store(float *yr, int col0, int bound, const float *v, float mul, int wrap,
                                                    int cols, int ec, float ev)
{
    extern __shared__ __align__(16) float hsm_row_stage_mem[];
    const int off = hsm_pack_lead(yr);
    float *sr = hsm_row_stage_mem + off; /* column c at sr[c]; its 16-byte packs y's */
    const int t = (int)threadIdx.x, width = (int)blockDim.x;
#pragma unroll
    for (int p = 0; p < C / 4; p++) {
        int col = col0 + (p * width + t) * 4;
        if (p == 0 && col < 0)
            col += wrap;
        if ((unsigned)col < (unsigned)bound) {
#pragma unroll
            for (int i = 0; i < 4; i++)
                sr[col + i] = v[4 * p + i] * mul;
        }
    }
    if (ec >= 0)
        sr[ec] = ev;
    __syncthreads();
    hsm_row_stage_write(yr, hsm_row_stage_mem, cols);
}

/* P: peeled (hsm_peel_col): rows at any element offset, the output's at the same offset from 16 bytes
 * as the input's or another. P false compiles to the kernels as they were before P. The edge element
 * is held as its value alone (its column is found again for the store). S (fp32, with P: the _shift
 * twins): a warp's packs one after another (hsm_row_shift_store), so that where y lies at another
 * offset from 16 bytes than x, y is written in 16-byte packs too, where the peeled kernels write it
 * an element at a time. G (fp32, with P: the _stage kernels, the plain forward's and the
 * log-softmax's): the peeled kernel's layout, y through shared memory where its rows lie at another
 * offset than x's (hsm_row_stage_store). */
template <typename T, int VEC, int C, bool P = false, bool LOG = false, bool S = false, bool G = false>
__device__ __forceinline__ void hsm_row_body(const hsm_args a)
{
    static_assert(!S || (P && !LOG && sizeof(T) == 4 && VEC == 4), "S: the plain fp32 forward's peeled twins");
    static_assert(!G || (P && !S && sizeof(T) == 4 && VEC == 4), "G: the plain fp32 forward's and log-softmax's peeled twins");
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS];
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    float v[C];
    /* S: pack p of lane l of warp w at column (w C + (p W + l) VEC) - lead, a warp's packs one after
     * another (W lanes a warp); else pack p of thread t at (p blockDim + t) VEC - lead. */
    const int lane = (int)(threadIdx.x % HSM_WARP_SIZE), base = (int)(threadIdx.x / HSM_WARP_SIZE) * C * HSM_WARP_SIZE;

    /* Each row is laid out from the line that holds its start (hsm_line_lead); the columns its lead
     * leaves at the end go to the first access of the lanes before the start (hsm_chunk_load's wrap:
     * the plan's rows are never longer than a block's chunk). The scalar path has no lead. */
    const int64_t wrap = sizeof(hsm_pack<T, VEC>) == 16 ? (int64_t)blockDim.x * C : 0;
    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
        /* A later row's lines on their way to L2 while this one is reduced and stored (plan.c's
         * HSM_ROW_AHEAD_DIV says how far and why), asked for before the loads, while no value is
         * held. */
        if (a.ahead > 0 && row + a.ahead < a.rows)
            hsm_prefetch_span(x + (row + a.ahead) * a.x_stride, a.cols * (int64_t)sizeof(T));
        const T *xr = x + row * a.x_stride;
        /* The output at another offset from 16 bytes (`shift` bytes on): 16-bit rows read x in words
         * and take y's layout, fp32 ones write y an element at a time (hsm_peel_col says why). */
        int shift = 0;
        if constexpr (P)
            shift = (int)(((uintptr_t)(y + row * a.y_stride) - (uintptr_t)xr) % 16);
        const bool load_words = sizeof(T) == 2 && shift != 0, store_elems = sizeof(T) == 4 && shift != 0;
        const int lead = hsm_line_lead<T, VEC>(load_words ? (const T *)(y + row * a.y_stride) : xr);
        const int64_t bound = P ? hsm_peel_bound<VEC>(a.cols) : a.cols;
        /* One call for each way, each with its loads unrolled and issued together (a branch per pack
         * between the two split them: bf16 4096 x 50257 went from 77% to 53% of the copy bandwidth). */
        float lm = S               ? hsm_chunk_load<T, VEC, C>(xr, base - lead, bound, lane, HSM_WARP_SIZE, v, wrap)
                   : !load_words    ? hsm_chunk_load<T, VEC, C>(xr, -lead, bound, threadIdx.x, blockDim.x, v, wrap)
                   : shift % 4 == 0 ? hsm_chunk_load<T, VEC, C>(xr, -lead, bound, threadIdx.x, blockDim.x, v, wrap, 1)
                                    : hsm_chunk_load<T, VEC, C>(xr, -lead, bound, threadIdx.x, blockDim.x, v, wrap, 2);
        /* P: this thread's edge column (hsm_peel_col), read here and written after the sum. */
        const int ec = P ? hsm_peel_col<VEC>(lead, a.cols) : -1;
        float ev = HSM_NEG_INF;
        if constexpr (P) {
            if (ec >= 0)
                ev = hsm_to_float(xr[ec]);
            lm = hsm_max(lm, ev);
        }
        const float m = hsm_block_max(lm, red_max);
        float s = 0.0f;
        if constexpr (LOG) {
            /* The plain log-softmax (the _log kernels, kop HSM_KOP_LOG): the outputs are (v - m) -
             * log(sum), as hsm_epi_value's HSM_FROM_U_LOG with sigma 1; v - m is kept from the sum's
             * exponents (hsm_exp's), so m is not held through the sum's barrier. */
#pragma unroll
            for (int i = 0; i < C; i++) {
                v[i] -= m;
                s += hsm_exp2(v[i] * HSM_LOG2E);
            }
            if constexpr (P)
                s += hsm_exp(ev, m);
            const float lns = logf(hsm_block_sum(s, red_sum));
#pragma unroll
            for (int i = 0; i < C; i++)
                v[i] -= lns;
            if (G && store_elems) {
                /* Columns in 32 bits: a block holds at most 1024 x 32 of them. */
                hsm_row_stage_store<C>((float *)(y + row * a.y_stride), -lead, (int)bound, v, 1.0f, (int)wrap,
                                       (int)a.cols, ec, (ev - m) - lns);
            } else {
                hsm_chunk_store<T, VEC, C>(y + row * a.y_stride, -lead, bound, threadIdx.x, blockDim.x, v, 1.0f,
                                           wrap, store_elems);
                if constexpr (P) {
                    if (ec >= 0)
                        y[row * a.y_stride + ec] = hsm_from_float<T>((ev - m) - lns);
                }
            }
        } else {
#pragma unroll
            for (int i = 0; i < C; i++) {
                v[i] = hsm_exp(v[i], m);
                s += v[i];
            }
            if constexpr (P) {
                ev = hsm_exp(ev, m);
                s += ev;
            }
            s = hsm_block_sum(s, red_sum);
            if constexpr (S) {
                if (store_elems) {
#pragma unroll
                    for (int i = 0; i < C; i++)
                        v[i] *= 1.0f / s;
                    float *yr = (float *)(y + row * a.y_stride);
                    /* Columns in 32 bits: a block holds at most 1024 x 32 of them. */
                    const int c0 = base - lead, b = (int)bound, wr = (int)wrap;
                    switch ((16 - shift) / 4) {
                    case 1: hsm_row_shift_store<1, C>(yr, c0, b, lane, v, wr); break;
                    case 2: hsm_row_shift_store<2, C>(yr, c0, b, lane, v, wr); break;
                    default: hsm_row_shift_store<3, C>(yr, c0, b, lane, v, wr); break;
                    }
                } else {
                    hsm_chunk_store<T, VEC, C>(y + row * a.y_stride, base - lead, bound, lane, HSM_WARP_SIZE, v,
                                               1.0f / s, wrap);
                }
            } else if (G && store_elems) {
                /* Columns in 32 bits: a block holds at most 1024 x 32 of them. */
                hsm_row_stage_store<C>((float *)(y + row * a.y_stride), -lead, (int)bound, v, 1.0f / s, (int)wrap,
                                       (int)a.cols, ec, ev * (1.0f / s));
            } else {
                hsm_chunk_store<T, VEC, C>(y + row * a.y_stride, -lead, bound, threadIdx.x, blockDim.x, v, 1.0f / s,
                                           wrap, store_elems);
            }
            if constexpr (P) {
                if (ec >= 0 && !(G && store_elems)) /* the staged store wrote it */
                    y[row * a.y_stride + ec] = hsm_from_float<T>(ev * (1.0f / s));
            }
        }
    }
}

/* Elements [E, B) of a pack of eight 16-bit values held as four words o (element e in half e % 2 of
 * word e / 2), stored at q (element E's place), each in the widest store its place allows: element e
 * lies (e - K) mod 8 elements past a 16-byte boundary (the _shift twins' y pack starts K elements into
 * x's). One to three stores a span, where a 2-byte store an element took eight, each with its own
 * predicate, in every pack of every lane. */
template <int K, int E, int B>
__device__ __forceinline__ void hsm_store_elems(uint16_t *q, const uint32_t *o)
{
    if constexpr (E < B) {
        constexpr int off = (E - K + 8) % 8 * 2; /* bytes past the 16-byte boundary */
        /* elements e and e + 1 as one word (e + 1 < 8) */
        auto word = [&](int e) { return e % 2 ? o[e / 2] >> 16 | o[e / 2 + 1] << 16 : o[e / 2]; };
        if constexpr (off % 8 == 0 && B - E >= 4) {
            hsm_pack<uint32_t, 2> w;
            w.v[0] = word(E);
            w.v[1] = word(E + 2);
            *reinterpret_cast<hsm_pack<uint32_t, 2> *>(q) = w;
            hsm_store_elems<K, E + 4, B>(q + 4, o);
        } else if constexpr (off % 4 == 0 && B - E >= 2) {
            *reinterpret_cast<uint32_t *>(q) = word(E);
            hsm_store_elems<K, E + 2, B>(q + 2, o);
        } else {
            *q = (uint16_t)(o[E / 2] >> (16 * (E % 2)));
            hsm_store_elems<K, E + 1, B>(q + 1, o);
        }
    }
}

/* 16-bit rows held as stored: C values in C / 2 registers instead of C, so a 1024-thread block holds
 * twice the row (64K columns, 128 KiB, as many bytes as the fp32 kernels hold) and shorter rows leave
 * room for twice the resident blocks. The values are converted again for the sum and for the store,
 * and each exponential computed twice: instructions traded for bytes in flight. Each thread's part is
 * C / 8 16-byte packs of four words (hsm_lo_to_float). */
template <typename T, int C, bool P = false, bool S = false, bool LOG = false, bool G = false>
__device__ __forceinline__ void hsm_row_packed_body(const hsm_args a)
{
    static_assert(!G || (P && !S && !LOG), "G: the plain forward's peeled twins");
    constexpr int NP = C / 8;
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS];
    const T *x = (const T *)a.x;
    T *y = (T *)a.y;
    uint32_t w[4 * NP];
    /* Pack p of a thread lies p * step elements after its first: one base and one step, where 64-bit
     * addresses per pack would cost the registers the row needs. The row is laid out from its line as
     * in hsm_row_body: pack 0 of the lanes before the row's start moves one chunk (a block's packs) on.
     * Peeled (P), as hsm_row_body: a pack only where it lies wholly in the row, the output's layout
     * and the input in words where their offsets differ (hsm_load_words); S (the _shift twins, with P):
     * there the input's layout instead, 16-byte loads and stores both, and lanes pass each other the
     * elements of the output's packs that straddle theirs. S needs the registers of 64 a thread: as
     * the peeled kernels' caps hold them they spilled 24-230 bytes (sm_90), and at 64 the rows that
     * fit several blocks a SM ran up to 4% slower (H100, bench/results/h100-2026-11-26-shift.md);
     * since their warps' packs lie one after another (below), the p56 and p64 twins spilled 24 and 40
     * bytes there (sm_90; 16 and 28 with the 32-bit columns below), and still ran 1.02-1.17x as fast
     * (h100-2026-11-27-shift-stores.md). G (the _stage kernels, with P): there the input's layout,
     * and the output through shared memory (y's row at y's offset from 16 bytes there, each pack in the
     * widest stores its place allows: hsm_store_elems), then written from y's 16-byte boundary
     * (hsm_row_stage_write) after a block barrier, as hsm_row_body's G.
     * Pack p of thread t is pack p blockDim + t of the row (a block's packs p side by side), except
     * in S, where a warp's packs lie one after another: lane l of warp v takes pack (v NP + p) W + l
     * (W lanes a warp). The last lane's pack p then ends where lane 0's pack p + 1 starts, and the
     * output's pack that straddles them passes in the same shuffle as the others.
     * Columns within a row are counted in 32 bits: a block holds at most 1024 x 64 of them (the plan
     * gives a kernel no longer row), and the kernel is bound by its instructions (the exponentials
     * twice), where 64-bit compares and adds take two each (the _shift twins 1.04-1.05x, H200,
     * bench/results/h200-2026-11-29-row16-bound.md). */
    const int warp_first = (int)(threadIdx.x / HSM_WARP_SIZE) * NP * HSM_WARP_SIZE;
    const int first = (S ? warp_first + (int)(threadIdx.x % HSM_WARP_SIZE) : (int)threadIdx.x) * 8;
    const int step = S ? HSM_WARP_SIZE * 8 : (int)blockDim.x * 8, chunk = (int)blockDim.x * NP * 8;
    const int need = P ? 8 : 1; /* the columns from a pack's first to the row's end it needs */
    const int cols = (int)a.cols;

    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
        if (a.ahead > 0 && row + a.ahead < a.rows) /* as in hsm_row_body */
            hsm_prefetch_span(x + (row + a.ahead) * a.x_stride, a.cols * (int64_t)sizeof(T));
        const T *xrow = x + row * a.x_stride;
        T *yrow = y + row * a.y_stride;
        /* The output at another offset from 16 bytes than the input (peeled rows): `shift` bytes on. */
        int shift = 0;
        if constexpr (P)
            shift = (int)(((uintptr_t)yrow - (uintptr_t)xrow) % 16);
        const bool y_layout = !S && !G && shift != 0;
        const int lead = hsm_line_lead<T, 8>(y_layout ? (const T *)yrow : xrow);
        /* G: y's row image in shared memory, column c at sg[c] (its 16-byte packs y's) */
        uint16_t *sg = NULL;
        if constexpr (G) {
            extern __shared__ __align__(16) uint16_t hsm_row_stage16_mem[];
            sg = hsm_row_stage16_mem + hsm_pack_lead(yrow);
        }
        const int f0 = first - lead, c0 = f0 < 0 ? f0 + chunk : f0; /* pack 0's column */
        const T *xr = xrow + f0; /* packs 1.. from here */
        T *yr = yrow + f0;
        const int left = cols - f0 - (need - 1), left0 = cols - (need - 1);
        /* The loads, each way unrolled whole (as hsm_row_body's calls of hsm_chunk_load): 16-byte
         * packs, or x's packs in words on 4 bytes or 2 bytes past them (hsm_load_words). */
        auto load = [&](auto mode) {
            constexpr int LM = decltype(mode)::value;
#pragma unroll
            for (int p = 0; p < NP; p++) {
                if (p == 0 ? c0 < left0 : p * step < left) {
                    const T *src = p == 0 ? xrow + c0 : xr + p * step;
                    if constexpr (LM == 0) {
                        const hsm_pack<uint32_t, 4> pk = *reinterpret_cast<const hsm_pack<uint32_t, 4> *>(src);
#pragma unroll
                        for (int i = 0; i < 4; i++)
                            w[4 * p + i] = pk.v[i];
                    } else {
                        hsm_load_words<LM == 2>(src, w + 4 * p);
                    }
                } else {
#pragma unroll
                    for (int i = 0; i < 4; i++)
                        w[4 * p + i] = hsm_neg_inf_word<T>();
                }
            }
        };
        if (!y_layout)
            load(hsm_int<0>{});
        else if (shift % 4 == 0)
            load(hsm_int<1>{});
        else
            load(hsm_int<2>{});
        float lm = hsm_words_max<T, 4 * NP>(w);
        float ev = HSM_NEG_INF;
        if constexpr (P) {
            /* This thread's edge column (hsm_peel_col), asked for again where it is written: held
             * across the row's barriers it cost p56's _shift twin 28 bytes of spill against 16 (ptxas,
             * sm_90). */
            const int ec = hsm_peel_col<8>(lead, a.cols);
            if (ec >= 0)
                ev = hsm_to_float(xrow[ec]);
            lm = hsm_max(lm, ev);
        }
        const float m = hsm_block_max(lm, red_max);
        /* The sum and the stores take their exponents in the form the row's max allows (hsm_expo),
         * each pass branching on it alone: one branch around both, the block's sum inside, took 6-12
         * more registers (sm_90) and spilled the peeled kernels. */
        float s = 0.0f;
        hsm_expo_branch(m, HSM_LOG2E, [&](auto ex) {
#pragma unroll
            for (int p = 0; p < NP; p++)
                hsm_words_exp_add<T>(s, w + 4 * p, ex);
            if constexpr (P)
                s += hsm_exp2(ex.at(ev));
        });
        const float norm = hsm_norm_of<T>(hsm_block_sum(s, red_sum));
        /* Left to itself the compiler keeps the sum's conversions for the store: twice the
         * registers, spilled. The store converts again from the words. */
#pragma unroll
        for (int i = 0; i < 4 * NP; i++)
            w[i] = hsm_opaque(w[i]);
        if constexpr (LOG) {
            /* The plain log-softmax (hsm_row_body's LOG): (u - m) - log(sum), log(sum) from the
             * normaliser (hsm_log_sum_of says why). */
            const float lns = hsm_log_sum_of<T>(norm);
#pragma unroll
            for (int p = 0; p < NP; p++) {
                if (!(p == 0 ? c0 < left0 : p * step < left))
                    continue;
                float f[8];
#pragma unroll
                for (int i = 0; i < 4; i++) {
                    f[2 * i] = (hsm_lo_to_float(w[4 * p + i], T{}) - m) - lns;
                    f[2 * i + 1] = (hsm_hi_to_float(w[4 * p + i], T{}) - m) - lns;
                }
                hsm_store<T, 8>(p == 0 ? yrow + c0 : yr + p * step, f, 1.0f);
            }
            if constexpr (P) {
                const int ec = hsm_peel_col<8>(lead, a.cols);
                if (ec >= 0)
                    yrow[ec] = hsm_from_float<T>((ev - m) - lns);
            }
            continue;
        }
        hsm_expo_branch(m, HSM_LOG2E, [&](auto ex) {
            const auto eo = hsm_expo_norm<T>(ex, norm);
            /* K = 0: y's packs lie where the row's are. Else (S, y `shift` bytes past x's packs) y's
             * packs start K = (16 - shift) / 2 elements into x's: each lane stores the one that starts
             * in its pack, with the next pack's first K elements from lane + 1 (the last lane: from lane
             * 0's next pack; a shuffle), and in one to three stores the elements no lane's y pack takes
             * (the warp's two ends, the row's first and last whole packs, pack 0's wrap). */
            auto stores = [&](auto kk) {
                constexpr int K = decltype(kk)::value;
                if constexpr (K == 0) {
#pragma unroll
                    for (int p = 0; p < NP; p++) {
                        if (!(p == 0 ? c0 < left0 : p * step < left))
                            continue;
                        float f[8];
#pragma unroll
                        for (int i = 0; i < 4; i++) {
                            f[2 * i] = hsm_expo_out<T>(eo, hsm_lo_to_float(w[4 * p + i], T{}), norm);
                            f[2 * i + 1] = hsm_expo_out<T>(eo, hsm_hi_to_float(w[4 * p + i], T{}), norm);
                        }
                        hsm_store<T, 8>(p == 0 ? yrow + c0 : yr + p * step, f, 1.0f);
                    }
                } else if constexpr (G) {
#pragma unroll
                    for (int p = 0; p < NP; p++) {
                        if (!(p == 0 ? c0 < left0 : p * step < left))
                            continue;
                        uint32_t o[4];
#pragma unroll
                        for (int i = 0; i < 4; i++)
                            o[i] = hsm_pair_from_float(hsm_expo_out<T>(eo, hsm_lo_to_float(w[4 * p + i], T{}), norm),
                                                       hsm_expo_out<T>(eo, hsm_hi_to_float(w[4 * p + i], T{}), norm), T{});
                        hsm_store_elems<K, 0, 8>(sg + (p == 0 ? c0 : f0 + p * step), o);
                    }
                } else {
                    constexpr int NB = (K + 1) / 2;
                    const int lane = (int)threadIdx.x % HSM_WARP_SIZE;
                    /* The outputs as stored words, in place of the inputs, a pack ahead: lane 0
                     * passes pack p + 1's while the others pass pack p's. */
                    auto out_words = [&](int p) {
#pragma unroll
                        for (int i = 4 * p; i < 4 * p + 4; i++)
                            w[i] = hsm_pair_from_float(hsm_expo_out<T>(eo, hsm_lo_to_float(w[i], T{}), norm),
                                                       hsm_expo_out<T>(eo, hsm_hi_to_float(w[i], T{}), norm), T{});
                    };
                    out_words(0);
#pragma unroll
                    for (int p = 0; p < NP; p++) {
                        if (p + 1 < NP)
                            out_words(p + 1);
                        const bool ok = p == 0 ? c0 < left0 : p * step < left;
                        const uint32_t *o = w + 4 * p;
                        uint32_t b[NB];
#pragma unroll
                        for (int i = 0; i < NB; i++) {
                            const uint32_t send = lane == 0 && p + 1 < NP ? w[4 * (p + 1) + i] : o[i];
                            b[i] = __float_as_uint(hsm_shfl_idx(__uint_as_float(send), (lane + 1) % HSM_WARP_SIZE));
                        }
                        /* next: the lane after (the last lane: lane 0, one pack on) holds the next
                         * pack, in the row (not across pack 0's wrap, not the next warp's); covered:
                         * the lane before stores this pack's first K elements (its next). */
                        const bool next = (lane < HSM_WARP_SIZE - 1 || p < NP - 1) &&
                                          (p > 0 ? p * step + 8 < left : (f0 >= 0 || f0 < -8) && c0 + 8 < left0);
                        const bool covered = p > 0 || (lane > 0 && (f0 < 0 || f0 >= 8));
                        T *dst = p == 0 ? yrow + c0 : yr + p * step;
                        if (ok && next) {
                            uint32_t out[4];
#pragma unroll
                            for (int i = 0; i < 4; i++) {
                                const int e = i + K / 2; /* word e of (o, b), and e + 1 for an odd K */
                                const uint32_t lo = e < 4 ? o[e] : b[e - 4 < NB ? e - 4 : 0];
                                const uint32_t hi = e + 1 < 4 ? o[e + 1] : b[e - 3 < NB ? e - 3 : 0];
                                out[i] = K % 2 ? lo >> 16 | hi << 16 : lo;
                            }
                            hsm_store16_streaming(dst + K, out);
                        }
                        /* The first K where no lane stores this pack's (they end on 16 bytes), the
                         * rest where this lane stores none (they start on 16 bytes). */
                        uint16_t *h = reinterpret_cast<uint16_t *>(dst);
                        if (ok && !covered)
                            hsm_store_elems<K, 0, K>(h, o);
                        if (ok && !next)
                            hsm_store_elems<K, K, 8>(h + K, o);
                    }
                }
            };
            if ((!S && !G) || shift == 0) {
                stores(hsm_int<0>{});
            } else {
                switch ((16 - shift) / 2) {
                case 1: stores(hsm_int<1>{}); break;
                case 2: stores(hsm_int<2>{}); break;
                case 3: stores(hsm_int<3>{}); break;
                case 4: stores(hsm_int<4>{}); break;
                case 5: stores(hsm_int<5>{}); break;
                case 6: stores(hsm_int<6>{}); break;
                default: stores(hsm_int<7>{}); break;
                }
            }
            if constexpr (P) {
                const int ec = hsm_peel_col<8>(lead, a.cols);
                if (ec >= 0) {
                    const T e = hsm_from_float<T>(hsm_expo_out<T>(eo, ev, norm));
                    if (G && shift != 0)
                        reinterpret_cast<T *>(sg)[ec] = e;
                    else
                        yrow[ec] = e;
                }
            }
        });
        if constexpr (G) {
            /* The next row's stores into shared memory come after its reductions' barriers, which
             * every thread passes after this row's writes. */
            if (shift != 0) {
                __syncthreads();
                hsm_row_stage_write(yrow, reinterpret_cast<const T *>(sg - hsm_pack_lead(yrow)), cols);
            }
        }
    }
}

/* The forward with every option (softmax_ops.h), laid out as hsm_row_body. */
/* Given statistics (sharded rows) are combined before the row is loaded, by warp 0, its epilogue
 * values left in `given` {m, inv, lns} and read after the max's barrier: computed after the load, the
 * combine ran beside the held values and they spilled (hsm_given_fold says how it keeps its inputs
 * from being hoisted; an out-of-line call saved registers around it instead). */
__device__ __forceinline__ void hsm_row_given_begin(const hsm_args &a, int64_t row, float *given)
{
    if (a.op.stats_in != NULL && threadIdx.x < HSM_WARP_SIZE) {
        float M, S;
        hsm_given_warp(a, row, M, S);
        if (threadIdx.x == 0) {
            const hsm_epi e = hsm_epi_given(a, M, S);
            given[0] = e.m, given[1] = e.inv, given[2] = e.lns;
        }
    }
}

/* The epilogue left by hsm_row_given_begin. */
__device__ __forceinline__ hsm_epi hsm_row_given_end(const hsm_args &a, const float *given)
{
    hsm_epi e;
    e.sigma = a.op.sigma;
    e.k = a.op.sigma * HSM_LOG2E;
    e.m = given[0], e.inv = given[1], e.lns = given[2];
    return e;
}

/* P: peeled, rows at any element offset (hsm_peel_col, as hsm_row_body's), with no mask tensor (the
 * plan's condition) and the output row at the same offset from its 16 bytes as x's, in elements of
 * its own dtype (every output pack then lies on its own access). The edge element goes through the
 * same steps as the values: the causal bound, the sum, the epilogue of the output dtype. */
template <typename T, int VEC, int C, bool P = false>
__device__ __forceinline__ void hsm_row_fwd_body(const hsm_args a)
{
    constexpr bool GIVEN = C <= HSM_ROW_GIVEN_MAX_CHUNK; /* hsm_kernels.h */
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS], given[3];
    const T *x = (const T *)a.x;
    float v[C];
    const int64_t wrap = sizeof(hsm_pack<T, VEC>) == 16 ? (int64_t)blockDim.x * C : 0;
    const int64_t pb = P ? hsm_peel_bound<VEC>(a.cols) : -1; /* packs wholly in a peeled row start under it */
    for (int64_t t = blockIdx.x; t < a.rows; t += gridDim.x) {
        const int64_t row = P ? t : hsm_visit_row(a.op, t); /* peeled rows have no mask tensor */
        const T *xr = x + row * a.x_stride;
        const hsm_row_ctx rc = hsm_fwd_row(a, row);
        const int lead = hsm_line_lead<T, VEC>(xr);
        if constexpr (GIVEN)
            hsm_row_given_begin(a, row, given);
        float lm, ev = HSM_NEG_INF;
        int ec = -1;
        if constexpr (P) {
            const int64_t lb = rc.lim < pb ? rc.lim : pb;
            lm = hsm_fwd_chunk_load_m<T, hsm_nomask, VEC, C, true>(xr, NULL, -lead, rc.lim, lb, 1.0f, threadIdx.x,
                                                                   blockDim.x, v, wrap);
            ec = hsm_peel_col<VEC>(lead, a.cols);
            if (ec >= 0 && ec < rc.lim)
                ev = hsm_to_float(xr[ec]);
            lm = hsm_max(lm, ev);
        } else {
            lm = hsm_fwd_chunk_load<T, VEC, C>(a, rc, xr, -lead, threadIdx.x, blockDim.x, v, wrap);
        }
        const float mraw = hsm_block_max(lm, red_max);
        /* With the row's statistics given the normaliser comes from them; the same loop then makes
         * the exponentials (a loop of its own for that case spilled). */
        const bool has_given = GIVEN && a.op.stats_in != NULL;
        hsm_epi e = has_given ? hsm_row_given_end(a, given) : hsm_epi_begin(a, mraw);
        /* Skipping a causal row's masked packs pays where the exponentials bound the time (16-bit
         * rows); beside 32 fp32 values the second sum loop spilled. */
        float ts = sizeof(T) == 2 && VEC > 1 && a.op.causal
                       ? hsm_fwd_sum_causal<VEC, C>(a, v, e, -lead, rc.lim, threadIdx.x, blockDim.x, wrap)
                       : hsm_fwd_sum<C>(a, v, e);
        if constexpr (P) {
            const float t = hsm_exp2((ev - e.m) * e.k);
            ts += t;
            if (!a.op.log)
                ev = t;
        }
        const float s = hsm_block_sum(ts, red_sum);
        if (!has_given)
            hsm_epi_end(a, e, mraw, s, row, threadIdx.x == 0);
        if (a.op.no_out)
            continue;
        void *yrow = hsm_out_row(a, row);
        hsm_fwd_chunk_store<VEC, C>(a, yrow, -lead, threadIdx.x, blockDim.x, v, e, wrap, pb);
        if constexpr (P)
            hsm_fwd_edge_store<HSM_FROM_EXP>(a, yrow, ec, ev, e);
    }
}

/* The backward: y and dy of the row held (2C values per thread), one sum, dx written. Two reduction
 * buffers alternate between rows: a warp may start the next row's reduction while another still reads
 * this one's. y and dy are read with L2 priority evict_last (hsm_load16_l2_last says why). P: peeled,
 * rows at any element offset (hsm_peel_col, as hsm_row_body's) with dy's and dx's rows at the same
 * offset as y's from their own accesses (the plan's condition): packs read and written where they lie
 * wholly in the row, the edge elements one a thread. */
template <typename T, int VEC, int C, bool P = false>
__device__ __forceinline__ void hsm_row_bwd_body(const hsm_args a)
{
    __shared__ float red[2][HSM_MAX_WARPS];
    const T *y = (const T *)a.x;
    float yv[C], dv[C];
    const int64_t wrap = sizeof(hsm_pack<T, VEC>) == 16 ? (int64_t)blockDim.x * C : 0;
    const int64_t bound = P ? hsm_peel_bound<VEC>(a.cols) : a.cols;
    int parity = 0;
    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x, parity ^= 1) {
        const T *yr = y + row * a.x_stride;
        const void *dr = hsm_in2_row(a, row);
        const int lead = hsm_line_lead<T, VEC>(yr);
        float ls = hsm_bwd_chunk_load<T, VEC, C, true, HSM_BWD_GLOBAL, false, true>(a, yr, dr, -lead, bound,
                                                                                    threadIdx.x, blockDim.x, yv, dv,
                                                                                    wrap);
        float ey = 0.0f, ed = 0.0f;
        const int ec = P ? hsm_peel_col<VEC>(lead, a.cols) : -1;
        if constexpr (P)
            ls += hsm_bwd_edge_load(a, yr, dr, ec, ey, ed);
        const float s = a.op.stats_in != NULL ? hsm_bwd_given(a, row) : hsm_block_sum(ls, red[parity]);
        if (a.op.no_out) {
            if (threadIdx.x == 0)
                hsm_bwd_stats(a, s, row);
        } else {
            void *xrow = hsm_out_row(a, row);
            hsm_bwd_chunk_store<VEC, C>(a, xrow, -lead, bound, threadIdx.x, blockDim.x, yv, dv, s, wrap);
            if constexpr (P)
                hsm_bwd_edge_store(a, xrow, ec, ey, ed, s);
        }
    }
}

/* The 16-bit backward with dy in y's dtype, both held as stored: four words a pack of 8, converted
 * when the sum takes them and again when dx is written (a shift or a conversion an element, where
 * hsm_row_bwd_body's fp32 copies take twice the registers). C / 8 packs of each a thread: C = 32
 * takes 60 registers (sm_90), where the fp32-held C = 16 took 64, so rows of 8K-16K columns run in
 * blocks of 256-512 threads, two to four a SM, where that one ran one of 576-1024 threads (a row's
 * reductions and stores leave DRAM idle unless another block has its loads in flight), and rows of
 * 32K columns fit one block. Rows as hsm_row_bwd_body's peeled ones (lead, wrap, the edge elements
 * one a thread), at any element offset: a row on 16 bytes has no edge element, and the same kernel
 * without the edges' code spilled 40-56 bytes at C = 32 in bf16 (sm_90, 0.84-0.91x on 2K-8K rows),
 * where this one takes 60 registers and none. y and dy read with L2 priority evict_last, as in
 * hsm_row_bwd_body. */
template <typename T, int C>
__device__ __forceinline__ void hsm_row_bwd_words_body(const hsm_args a)
{
    constexpr int NP = C / 8;
    __shared__ float red[2][HSM_MAX_WARPS];
    const T *y = (const T *)a.x;
    uint32_t wy[4 * NP], wd[4 * NP];
    /* Columns as 32-bit: a row a block holds has at most HSM_ROW_MAX_BLOCK * C of them. */
    const int wrap = (int)blockDim.x * C;
    const int bound = (int)hsm_peel_bound<8>(a.cols);
    int parity = 0;
    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x, parity ^= 1) {
        const T *yr = y + row * a.x_stride;
        const T *dr = (const T *)hsm_in2_row(a, row);
        const int lead = hsm_line_lead<T, 8>(yr);
        /* Loads first, every one in flight before the first sum (zeros outside the row add nothing). */
#pragma unroll
        for (int p = 0; p < NP; p++) {
            int col = -lead + (p * (int)blockDim.x + (int)threadIdx.x) * 8;
            if (p == 0 && col < 0)
                col += wrap;
            if ((unsigned)col < (unsigned)bound) {
                hsm_pack<uint32_t, 4> py, pd;
                hsm_load16_l2_last(&py, yr + col);
                hsm_load16_l2_last(&pd, dr + col);
#pragma unroll
                for (int i = 0; i < 4; i++) {
                    wy[4 * p + i] = py.v[i];
                    wd[4 * p + i] = pd.v[i];
                }
            } else {
#pragma unroll
                for (int i = 0; i < 4; i++)
                    wy[4 * p + i] = wd[4 * p + i] = 0u;
            }
        }
        float ls = 0.0f;
#pragma unroll
        for (int e = 0; e < 8 * NP; e++) {
            const float d = hsm_word_elem<T>(wd, e);
            ls += a.op.log ? d : d * hsm_word_elem<T>(wy, e);
        }
        float ey = 0.0f, ed = 0.0f;
        const int ec = hsm_peel_col<8>(lead, a.cols);
        ls += hsm_bwd_edge_load(a, yr, dr, ec, ey, ed);
        const float s = a.op.stats_in != NULL ? hsm_bwd_given(a, row) : hsm_block_sum(ls, red[parity]);
        if (a.op.no_out) {
            if (threadIdx.x == 0)
                hsm_bwd_stats(a, s, row);
            continue;
        }
        void *xrow = hsm_out_row(a, row);
#pragma unroll
        for (int p = 0; p < NP; p++) {
            int col = -lead + (p * (int)blockDim.x + (int)threadIdx.x) * 8;
            if (p == 0 && col < 0)
                col += wrap;
            if ((unsigned)col < (unsigned)bound) {
                float yf[8], df[8];
#pragma unroll
                for (int e = 0; e < 8; e++) {
                    yf[e] = hsm_word_elem<T>(wy + 4 * p, e);
                    df[e] = hsm_word_elem<T>(wd + 4 * p, e);
                }
                if (a.op.log)
                    hsm_bwd_store_pack<8, 1>(a, xrow, col, yf, df, s);
                else
                    hsm_bwd_store_pack<8, 0>(a, xrow, col, yf, df, s);
            }
        }
        hsm_bwd_edge_store(a, xrow, ec, ey, ed, s);
    }
}

/* dx of the thread's packs from the row's sum s, each pack computed whatever its column and its store
 * alone under the column's test (one predicated store, no branch); the scale always multiplied
 * (times 1 is exact), so two bodies, not four. */
template <typename T, int NP, int LOG>
__device__ __forceinline__ void hsm_row_packed_bwd_out(const hsm_args &a, T *xr, int cols, int width,
                                                       const uint32_t *wy, const uint32_t *wd, float s)
{
    constexpr int E = 16 / (int)sizeof(T);
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int col = (p * width + (int)threadIdx.x) * E;
        float o[E];
#pragma unroll
        for (int e = 0; e < E; e++)
            o[e] = hsm_bwd_value<LOG>(hsm_word_elem<T>(wy + 4 * p, e), hsm_word_elem<T>(wd + 4 * p, e), s, a.op.scale);
        hsm_pack<T, E> pk;
        hsm_pack_of<T, E>(pk, o, 1.0f);
        if (col < cols)
            *reinterpret_cast<hsm_pack<T, E> *>(xr + col) = pk;
    }
}

/* The plain backward held as stored (dy and dx in y's dtype; no alpha/beta, no statistics; scale and
 * log-softmax at run time), rows on 16 bytes of whole packs: a block a row, C values a thread in packs
 * of 16 bytes (WARP's packed backward's layout and softmax_ops.h's hsm_packed_bwd_share; loads and
 * stores of its own), every load issued before the sum, no loop over rows (the plan's grid is the
 * rows) and none of the per-row work of hsm_row_bwd_words_body and hsm_row_bwd_body, which serve every
 * option: a row's line lead and edge element, dy's and dx's dtypes, the blend, statistics. A
 * stand-alone kernel of this shape ran bf16 4096 x 2048-4096 and fp32 4096 x 4096 at 0.989-1.011 of
 * torch.compile's speed, where ROW's were 0.95-0.98 of it. These kernels against the library before
 * (H200, kernel time, one command, buffer sets in turn;
 * bench/results/h200-2026-11-30-row-packed-bwd.md): 4096 rows of 1544-8192 columns 1.014-1.052x (bf16
 * 4096 x 4096 25.81 -> 25.15 us; log-softmax 26.26 -> 24.96), fp32 2048-4096 1.011-1.032x, 16384 x
 * 4096 1.006x. Eight packs a thread (16-bit rows of 16384 columns in blocks of 256, fp32 8192; 94-128
 * registers, two blocks a SM) ran 0.990-0.995x: not kept. The plan gives a row the smallest C whose
 * block has at most HSM_ROW_PACKED_BWD_BLOCK threads. No branch a pack, the block sum in one round and
 * two store bodies: in a stand-alone kernel of this shape the branches a pack cost 0.8-0.9% at bf16
 * 4096 x 4096, the run-time algorithm and scale 0.5-0.7%, a second round of shuffles 0.4-0.5%
 * (bench/results/h200-2026-11-30-packed-bwd-stores.md, command 5); here, against the kernel before,
 * 1.001-1.016x (bench/results/h200-2026-11-30-branchless-packed-bwd.md). A and B of dx = A - B s
 * computed before the barrier and held across it (50 registers, 4 blocks a SM, as the stand-alone
 * kernel's 60) ran 0.983-1.031x; blocks of up to 512 with one pack a thread (torch.compile's block and
 * occupancy there) 0.958-0.980x on 16-bit rows of 1544-4096 columns: neither kept. */
template <typename T, int C, int B, bool FIXED>
__device__ __forceinline__ void hsm_row_packed_bwd_body(const hsm_args a)
{
    constexpr int NP = C * (int)sizeof(T) / 16, E = 16 / (int)sizeof(T);
    __shared__ float red[HSM_MAX_WARPS];
    const int64_t row = blockIdx.x;
    const int cols = (int)a.cols; /* at most B C (B: the kernel's largest block): the plan's */
    /* FIXED: launched with B threads whatever the row (plan.c's plan_row_packed), so a pack's offset
     * from the thread's first is a constant of the load and store instructions, not a register a pack. */
    const int width = FIXED ? B : (int)blockDim.x;
    const T *yr = (const T *)a.x + row * a.x_stride, *dr = (const T *)a.x2 + row * a.x2_stride;
    uint32_t wy[4 * NP], wd[4 * NP];
    /* Every pack read, none behind a branch: a pack past the row reads the row's first one again (a
     * line the block reads anyway) and is zeroed by a select, adding nothing to the sum. */
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int col = (p * width + (int)threadIdx.x) * E;
        const bool in = col < cols;
        hsm_pack<uint32_t, 4> py, pd;
        hsm_load16_l2_last(&py, yr + (in ? col : 0));
        hsm_load16_l2_last(&pd, dr + (in ? col : 0));
#pragma unroll
        for (int i = 0; i < 4; i++) {
            wy[4 * p + i] = in ? py.v[i] : 0u;
            wd[4 * p + i] = in ? pd.v[i] : 0u;
        }
    }
    const float share = hsm_packed_bwd_share<T, NP>(a, wy, wd);
    const float s = hsm_block_sum_few<B / HSM_WARP_SIZE>(share, red);
    T *xr = (T *)a.y + row * a.y_stride;
    if (a.op.log)
        hsm_row_packed_bwd_out<T, NP, 1>(a, xr, cols, width, wy, wd, s);
    else
        hsm_row_packed_bwd_out<T, NP, 0>(a, xr, cols, width, wy, wd, s);
}

/* hsm_row_packed_body with the forward's options that need no mask tensor (the plan gives rows with
 * one to the kernels above): scale (in sigma), a causal bound, log-softmax, the output dtype,
 * alpha/beta, safe rows, statistics. P: peeled, as hsm_row_fwd_body's. */
template <typename T, int C, bool P = false>
__device__ __forceinline__ void hsm_row_packed_fwd_body(const hsm_args a)
{
    constexpr int NP = C / 8;
    __shared__ float red_max[HSM_MAX_WARPS], red_sum[HSM_MAX_WARPS], given[3];
    const T *x = (const T *)a.x;
    uint32_t w[4 * NP];
    const int64_t first = (int64_t)threadIdx.x * 8, step = (int64_t)blockDim.x * 8;
    for (int64_t row = blockIdx.x; row < a.rows; row += gridDim.x) {
        hsm_row_given_begin(a, row, given);
        const T *xrow = x + row * a.x_stride;
        const int64_t lim = hsm_fwd_row(a, row).lim;
        const int lead = hsm_line_lead<T, 8>(xrow);
        const int64_t f0 = first - lead, c0 = f0 < 0 ? f0 + NP * step : f0;
        const T *xr = xrow + f0;
        /* Packs read where they start under lb: lim, or (peeled) where they also lie wholly in the row. */
        const int64_t bound = P ? hsm_peel_bound<8>(a.cols) : a.cols, lb = lim < bound ? lim : bound;
        const int64_t lleft = lb - f0;
#pragma unroll
        for (int p = 0; p < NP; p++) {
            if (p == 0 ? c0 < lb : p * step < lleft) {
                const hsm_pack<uint32_t, 4> pk =
                    *reinterpret_cast<const hsm_pack<uint32_t, 4> *>(p == 0 ? xrow + c0 : xr + p * step);
#pragma unroll
                for (int i = 0; i < 4; i++)
                    w[4 * p + i] = pk.v[i];
            } else {
#pragma unroll
                for (int i = 0; i < 4; i++)
                    w[4 * p + i] = hsm_neg_inf_word<T>();
            }
        }
        /* After every load has been issued (hsm_fwd_chunk_load_m says why), and only where a causal
         * bound falls inside a pack (peeled, packs start at columns -lead + 8k, lead any). */
        if ((uint64_t)(P ? lim + lead : lim) % 8 != 0) {
#pragma unroll
            for (int p = 0; p < NP; p++)
                hsm_words_cut<T>(w + 4 * p, p == 0 ? c0 : f0 + p * step, lim);
        }
        float lm = hsm_words_max<T, 4 * NP>(w), ev = HSM_NEG_INF;
        int ec = -1;
        if constexpr (P) {
            ec = hsm_peel_col<8>(lead, a.cols);
            if (ec >= 0 && ec < lim)
                ev = hsm_to_float(xrow[ec]);
            lm = hsm_max(lm, ev);
        }
        const float mraw = hsm_block_max(lm, red_max);
        const bool has_given = a.op.stats_in != NULL; /* as in hsm_row_fwd_body */
        hsm_epi e = has_given ? hsm_row_given_end(a, given) : hsm_epi_begin(a, mraw);
        /* A pack every lane of the warp has past the causal bound adds exp(-inf) = 0 (as in
         * hsm_fwd_sum_causal; the vote keeps the branch uniform). */
        float s = 0.0f;
        auto sum = [&](auto ex) {
#pragma unroll
            for (int p = 0; p < NP; p++) {
                if (a.op.causal && hsm_warp_all((p == 0 ? c0 : f0 + p * step) >= lim))
                    continue;
                hsm_words_exp_add<T>(s, w + 4 * p, ex);
            }
            if constexpr (P)
                s += hsm_exp2(ex.at(ev));
        };
        /* The peeled twins keep the subtraction and product: with the branch p64's spills grew from
         * 24 to 56 bytes (sm_90). */
        if constexpr (P)
            sum(hsm_expo_of<false>(e.m, e.k));
        else
            hsm_expo_branch(e.m, e.k, sum);
        s = hsm_block_sum(s, red_sum);
        if (!has_given)
            hsm_epi_end(a, e, mraw, s, row, threadIdx.x == 0);
        if (a.op.no_out)
            continue;
#pragma unroll
        for (int i = 0; i < 4 * NP; i++)
            w[i] = hsm_opaque(w[i]);
        void *yrow = hsm_out_row(a, row);
        const int64_t left = bound - f0;
        if (a.op.log)
            hsm_words_store<T, NP, HSM_FROM_U_LOG>(a, yrow, f0, w, c0, bound, left, step, lim, e);
        else
            hsm_words_store<T, NP, HSM_FROM_U_SOFTMAX>(a, yrow, f0, w, c0, bound, left, step, lim, e);
        if constexpr (P)
            hsm_fwd_edge_store<HSM_FROM_U_SOFTMAX>(a, yrow, ec, ev, e);
    }
}

#define HSM_ROW_KERNEL_B(NAME, T, VEC, C, BODY)                                                       \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        BODY<T, VEC, C>(a);                                                                           \
    }
#define HSM_ROW_KERNEL(NAME, T, VEC, C) HSM_ROW_KERNEL_B(NAME, T, VEC, C, hsm_row_body)
/* The forward with options over 16 values a thread serves short rows (1K-4K columns) in blocks of 64
 * to 256 threads, many blocks a SM: there the resident warps bound the speed. Compiled freely it took
 * 60-62 registers (34 warps a SM in 64-thread blocks, against the plain kernel's 32 registers and 64
 * warps); 48 registers spill nothing on sm_90 (40 spilled 8-52 bytes) and leave room for 42 warps. */
#define HSM_ROW_KERNEL_CAP(NAME, T, VEC, C, BODY, REGS)                                               \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_ROW_MAX_BLOCK, REGS) NAME(hsm_args a)          \
    {                                                                                                 \
        BODY<T, VEC, C>(a);                                                                           \
    }
#define HSM_ROW_PACKED_KERNEL_B(NAME, T, C, BODY)                                                     \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        BODY<T, C>(a);                                                                                \
    }
#define HSM_ROW_PACKED_KERNEL(NAME, T, VEC, C) HSM_ROW_PACKED_KERNEL_B(NAME, T, C, hsm_row_packed_body)
#define HSM_ROW_ENTRY_KP(NAME, KOP, DT, VEC, C, PEEL)                                                 \
    {#NAME, (const void *)NAME, HSM_FAMILY_ROW, KOP, DT, VEC, C, HSM_ROW_MAX_BLOCK, hsm_launch_plain, PEEL, 0, 0, 0}
#define HSM_ROW_ENTRY_K(NAME, KOP, DT, VEC, C) HSM_ROW_ENTRY_KP(NAME, KOP, DT, VEC, C, 0)
#define HSM_ROW_ENTRY(NAME, DT, VEC, C) HSM_ROW_ENTRY_K(NAME, HSM_KOP_PLAIN, DT, VEC, C)
/* Elements per thread: at most 32 fp32 values on the vector path and 16 on the scalar one (whose
 * per-element addressing costs registers), so a 1024-thread block fits in its 64 registers per thread
 * without spilling: rows of up to 32K (16K unaligned) elements stay in registers. */
#define HSM_ROW_SET(SFX, T, VEC)                                                                      \
    HSM_ROW_KERNEL(hsm_row_##SFX##_s1, T, 1, 1)                                                       \
    HSM_ROW_KERNEL(hsm_row_##SFX##_s2, T, 1, 2)                                                       \
    HSM_ROW_KERNEL(hsm_row_##SFX##_s4, T, 1, 4)                                                       \
    HSM_ROW_KERNEL(hsm_row_##SFX##_s8, T, 1, 8)                                                       \
    HSM_ROW_KERNEL(hsm_row_##SFX##_s16, T, 1, 16)                                                     \
    HSM_ROW_KERNEL(hsm_row_##SFX##_v8, T, VEC, 8)                                                     \
    HSM_ROW_KERNEL(hsm_row_##SFX##_v16, T, VEC, 16)                                                   \
    HSM_ROW_KERNEL(hsm_row_##SFX##_v32, T, VEC, 32)
#define HSM_ROW_SET_ENTRIES(SFX, DT, VEC)                                                             \
    HSM_ROW_ENTRY(hsm_row_##SFX##_s1, DT, 1, 1), HSM_ROW_ENTRY(hsm_row_##SFX##_s2, DT, 1, 2),         \
        HSM_ROW_ENTRY(hsm_row_##SFX##_s4, DT, 1, 4), HSM_ROW_ENTRY(hsm_row_##SFX##_s8, DT, 1, 8),     \
        HSM_ROW_ENTRY(hsm_row_##SFX##_s16, DT, 1, 16), \
        HSM_ROW_ENTRY(hsm_row_##SFX##_v8, DT, VEC, 8), HSM_ROW_ENTRY(hsm_row_##SFX##_v16, DT, VEC, 16), \
        HSM_ROW_ENTRY(hsm_row_##SFX##_v32, DT, VEC, 32)
/* Chunks between the power-of-two ones, for rows just longer than a smaller chunk holds in a full
 * block: there the larger chunk gives one block of a few hundred threads per SM (src/plan.c).
 * p56 and p64 are held to 56 registers, their peeled twins' cap: compiled freely they took 60 and 59
 * (sm_90), and two blocks of 513-576 threads (16-bit rows of 32776-36864 columns on p64) no longer
 * fitted a SM; one block a SM there ran 0.79x as fast as the peeled twin at 56, which fits two (bf16
 * 4096 x 32776: 166.25 us against 131.21, H200, bench/results/h200-2026-12-01-row-regs.md). */
#define HSM_ROW_PACKED_KERNEL_CAP(NAME, T, C, REGS, P)                                                \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_ROW_MAX_BLOCK, REGS) NAME(hsm_args a)          \
    {                                                                                                 \
        hsm_row_packed_body<T, C, P>(a);                                                              \
    }
#define HSM_ROW_PACKED_SET(SFX, T)                                                                    \
    HSM_ROW_PACKED_KERNEL(hsm_row_##SFX##_p40, T, 8, 40)                                              \
    HSM_ROW_PACKED_KERNEL(hsm_row_##SFX##_p48, T, 8, 48)                                              \
    HSM_ROW_PACKED_KERNEL_CAP(hsm_row_##SFX##_p56, T, 56, 56, false)                                  \
    HSM_ROW_PACKED_KERNEL_CAP(hsm_row_##SFX##_p64, T, 64, 56, false)
#define HSM_ROW_PACKED_SET_ENTRIES(SFX, DT)                                                           \
    HSM_ROW_ENTRY(hsm_row_##SFX##_p40, DT, 8, 40), HSM_ROW_ENTRY(hsm_row_##SFX##_p48, DT, 8, 48),     \
        HSM_ROW_ENTRY(hsm_row_##SFX##_p56, DT, 8, 56), HSM_ROW_ENTRY(hsm_row_##SFX##_p64, DT, 8, 64)

HSM_ROW_SET(f32, float, 4)
HSM_ROW_KERNEL(hsm_row_f32_v20, float, 4, 20)
HSM_ROW_KERNEL(hsm_row_f32_v24, float, 4, 24)
HSM_ROW_KERNEL(hsm_row_f32_v28, float, 4, 28)
HSM_ROW_SET(f16, hsm_f16, 8)
HSM_ROW_PACKED_SET(f16, hsm_f16)
HSM_ROW_SET(bf16, hsm_bf16, 8)
HSM_ROW_PACKED_SET(bf16, hsm_bf16)

/* The plain log-softmax (kop HSM_KOP_LOG, the _log kernels): the plain forward's vector chunks with
 * log-softmax for their output (hsm_row_body's and hsm_row_packed_body's LOG), for the rows on 16
 * bytes that the forward with options would give ROW (plan.c's hsm_plan_get). They hold the row in the
 * registers the plain kernels do, where the forward with options' kernels, compiled for every option,
 * hold more (v16: 48 against 40, sm_90) and fit fewer warps a SM; their outputs cost a subtraction
 * where the softmax's take an exponential. Their own kernels, not a branch in the plain ones: a
 * branch on the call's log in the same kernel, per row or around the row loop, took the plain softmax
 * 1-17 registers more (sm_90). */
#define HSM_ROW_LOG_KERNEL(NAME, T, VEC, C)                                                           \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_body<T, VEC, C, false, true>(a);                                                      \
    }
#define HSM_ROW_LOG_KERNEL_CAP(NAME, T, VEC, C, REGS)                                                \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_ROW_MAX_BLOCK, REGS) NAME(hsm_args a)          \
    {                                                                                                 \
        hsm_row_body<T, VEC, C, false, true>(a);                                                      \
    }
#define HSM_ROW_PACKED_LOG_KERNEL(NAME, T, C)                                                         \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_packed_body<T, C, false, false, true>(a);                                             \
    }
#define HSM_ROW_LOG_ENTRY(NAME, DT, VEC, C) HSM_ROW_ENTRY_K(NAME, HSM_KOP_LOG, DT, VEC, C)
#define HSM_ROW_LOG_SET(SFX, T)                                                                       \
    HSM_ROW_LOG_KERNEL(hsm_row_##SFX##_v8_log, T, 8, 8)                                               \
    HSM_ROW_LOG_KERNEL(hsm_row_##SFX##_v16_log, T, 8, 16)                                             \
    HSM_ROW_LOG_KERNEL(hsm_row_##SFX##_v32_log, T, 8, 32)                                             \
    HSM_ROW_PACKED_LOG_KERNEL(hsm_row_##SFX##_p40_log, T, 40)                                         \
    HSM_ROW_PACKED_LOG_KERNEL(hsm_row_##SFX##_p48_log, T, 48)                                         \
    HSM_ROW_PACKED_LOG_KERNEL(hsm_row_##SFX##_p56_log, T, 56)                                         \
    HSM_ROW_PACKED_LOG_KERNEL(hsm_row_##SFX##_p64_log, T, 64)
#define HSM_ROW_LOG_SET_ENTRIES(SFX, DT)                                                              \
    HSM_ROW_LOG_ENTRY(hsm_row_##SFX##_v8_log, DT, 8, 8), HSM_ROW_LOG_ENTRY(hsm_row_##SFX##_v16_log, DT, 8, 16), \
        HSM_ROW_LOG_ENTRY(hsm_row_##SFX##_v32_log, DT, 8, 32),                                        \
        HSM_ROW_LOG_ENTRY(hsm_row_##SFX##_p40_log, DT, 8, 40),                                        \
        HSM_ROW_LOG_ENTRY(hsm_row_##SFX##_p48_log, DT, 8, 48),                                        \
        HSM_ROW_LOG_ENTRY(hsm_row_##SFX##_p56_log, DT, 8, 56),                                        \
        HSM_ROW_LOG_ENTRY(hsm_row_##SFX##_p64_log, DT, 8, 64)
HSM_ROW_LOG_KERNEL(hsm_row_f32_v8_log, float, 4, 8)
HSM_ROW_LOG_KERNEL(hsm_row_f32_v16_log, float, 4, 16)
HSM_ROW_LOG_KERNEL_CAP(hsm_row_f32_v20_log, float, 4, 20, 48)
HSM_ROW_LOG_KERNEL(hsm_row_f32_v24_log, float, 4, 24)
HSM_ROW_LOG_KERNEL(hsm_row_f32_v28_log, float, 4, 28)
HSM_ROW_LOG_KERNEL(hsm_row_f32_v32_log, float, 4, 32)
HSM_ROW_LOG_SET(f16, hsm_f16)
HSM_ROW_LOG_SET(bf16, hsm_bf16)
/* Their peeled twins (_peel_log: rows at any element offset, y's at x's offset or another, as the plain
 * forward's _peel kernels, with their register caps). */
#define HSM_ROW_PEEL_LOG_KERNEL(NAME, T, VEC, C)                                                      \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_body<T, VEC, C, true, true>(a);                                                       \
    }
#define HSM_ROW_PEEL_LOG_KERNEL_CAP(NAME, T, VEC, C, REGS)                                            \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_ROW_MAX_BLOCK, REGS) NAME(hsm_args a)          \
    {                                                                                                 \
        hsm_row_body<T, VEC, C, true, true>(a);                                                       \
    }
#define HSM_ROW_PACKED_PEEL_LOG_KERNEL(NAME, T, C, REGS)                                              \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_ROW_MAX_BLOCK, REGS) NAME(hsm_args a)          \
    {                                                                                                 \
        hsm_row_packed_body<T, C, true, false, true>(a);                                              \
    }
#define HSM_ROW_PEEL_LOG_ENTRY(NAME, DT, VEC, C) HSM_ROW_ENTRY_KP(NAME, HSM_KOP_LOG, DT, VEC, C, 1)
#define HSM_ROW_PEEL_LOG_SET(SFX, T)                                                                  \
    HSM_ROW_PEEL_LOG_KERNEL_CAP(hsm_row_##SFX##_v8_peel_log, T, 8, 8, 32)                             \
    HSM_ROW_PEEL_LOG_KERNEL_CAP(hsm_row_##SFX##_v16_peel_log, T, 8, 16, 40)                           \
    HSM_ROW_PEEL_LOG_KERNEL(hsm_row_##SFX##_v32_peel_log, T, 8, 32)                                   \
    HSM_ROW_PACKED_PEEL_LOG_KERNEL(hsm_row_##SFX##_p40_peel_log, T, 40, 48)                           \
    HSM_ROW_PACKED_PEEL_LOG_KERNEL(hsm_row_##SFX##_p48_peel_log, T, 48, 48)                           \
    HSM_ROW_PACKED_PEEL_LOG_KERNEL(hsm_row_##SFX##_p56_peel_log, T, 56, 56)                           \
    HSM_ROW_PACKED_PEEL_LOG_KERNEL(hsm_row_##SFX##_p64_peel_log, T, 64, 56)
#define HSM_ROW_PEEL_LOG_SET_ENTRIES(SFX, DT)                                                         \
    HSM_ROW_PEEL_LOG_ENTRY(hsm_row_##SFX##_v8_peel_log, DT, 8, 8),                                    \
        HSM_ROW_PEEL_LOG_ENTRY(hsm_row_##SFX##_v16_peel_log, DT, 8, 16),                              \
        HSM_ROW_PEEL_LOG_ENTRY(hsm_row_##SFX##_v32_peel_log, DT, 8, 32),                              \
        HSM_ROW_PEEL_LOG_ENTRY(hsm_row_##SFX##_p40_peel_log, DT, 8, 40),                              \
        HSM_ROW_PEEL_LOG_ENTRY(hsm_row_##SFX##_p48_peel_log, DT, 8, 48),                              \
        HSM_ROW_PEEL_LOG_ENTRY(hsm_row_##SFX##_p56_peel_log, DT, 8, 56),                              \
        HSM_ROW_PEEL_LOG_ENTRY(hsm_row_##SFX##_p64_peel_log, DT, 8, 64)
HSM_ROW_PEEL_LOG_KERNEL_CAP(hsm_row_f32_v8_peel_log, float, 4, 8, 32)
HSM_ROW_PEEL_LOG_KERNEL_CAP(hsm_row_f32_v16_peel_log, float, 4, 16, 40)
HSM_ROW_PEEL_LOG_KERNEL_CAP(hsm_row_f32_v20_peel_log, float, 4, 20, 56)
HSM_ROW_PEEL_LOG_KERNEL(hsm_row_f32_v24_peel_log, float, 4, 24)
HSM_ROW_PEEL_LOG_KERNEL(hsm_row_f32_v28_peel_log, float, 4, 28)
HSM_ROW_PEEL_LOG_KERNEL(hsm_row_f32_v32_peel_log, float, 4, 32)
HSM_ROW_PEEL_LOG_SET(f16, hsm_f16)
HSM_ROW_PEEL_LOG_SET(bf16, hsm_bf16)
/* The plain forward peeled (hsm_peel_col): a twin of each vector and packed kernel for rows at any
 * element offset from 16 bytes (odd lengths, odd strides, tensors off 16 bytes), which otherwise take
 * the scalar kernels at about half the speed (issue 14). Twins, not a path in the kernels above: those
 * are tuned to their registers, and the plan gives them the aligned rows as before. The edge element
 * and the row's bound cost the twins a few registers; held to their plain kernel's allocation where
 * that spills nothing or little (sm_90: fp32 v16 8 bytes; v20 and v24, which spilled 16-24 bytes at
 * their twins' 48 and 56, are left free), so that the plan finds the residency it finds for rows on
 * 16 bytes (fp32 4096 x 1023 at 50 registers: 21 blocks of 64 a SM, against 25 at 4096 x 1024). */
#define HSM_ROW_PEEL_KERNEL_CAP(NAME, T, VEC, C, BODY, REGS)                                          \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_ROW_MAX_BLOCK, REGS) NAME(hsm_args a)          \
    {                                                                                                 \
        BODY<T, VEC, C, true>(a);                                                                     \
    }
#define HSM_ROW_PEEL_KERNEL(NAME, T, VEC, C, REGS) HSM_ROW_PEEL_KERNEL_CAP(NAME, T, VEC, C, hsm_row_body, REGS)
#define HSM_ROW_PEEL_KERNEL_B(NAME, T, VEC, C, BODY)                                                  \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        BODY<T, VEC, C, true>(a);                                                                     \
    }
#define HSM_ROW_PACKED_PEEL_KERNEL(NAME, T, C, REGS) HSM_ROW_PACKED_KERNEL_CAP(NAME, T, C, REGS, true)
#define HSM_ROW_PEEL_SET(SFX, T)                                                                      \
    HSM_ROW_PEEL_KERNEL(hsm_row_##SFX##_v8_peel, T, 8, 8, 32)                                      \
    HSM_ROW_PEEL_KERNEL(hsm_row_##SFX##_v16_peel, T, 8, 16, 40)                                   \
    HSM_ROW_PEEL_KERNEL_B(hsm_row_##SFX##_v32_peel, T, 8, 32, hsm_row_body)                       \
    HSM_ROW_PACKED_PEEL_KERNEL(hsm_row_##SFX##_p40_peel, T, 40, 48)                               \
    HSM_ROW_PACKED_PEEL_KERNEL(hsm_row_##SFX##_p48_peel, T, 48, 48)                               \
    HSM_ROW_PACKED_PEEL_KERNEL(hsm_row_##SFX##_p56_peel, T, 56, 56)                               \
    HSM_ROW_PACKED_PEEL_KERNEL(hsm_row_##SFX##_p64_peel, T, 64, 56)
#define HSM_ROW_PEEL_ENTRY(NAME, DT, VEC, C) HSM_ROW_ENTRY_KP(NAME, HSM_KOP_PLAIN, DT, VEC, C, 1)
/* The packed peeled kernels' _shift twins (hsm_row_packed_body's S; hsm_kernel's peel 2), and p32's,
 * the twin of the v32 peeled kernel (which holds its values as floats): the plan gives them rows whose
 * y lies at another offset from 16 bytes than x, by the blocks a SM the peeled kernel keeps, the
 * chunk, the rows and the idle columns (plan_peeled says which and why). p16's lost to the v16 peeled
 * kernel on every row measured, 0.77-1.01x (bench/results/h200-2026-12-02-shift16-rows.md, command
 * 6): none. */
#define HSM_ROW_SHIFT_KERNEL(NAME, T, C)                                                               \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_packed_body<T, C, true, true>(a);                                                     \
    }
#define HSM_ROW_SHIFT_SET(SFX, T)                                                                     \
    HSM_ROW_SHIFT_KERNEL(hsm_row_##SFX##_p32_shift, T, 32)                                            \
    HSM_ROW_SHIFT_KERNEL(hsm_row_##SFX##_p40_shift, T, 40)                                            \
    HSM_ROW_SHIFT_KERNEL(hsm_row_##SFX##_p48_shift, T, 48)                                            \
    HSM_ROW_SHIFT_KERNEL(hsm_row_##SFX##_p56_shift, T, 56)                                            \
    HSM_ROW_SHIFT_KERNEL(hsm_row_##SFX##_p64_shift, T, 64)
#define HSM_ROW_SHIFT_ENTRY(NAME, DT, C) HSM_ROW_ENTRY_KP(NAME, HSM_KOP_PLAIN, DT, 8, C, 2)
#define HSM_ROW_SHIFT_SET_ENTRIES(SFX, DT)                                                            \
    HSM_ROW_SHIFT_ENTRY(hsm_row_##SFX##_p32_shift, DT, 32),                                           \
        HSM_ROW_SHIFT_ENTRY(hsm_row_##SFX##_p40_shift, DT, 40), HSM_ROW_SHIFT_ENTRY(hsm_row_##SFX##_p48_shift, DT, 48), \
        HSM_ROW_SHIFT_ENTRY(hsm_row_##SFX##_p56_shift, DT, 56),                                       \
        HSM_ROW_SHIFT_ENTRY(hsm_row_##SFX##_p64_shift, DT, 64)
#define HSM_ROW_PEEL_SET_ENTRIES(SFX, DT)                                                             \
    HSM_ROW_PEEL_ENTRY(hsm_row_##SFX##_v8_peel, DT, 8, 8),                                            \
        HSM_ROW_PEEL_ENTRY(hsm_row_##SFX##_v16_peel, DT, 8, 16),                                      \
        HSM_ROW_PEEL_ENTRY(hsm_row_##SFX##_v32_peel, DT, 8, 32),                                      \
        HSM_ROW_PEEL_ENTRY(hsm_row_##SFX##_p40_peel, DT, 8, 40),                                      \
        HSM_ROW_PEEL_ENTRY(hsm_row_##SFX##_p48_peel, DT, 8, 48),                                      \
        HSM_ROW_PEEL_ENTRY(hsm_row_##SFX##_p56_peel, DT, 8, 56),                                      \
        HSM_ROW_PEEL_ENTRY(hsm_row_##SFX##_p64_peel, DT, 8, 64)
HSM_ROW_PEEL_KERNEL(hsm_row_f32_v8_peel, float, 4, 8, 32)
HSM_ROW_PEEL_KERNEL(hsm_row_f32_v16_peel, float, 4, 16, 40)
HSM_ROW_PEEL_KERNEL_B(hsm_row_f32_v20_peel, float, 4, 20, hsm_row_body)
HSM_ROW_PEEL_KERNEL_B(hsm_row_f32_v24_peel, float, 4, 24, hsm_row_body)
HSM_ROW_PEEL_KERNEL_B(hsm_row_f32_v28_peel, float, 4, 28, hsm_row_body)
HSM_ROW_PEEL_KERNEL_B(hsm_row_f32_v32_peel, float, 4, 32, hsm_row_body)
/* fp32's _shift twins (hsm_row_body's S; peel 2): y written in 16-byte packs where its rows lie at
 * another offset from 16 bytes than x's, which the peeled kernels write an element at a time. The
 * plan gives them rows of 10000 columns or more, where the twin is as resident as the peeled kernel
 * (plan_peeled): v16 held to the peeled kernel's 40 registers, the others free (sm_90: v20 60 against
 * 48, v24 64 against 54, v28 and v32 64 as theirs, spilling 32 and 28 bytes in the stores). No v8
 * twin: a 1024-thread block of v8 holds 8192 columns. */
#define HSM_ROW_F32_SHIFT_KERNEL(NAME, C)                                                             \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_body<float, 4, C, true, false, true>(a);                                              \
    }
#define HSM_ROW_F32_SHIFT_KERNEL_CAP(NAME, C, REGS)                                                   \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_ROW_MAX_BLOCK, REGS) NAME(hsm_args a)          \
    {                                                                                                 \
        hsm_row_body<float, 4, C, true, false, true>(a);                                              \
    }
#define HSM_ROW_F32_SHIFT_ENTRY(NAME, C) HSM_ROW_ENTRY_KP(NAME, HSM_KOP_PLAIN, HSM_F32, 4, C, 2)
HSM_ROW_F32_SHIFT_KERNEL_CAP(hsm_row_f32_v16_shift, 16, 40)
HSM_ROW_F32_SHIFT_KERNEL(hsm_row_f32_v20_shift, 20)
HSM_ROW_F32_SHIFT_KERNEL(hsm_row_f32_v24_shift, 24)
HSM_ROW_F32_SHIFT_KERNEL(hsm_row_f32_v28_shift, 28)
HSM_ROW_F32_SHIFT_KERNEL(hsm_row_f32_v32_shift, 32)
/* fp32's _stage kernels (hsm_row_body's G; peel 3): the peeled kernels with y through shared memory
 * (hsm_row_stage_store) where its rows lie at another offset from 16 bytes than x's. The plan gives
 * them the rows it would give the _shift twins where the row's bytes in shared memory leave two blocks
 * a SM or more and the rows give each resident block five or more (plan_peeled): H200, 4096 rows of
 * 10001-16381 columns, 1.02-1.06x the twins (bench/results/h200-2026-12-02-stage-kernels.md). Kernels
 * of their own: the same store as a branch of the _shift twins took registers from their shuffles and
 * spilled (sm_90: v32 52 and 136 bytes against 28 and 28), 0.87-0.95x
 * (bench/results/h200-2026-12-02-shift-stage.md, command 6); here v32 takes 62 registers, no spill.
 * v16 held to the peeled kernel's 40 registers. */
#define HSM_ROW_F32_STAGE_KERNEL(NAME, C)                                                             \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_body<float, 4, C, true, false, false, true>(a);                                       \
    }
#define HSM_ROW_F32_STAGE_KERNEL_CAP(NAME, C, REGS)                                                   \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_ROW_MAX_BLOCK, REGS) NAME(hsm_args a)          \
    {                                                                                                 \
        hsm_row_body<float, 4, C, true, false, false, true>(a);                                       \
    }
#define HSM_ROW_F32_STAGE_ENTRY(NAME, C) HSM_ROW_ENTRY_KP(NAME, HSM_KOP_PLAIN, HSM_F32, 4, C, 3)
HSM_ROW_F32_STAGE_KERNEL_CAP(hsm_row_f32_v16_stage, 16, 40)
HSM_ROW_F32_STAGE_KERNEL(hsm_row_f32_v20_stage, 20)
HSM_ROW_F32_STAGE_KERNEL(hsm_row_f32_v24_stage, 24)
HSM_ROW_F32_STAGE_KERNEL(hsm_row_f32_v28_stage, 28)
HSM_ROW_F32_STAGE_KERNEL(hsm_row_f32_v32_stage, 32)
/* Their log-softmax twins (the _stage_log kernels; HSM_KOP_LOG, peel 3): the log-softmax has no _shift
 * twins, and its peeled kernels' element stores ran fp32 4096 x 20001 with x's rows 20002 apart at 0.47
 * of a same-size copy (H200, bench/results/h200-2026-12-02-stage16.md, command 3). v16 held to the
 * peeled log kernel's 40 registers. */
#define HSM_ROW_F32_STAGE_LOG_KERNEL(NAME, C)                                                         \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_body<float, 4, C, true, true, false, true>(a);                                        \
    }
#define HSM_ROW_F32_STAGE_LOG_KERNEL_CAP(NAME, C, REGS)                                               \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_ROW_MAX_BLOCK, REGS) NAME(hsm_args a)          \
    {                                                                                                 \
        hsm_row_body<float, 4, C, true, true, false, true>(a);                                        \
    }
#define HSM_ROW_F32_STAGE_LOG_ENTRY(NAME, C) HSM_ROW_ENTRY_KP(NAME, HSM_KOP_LOG, HSM_F32, 4, C, 3)
HSM_ROW_F32_STAGE_LOG_KERNEL_CAP(hsm_row_f32_v16_stage_log, 16, 40)
HSM_ROW_F32_STAGE_LOG_KERNEL(hsm_row_f32_v20_stage_log, 20)
HSM_ROW_F32_STAGE_LOG_KERNEL(hsm_row_f32_v24_stage_log, 24)
HSM_ROW_F32_STAGE_LOG_KERNEL(hsm_row_f32_v28_stage_log, 28)
HSM_ROW_F32_STAGE_LOG_KERNEL(hsm_row_f32_v32_stage_log, 32)
HSM_ROW_PEEL_SET(f16, hsm_f16)
HSM_ROW_PEEL_SET(bf16, hsm_bf16)
HSM_ROW_SHIFT_SET(f16, hsm_f16)
HSM_ROW_SHIFT_SET(bf16, hsm_bf16)
/* The packed peeled kernels' _stage twins (hsm_row_packed_body's G; peel 3), p32's too: for rows whose
 * y lies at another offset from 16 bytes than x, y through shared memory where the _shift twins pass
 * the lanes y's straddling elements (plan_peeled says which rows). */
#define HSM_ROW_STAGE16_KERNEL(NAME, T, C)                                                             \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_packed_body<T, C, true, false, false, true>(a);                                       \
    }
#define HSM_ROW_STAGE16_KERNEL_CAP(NAME, T, C, REGS)                                                  \
    extern "C" __global__ void HSM_KERNEL_REG_CAP(HSM_ROW_MAX_BLOCK, REGS) NAME(hsm_args a)          \
    {                                                                                                 \
        hsm_row_packed_body<T, C, true, false, false, true>(a);                                       \
    }
#define HSM_ROW_STAGE16_SET(SFX, T)                                                                   \
    HSM_ROW_STAGE16_KERNEL(hsm_row_##SFX##_p32_stage, T, 32)                                          \
    HSM_ROW_STAGE16_KERNEL_CAP(hsm_row_##SFX##_p40_stage, T, 40, 48)                                  \
    HSM_ROW_STAGE16_KERNEL_CAP(hsm_row_##SFX##_p48_stage, T, 48, 48)                                  \
    HSM_ROW_STAGE16_KERNEL_CAP(hsm_row_##SFX##_p56_stage, T, 56, 56)                                  \
    HSM_ROW_STAGE16_KERNEL_CAP(hsm_row_##SFX##_p64_stage, T, 64, 56)
#define HSM_ROW_STAGE16_ENTRY(NAME, DT, C) HSM_ROW_ENTRY_KP(NAME, HSM_KOP_PLAIN, DT, 8, C, 3)
#define HSM_ROW_STAGE16_SET_ENTRIES(SFX, DT)                                                          \
    HSM_ROW_STAGE16_ENTRY(hsm_row_##SFX##_p32_stage, DT, 32),                                         \
        HSM_ROW_STAGE16_ENTRY(hsm_row_##SFX##_p40_stage, DT, 40),                                     \
        HSM_ROW_STAGE16_ENTRY(hsm_row_##SFX##_p48_stage, DT, 48),                                     \
        HSM_ROW_STAGE16_ENTRY(hsm_row_##SFX##_p56_stage, DT, 56),                                     \
        HSM_ROW_STAGE16_ENTRY(hsm_row_##SFX##_p64_stage, DT, 64)
HSM_ROW_STAGE16_SET(f16, hsm_f16)
HSM_ROW_STAGE16_SET(bf16, hsm_bf16)
/* The forward with options: the plain kernels' chunks, fp32-held for every dtype (masked 16-bit rows
 * among them), and 16-bit held as stored (_p, rows with no mask tensor). */
#define HSM_ROW_FWD_SET(SFX, T, VEC)                                                                  \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_s1_fwd, T, 1, 1, hsm_row_fwd_body)                               \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_s2_fwd, T, 1, 2, hsm_row_fwd_body)                               \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_s4_fwd, T, 1, 4, hsm_row_fwd_body)                               \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_s8_fwd, T, 1, 8, hsm_row_fwd_body)                               \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_s16_fwd, T, 1, 16, hsm_row_fwd_body)                             \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_v8_fwd, T, VEC, 8, hsm_row_fwd_body)                             \
    HSM_ROW_KERNEL_CAP(hsm_row_##SFX##_v16_fwd, T, VEC, 16, hsm_row_fwd_body, 48)                     \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_v32_fwd, T, VEC, 32, hsm_row_fwd_body)
#define HSM_ROW_FWD_SET_ENTRIES(SFX, DT, VEC)                                                         \
    HSM_ROW_ENTRY_K(hsm_row_##SFX##_s1_fwd, HSM_KOP_FWD, DT, 1, 1),                                   \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_s2_fwd, HSM_KOP_FWD, DT, 1, 2),                               \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_s4_fwd, HSM_KOP_FWD, DT, 1, 4),                               \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_s8_fwd, HSM_KOP_FWD, DT, 1, 8),                               \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_s16_fwd, HSM_KOP_FWD, DT, 1, 16),                             \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_v8_fwd, HSM_KOP_FWD, DT, VEC, 8),                             \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_v16_fwd, HSM_KOP_FWD, DT, VEC, 16),                           \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_v32_fwd, HSM_KOP_FWD, DT, VEC, 32)
#define HSM_ROW_PACKED_FWD_SET(SFX, T)                                                                \
    HSM_ROW_PACKED_KERNEL_B(hsm_row_##SFX##_p40_fwd, T, 40, hsm_row_packed_fwd_body)                  \
    HSM_ROW_PACKED_KERNEL_B(hsm_row_##SFX##_p48_fwd, T, 48, hsm_row_packed_fwd_body)                  \
    HSM_ROW_PACKED_KERNEL_B(hsm_row_##SFX##_p56_fwd, T, 56, hsm_row_packed_fwd_body)                  \
    HSM_ROW_PACKED_KERNEL_B(hsm_row_##SFX##_p64_fwd, T, 64, hsm_row_packed_fwd_body)
#define HSM_ROW_PACKED_FWD_SET_ENTRIES(SFX, DT)                                                       \
    HSM_ROW_ENTRY_K(hsm_row_##SFX##_p40_fwd, HSM_KOP_FWD, DT, 8, 40),                                 \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_p48_fwd, HSM_KOP_FWD, DT, 8, 48),                             \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_p56_fwd, HSM_KOP_FWD, DT, 8, 56),                             \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_p64_fwd, HSM_KOP_FWD, DT, 8, 64)
/* The forward with options peeled (hsm_row_fwd_body's P): a twin of each vector and packed kernel for
 * rows at any element offset with no mask tensor (log-softmax, scale, causal, dtype pairs,
 * alpha/beta, safe rows, statistics over odd lengths: GPT-2's 50257 columns), which otherwise take
 * the scalar kernels at a third to a half of the speed. The mask tensor's loads are compiled out of
 * them. v8 and v16 are held to their plain twin's registers (sm_90: fp32 v8 8 bytes spilled, v16 32),
 * for the residency of short rows. The packed ones are left at 64: capped at 56, p64's 84 bytes of
 * spills cost bf16 4096 x 4097 and 8191 12-14%, where fp16 4096 x 32771 gained 6% from a second block
 * a SM (H200, bench/results/h200-2026-11-24-peel-fwd.md). */
#define HSM_ROW_FWD_PEEL_KERNEL(NAME, T, VEC, C) HSM_ROW_PEEL_KERNEL_B(NAME, T, VEC, C, hsm_row_fwd_body)
#define HSM_ROW_FWD_PEEL_KERNEL_CAP(NAME, T, VEC, C, REGS)                                            \
    HSM_ROW_PEEL_KERNEL_CAP(NAME, T, VEC, C, hsm_row_fwd_body, REGS)
#define HSM_ROW_PACKED_FWD_PEEL_KERNEL(NAME, T, C)                                                    \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_packed_fwd_body<T, C, true>(a);                                                       \
    }
#define HSM_ROW_FWD_PEEL_SET(SFX, T)                                                                  \
    HSM_ROW_FWD_PEEL_KERNEL_CAP(hsm_row_##SFX##_v8_peel_fwd, T, 8, 8, 40)                             \
    HSM_ROW_FWD_PEEL_KERNEL_CAP(hsm_row_##SFX##_v16_peel_fwd, T, 8, 16, 48)                           \
    HSM_ROW_FWD_PEEL_KERNEL(hsm_row_##SFX##_v32_peel_fwd, T, 8, 32)                                   \
    HSM_ROW_PACKED_FWD_PEEL_KERNEL(hsm_row_##SFX##_p40_peel_fwd, T, 40)                               \
    HSM_ROW_PACKED_FWD_PEEL_KERNEL(hsm_row_##SFX##_p48_peel_fwd, T, 48)                               \
    HSM_ROW_PACKED_FWD_PEEL_KERNEL(hsm_row_##SFX##_p56_peel_fwd, T, 56)                               \
    HSM_ROW_PACKED_FWD_PEEL_KERNEL(hsm_row_##SFX##_p64_peel_fwd, T, 64)
#define HSM_ROW_FWD_PEEL_ENTRY(NAME, DT, VEC, C) HSM_ROW_ENTRY_KP(NAME, HSM_KOP_FWD, DT, VEC, C, 1)
#define HSM_ROW_FWD_PEEL_SET_ENTRIES(SFX, DT)                                                         \
    HSM_ROW_FWD_PEEL_ENTRY(hsm_row_##SFX##_v8_peel_fwd, DT, 8, 8),                                    \
        HSM_ROW_FWD_PEEL_ENTRY(hsm_row_##SFX##_v16_peel_fwd, DT, 8, 16),                              \
        HSM_ROW_FWD_PEEL_ENTRY(hsm_row_##SFX##_v32_peel_fwd, DT, 8, 32),                              \
        HSM_ROW_FWD_PEEL_ENTRY(hsm_row_##SFX##_p40_peel_fwd, DT, 8, 40),                              \
        HSM_ROW_FWD_PEEL_ENTRY(hsm_row_##SFX##_p48_peel_fwd, DT, 8, 48),                              \
        HSM_ROW_FWD_PEEL_ENTRY(hsm_row_##SFX##_p56_peel_fwd, DT, 8, 56),                              \
        HSM_ROW_FWD_PEEL_ENTRY(hsm_row_##SFX##_p64_peel_fwd, DT, 8, 64)
/* The backward holds y and dy: half the plain chunks (16 values of each in 64 registers), so rows to
 * 16K columns in one block; longer ones go to SPLIT or ONLINE. In 16 bits the vector ones serve a dy of
 * another dtype (and a forced kernel); dy in y's dtype takes the _w kernels below. */
#define HSM_ROW_BWD_SET(SFX, T, VEC)                                                                  \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_s1_bwd, T, 1, 1, hsm_row_bwd_body)                               \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_s2_bwd, T, 1, 2, hsm_row_bwd_body)                               \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_s4_bwd, T, 1, 4, hsm_row_bwd_body)                               \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_s8_bwd, T, 1, 8, hsm_row_bwd_body)                               \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_v8_bwd, T, VEC, 8, hsm_row_bwd_body)                             \
    HSM_ROW_KERNEL_B(hsm_row_##SFX##_v16_bwd, T, VEC, 16, hsm_row_bwd_body)
#define HSM_ROW_BWD_SET_ENTRIES(SFX, DT, VEC)                                                         \
    HSM_ROW_ENTRY_K(hsm_row_##SFX##_s1_bwd, HSM_KOP_BWD, DT, 1, 1),                                   \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_s2_bwd, HSM_KOP_BWD, DT, 1, 2),                               \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_s4_bwd, HSM_KOP_BWD, DT, 1, 4),                               \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_s8_bwd, HSM_KOP_BWD, DT, 1, 8),                               \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_v8_bwd, HSM_KOP_BWD, DT, VEC, 8),                             \
        HSM_ROW_ENTRY_K(hsm_row_##SFX##_v16_bwd, HSM_KOP_BWD, DT, VEC, 16)
/* The backward peeled (hsm_row_bwd_body's P): a twin of each vector kernel for rows at any element
 * offset, which otherwise take the scalar kernels (H200, fp16 16384 x 1023: s8 at 0.67 of its aligned
 * neighbour's speed, v16_peel at 0.89, bench/results/h200-2026-11-24-peel-bwd.md). */
#define HSM_ROW_BWD_PEEL_KERNEL(NAME, T, VEC, C) HSM_ROW_PEEL_KERNEL_B(NAME, T, VEC, C, hsm_row_bwd_body)
#define HSM_ROW_BWD_PEEL_ENTRY(NAME, DT, VEC, C) HSM_ROW_ENTRY_KP(NAME, HSM_KOP_BWD, DT, VEC, C, 1)
/* The 16-bit backward held as stored (hsm_row_bwd_words_body), for rows on 16 bytes and the peeled
 * twins for the others (the same body: the plan's tables tell them apart, hsm_kernel.peel); the plan
 * gives them every call whose dy has y's dtype (hsm_kernel.dy_as_y), the kernels above the others. */
#define HSM_ROW_BWD_WORDS_KERNEL(NAME, T, C)                                                          \
    extern "C" __global__ void __launch_bounds__(HSM_ROW_MAX_BLOCK) NAME(hsm_args a)                 \
    {                                                                                                 \
        hsm_row_bwd_words_body<T, C>(a);                                                              \
    }
#define HSM_ROW_BWD_WORDS_SET(SFX, T)                                                                 \
    HSM_ROW_BWD_WORDS_KERNEL(hsm_row_##SFX##_w8_bwd, T, 8)                                            \
    HSM_ROW_BWD_WORDS_KERNEL(hsm_row_##SFX##_w16_bwd, T, 16)                                          \
    HSM_ROW_BWD_WORDS_KERNEL(hsm_row_##SFX##_w32_bwd, T, 32)                                          \
    HSM_ROW_BWD_WORDS_KERNEL(hsm_row_##SFX##_w8_peel_bwd, T, 8)                                       \
    HSM_ROW_BWD_WORDS_KERNEL(hsm_row_##SFX##_w16_peel_bwd, T, 16)                                     \
    HSM_ROW_BWD_WORDS_KERNEL(hsm_row_##SFX##_w32_peel_bwd, T, 32)
#define HSM_ROW_BWD_WORDS_ENTRY(NAME, DT, C, PEEL)                                                    \
    {#NAME, (const void *)NAME, HSM_FAMILY_ROW, HSM_KOP_BWD, DT, 8, C, HSM_ROW_MAX_BLOCK, hsm_launch_plain, PEEL, 0, 0, 1}
#define HSM_ROW_BWD_WORDS_SET_ENTRIES(SFX, DT)                                                        \
    HSM_ROW_BWD_WORDS_ENTRY(hsm_row_##SFX##_w8_bwd, DT, 8, 0),                                        \
        HSM_ROW_BWD_WORDS_ENTRY(hsm_row_##SFX##_w16_bwd, DT, 16, 0),                                  \
        HSM_ROW_BWD_WORDS_ENTRY(hsm_row_##SFX##_w32_bwd, DT, 32, 0),                                  \
        HSM_ROW_BWD_WORDS_ENTRY(hsm_row_##SFX##_w8_peel_bwd, DT, 8, 1),                               \
        HSM_ROW_BWD_WORDS_ENTRY(hsm_row_##SFX##_w16_peel_bwd, DT, 16, 1),                             \
        HSM_ROW_BWD_WORDS_ENTRY(hsm_row_##SFX##_w32_peel_bwd, DT, 32, 1)

/* The packed backward (hsm_row_packed_bwd_body), _p<C>_bwd: 2 and 4 packs a thread, blocks of at
 * most HSM_ROW_PACKED_BWD_BLOCK threads; `lanes` 1 marks the kernels the plan gives only the plain
 * backward, a block a row (plan.c's plan_row_packed), and dy_as_y those that hold 16-bit y and dy.
 * _p32_b512_bwd: 16-bit C = 32 in blocks of HSM_ROW_PACKED_BWD_WIDE_BLOCK whatever the row (FIXED:
 * each pack's offset a constant of its load and store, where a register a pack made the kernel spill
 * 32 bytes at this cap and run 0.94x), held to HSM_ROW_PACKED_BWD_WIDE_REGS registers (_p32_bwd's 75
 * would leave one block of 512 a SM), for 16-bit rows of 12296-16384 columns (plan.c's
 * HSM_ROW_PACKED_FIXED_FILL), which ROW's words kernel (_w32_bwd) served before. A stand-alone kernel
 * of this shape ran bf16 4096 x 16384 0.6% faster than the library's plan, level with torch.compile;
 * these, against the library before (H200, kernel time, same command, three commands): 4096 x 16384
 * 1.002-1.004x (bf16 94.00 -> 93.76 us; log-softmax 1.002-1.003x, fp16 1.003x), 512-2048 x 16384
 * 1.007-1.022x, 4096 x 12296-14336 0.997-1.003x. The same fixed block for 16-bit and fp32 rows of
 * 3080-4096 columns (C = 16, blocks of 256; 40 registers, six blocks a SM where _p16_bwd has five)
 * ran 0.981-1.004x: not kept (bench/results/h200-2026-12-01-wide-packed-bwd.md). */
#define HSM_ROW_PACKED_BWD_KERNEL_T(NAME, T, C, BOUND, B, FIXED)                                     \
    extern "C" __global__ void BOUND NAME(hsm_args a)                                                 \
    {                                                                                                 \
        hsm_row_packed_bwd_body<T, C, B, FIXED>(a);                                                   \
    }
#define HSM_ROW_PACKED_BWD_KERNEL(NAME, T, C)                                                         \
    HSM_ROW_PACKED_BWD_KERNEL_T(NAME, T, C, __launch_bounds__(HSM_ROW_PACKED_BWD_BLOCK), HSM_ROW_PACKED_BWD_BLOCK, \
                                false)
#define HSM_ROW_PACKED_BWD_WIDE_KERNEL(NAME, T, C)                                                    \
    HSM_ROW_PACKED_BWD_KERNEL_T(NAME, T, C,                                                           \
                                HSM_KERNEL_REG_CAP(HSM_ROW_PACKED_BWD_WIDE_BLOCK, HSM_ROW_PACKED_BWD_WIDE_REGS), \
                                HSM_ROW_PACKED_BWD_WIDE_BLOCK, true)
#define HSM_ROW_PACKED_BWD_ENTRY_B(NAME, DT, VEC, C, B, LANES)                                        \
    {#NAME, (const void *)NAME, HSM_FAMILY_ROW, HSM_KOP_BWD, DT, VEC, C, B, hsm_launch_plain, 0, 0, LANES, VEC == 8}
#define HSM_ROW_PACKED_BWD_ENTRY(NAME, DT, VEC, C)                                                    \
    HSM_ROW_PACKED_BWD_ENTRY_B(NAME, DT, VEC, C, HSM_ROW_PACKED_BWD_BLOCK, 1)

HSM_ROW_FWD_SET(f32, float, 4)
HSM_ROW_KERNEL_B(hsm_row_f32_v20_fwd, float, 4, 20, hsm_row_fwd_body)
HSM_ROW_KERNEL_B(hsm_row_f32_v24_fwd, float, 4, 24, hsm_row_fwd_body)
HSM_ROW_KERNEL_B(hsm_row_f32_v28_fwd, float, 4, 28, hsm_row_fwd_body)
HSM_ROW_FWD_SET(f16, hsm_f16, 8)
HSM_ROW_PACKED_FWD_SET(f16, hsm_f16)
HSM_ROW_FWD_SET(bf16, hsm_bf16, 8)
HSM_ROW_PACKED_FWD_SET(bf16, hsm_bf16)
HSM_ROW_FWD_PEEL_KERNEL_CAP(hsm_row_f32_v8_peel_fwd, float, 4, 8, 40)
HSM_ROW_FWD_PEEL_KERNEL_CAP(hsm_row_f32_v16_peel_fwd, float, 4, 16, 48)
HSM_ROW_FWD_PEEL_KERNEL(hsm_row_f32_v20_peel_fwd, float, 4, 20)
HSM_ROW_FWD_PEEL_KERNEL(hsm_row_f32_v24_peel_fwd, float, 4, 24)
HSM_ROW_FWD_PEEL_KERNEL(hsm_row_f32_v28_peel_fwd, float, 4, 28)
HSM_ROW_FWD_PEEL_KERNEL(hsm_row_f32_v32_peel_fwd, float, 4, 32)
HSM_ROW_FWD_PEEL_SET(f16, hsm_f16)
HSM_ROW_FWD_PEEL_SET(bf16, hsm_bf16)
HSM_ROW_KERNEL_B(hsm_row_f32_v4_bwd, float, 4, 4, hsm_row_bwd_body)
HSM_ROW_BWD_SET(f32, float, 4)
HSM_ROW_BWD_SET(f16, hsm_f16, 8)
HSM_ROW_BWD_SET(bf16, hsm_bf16, 8)
HSM_ROW_BWD_PEEL_KERNEL(hsm_row_f32_v4_peel_bwd, float, 4, 4)
HSM_ROW_BWD_PEEL_KERNEL(hsm_row_f32_v8_peel_bwd, float, 4, 8)
HSM_ROW_BWD_PEEL_KERNEL(hsm_row_f32_v16_peel_bwd, float, 4, 16)
HSM_ROW_BWD_PEEL_KERNEL(hsm_row_f16_v8_peel_bwd, hsm_f16, 8, 8)
HSM_ROW_BWD_PEEL_KERNEL(hsm_row_f16_v16_peel_bwd, hsm_f16, 8, 16)
HSM_ROW_BWD_PEEL_KERNEL(hsm_row_bf16_v8_peel_bwd, hsm_bf16, 8, 8)
HSM_ROW_BWD_PEEL_KERNEL(hsm_row_bf16_v16_peel_bwd, hsm_bf16, 8, 16)
HSM_ROW_BWD_WORDS_SET(f16, hsm_f16)
HSM_ROW_BWD_WORDS_SET(bf16, hsm_bf16)
HSM_ROW_PACKED_BWD_KERNEL(hsm_row_f32_p8_bwd, float, 8)
HSM_ROW_PACKED_BWD_KERNEL(hsm_row_f32_p16_bwd, float, 16)
HSM_ROW_PACKED_BWD_KERNEL(hsm_row_f16_p16_bwd, hsm_f16, 16)
HSM_ROW_PACKED_BWD_KERNEL(hsm_row_f16_p32_bwd, hsm_f16, 32)
HSM_ROW_PACKED_BWD_KERNEL(hsm_row_bf16_p16_bwd, hsm_bf16, 16)
HSM_ROW_PACKED_BWD_KERNEL(hsm_row_bf16_p32_bwd, hsm_bf16, 32)
HSM_ROW_PACKED_BWD_WIDE_KERNEL(hsm_row_f16_p32_b512_bwd, hsm_f16, 32)
HSM_ROW_PACKED_BWD_WIDE_KERNEL(hsm_row_bf16_p32_b512_bwd, hsm_bf16, 32)

/* In ascending chunk size per dtype and vector width: the plan relies on it. */
static const hsm_kernel hsm_row_table[] = {
    HSM_ROW_ENTRY(hsm_row_f32_s1, HSM_F32, 1, 1), HSM_ROW_ENTRY(hsm_row_f32_s2, HSM_F32, 1, 2),
    HSM_ROW_ENTRY(hsm_row_f32_s4, HSM_F32, 1, 4), HSM_ROW_ENTRY(hsm_row_f32_s8, HSM_F32, 1, 8),
    HSM_ROW_ENTRY(hsm_row_f32_s16, HSM_F32, 1, 16),
    HSM_ROW_ENTRY(hsm_row_f32_v8, HSM_F32, 4, 8), HSM_ROW_ENTRY(hsm_row_f32_v16, HSM_F32, 4, 16),
    HSM_ROW_ENTRY(hsm_row_f32_v20, HSM_F32, 4, 20), HSM_ROW_ENTRY(hsm_row_f32_v24, HSM_F32, 4, 24),
    HSM_ROW_ENTRY(hsm_row_f32_v28, HSM_F32, 4, 28), HSM_ROW_ENTRY(hsm_row_f32_v32, HSM_F32, 4, 32),
    HSM_ROW_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_ROW_PACKED_SET_ENTRIES(f16, HSM_F16),
    HSM_ROW_SET_ENTRIES(bf16, HSM_BF16, 8),
    HSM_ROW_PACKED_SET_ENTRIES(bf16, HSM_BF16),
    HSM_ROW_PEEL_ENTRY(hsm_row_f32_v8_peel, HSM_F32, 4, 8), HSM_ROW_PEEL_ENTRY(hsm_row_f32_v16_peel, HSM_F32, 4, 16),
    HSM_ROW_PEEL_ENTRY(hsm_row_f32_v20_peel, HSM_F32, 4, 20), HSM_ROW_PEEL_ENTRY(hsm_row_f32_v24_peel, HSM_F32, 4, 24),
    HSM_ROW_PEEL_ENTRY(hsm_row_f32_v28_peel, HSM_F32, 4, 28), HSM_ROW_PEEL_ENTRY(hsm_row_f32_v32_peel, HSM_F32, 4, 32),
    HSM_ROW_PEEL_SET_ENTRIES(f16, HSM_F16),
    HSM_ROW_PEEL_SET_ENTRIES(bf16, HSM_BF16),
    HSM_ROW_F32_SHIFT_ENTRY(hsm_row_f32_v16_shift, 16), HSM_ROW_F32_SHIFT_ENTRY(hsm_row_f32_v20_shift, 20),
    HSM_ROW_F32_SHIFT_ENTRY(hsm_row_f32_v24_shift, 24), HSM_ROW_F32_SHIFT_ENTRY(hsm_row_f32_v28_shift, 28),
    HSM_ROW_F32_SHIFT_ENTRY(hsm_row_f32_v32_shift, 32),
    HSM_ROW_F32_STAGE_ENTRY(hsm_row_f32_v16_stage, 16), HSM_ROW_F32_STAGE_ENTRY(hsm_row_f32_v20_stage, 20),
    HSM_ROW_F32_STAGE_ENTRY(hsm_row_f32_v24_stage, 24), HSM_ROW_F32_STAGE_ENTRY(hsm_row_f32_v28_stage, 28),
    HSM_ROW_F32_STAGE_ENTRY(hsm_row_f32_v32_stage, 32),
    HSM_ROW_SHIFT_SET_ENTRIES(f16, HSM_F16),
    HSM_ROW_SHIFT_SET_ENTRIES(bf16, HSM_BF16),
    HSM_ROW_STAGE16_SET_ENTRIES(f16, HSM_F16),
    HSM_ROW_STAGE16_SET_ENTRIES(bf16, HSM_BF16),
    HSM_ROW_LOG_ENTRY(hsm_row_f32_v8_log, HSM_F32, 4, 8), HSM_ROW_LOG_ENTRY(hsm_row_f32_v16_log, HSM_F32, 4, 16),
    HSM_ROW_LOG_ENTRY(hsm_row_f32_v20_log, HSM_F32, 4, 20), HSM_ROW_LOG_ENTRY(hsm_row_f32_v24_log, HSM_F32, 4, 24),
    HSM_ROW_LOG_ENTRY(hsm_row_f32_v28_log, HSM_F32, 4, 28), HSM_ROW_LOG_ENTRY(hsm_row_f32_v32_log, HSM_F32, 4, 32),
    HSM_ROW_LOG_SET_ENTRIES(f16, HSM_F16),
    HSM_ROW_LOG_SET_ENTRIES(bf16, HSM_BF16),
    HSM_ROW_PEEL_LOG_ENTRY(hsm_row_f32_v8_peel_log, HSM_F32, 4, 8),
    HSM_ROW_PEEL_LOG_ENTRY(hsm_row_f32_v16_peel_log, HSM_F32, 4, 16),
    HSM_ROW_PEEL_LOG_ENTRY(hsm_row_f32_v20_peel_log, HSM_F32, 4, 20),
    HSM_ROW_PEEL_LOG_ENTRY(hsm_row_f32_v24_peel_log, HSM_F32, 4, 24),
    HSM_ROW_PEEL_LOG_ENTRY(hsm_row_f32_v28_peel_log, HSM_F32, 4, 28),
    HSM_ROW_PEEL_LOG_ENTRY(hsm_row_f32_v32_peel_log, HSM_F32, 4, 32),
    HSM_ROW_PEEL_LOG_SET_ENTRIES(f16, HSM_F16),
    HSM_ROW_PEEL_LOG_SET_ENTRIES(bf16, HSM_BF16),
    HSM_ROW_F32_STAGE_LOG_ENTRY(hsm_row_f32_v16_stage_log, 16),
    HSM_ROW_F32_STAGE_LOG_ENTRY(hsm_row_f32_v20_stage_log, 20),
    HSM_ROW_F32_STAGE_LOG_ENTRY(hsm_row_f32_v24_stage_log, 24),
    HSM_ROW_F32_STAGE_LOG_ENTRY(hsm_row_f32_v28_stage_log, 28),
    HSM_ROW_F32_STAGE_LOG_ENTRY(hsm_row_f32_v32_stage_log, 32),
    HSM_ROW_ENTRY_K(hsm_row_f32_s1_fwd, HSM_KOP_FWD, HSM_F32, 1, 1),
    HSM_ROW_ENTRY_K(hsm_row_f32_s2_fwd, HSM_KOP_FWD, HSM_F32, 1, 2),
    HSM_ROW_ENTRY_K(hsm_row_f32_s4_fwd, HSM_KOP_FWD, HSM_F32, 1, 4),
    HSM_ROW_ENTRY_K(hsm_row_f32_s8_fwd, HSM_KOP_FWD, HSM_F32, 1, 8),
    HSM_ROW_ENTRY_K(hsm_row_f32_s16_fwd, HSM_KOP_FWD, HSM_F32, 1, 16),
    HSM_ROW_ENTRY_K(hsm_row_f32_v8_fwd, HSM_KOP_FWD, HSM_F32, 4, 8),
    HSM_ROW_ENTRY_K(hsm_row_f32_v16_fwd, HSM_KOP_FWD, HSM_F32, 4, 16),
    HSM_ROW_ENTRY_K(hsm_row_f32_v20_fwd, HSM_KOP_FWD, HSM_F32, 4, 20),
    HSM_ROW_ENTRY_K(hsm_row_f32_v24_fwd, HSM_KOP_FWD, HSM_F32, 4, 24),
    HSM_ROW_ENTRY_K(hsm_row_f32_v28_fwd, HSM_KOP_FWD, HSM_F32, 4, 28),
    HSM_ROW_ENTRY_K(hsm_row_f32_v32_fwd, HSM_KOP_FWD, HSM_F32, 4, 32),
    HSM_ROW_FWD_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_ROW_PACKED_FWD_SET_ENTRIES(f16, HSM_F16),
    HSM_ROW_FWD_SET_ENTRIES(bf16, HSM_BF16, 8),
    HSM_ROW_PACKED_FWD_SET_ENTRIES(bf16, HSM_BF16),
    HSM_ROW_FWD_PEEL_ENTRY(hsm_row_f32_v8_peel_fwd, HSM_F32, 4, 8),
    HSM_ROW_FWD_PEEL_ENTRY(hsm_row_f32_v16_peel_fwd, HSM_F32, 4, 16),
    HSM_ROW_FWD_PEEL_ENTRY(hsm_row_f32_v20_peel_fwd, HSM_F32, 4, 20),
    HSM_ROW_FWD_PEEL_ENTRY(hsm_row_f32_v24_peel_fwd, HSM_F32, 4, 24),
    HSM_ROW_FWD_PEEL_ENTRY(hsm_row_f32_v28_peel_fwd, HSM_F32, 4, 28),
    HSM_ROW_FWD_PEEL_ENTRY(hsm_row_f32_v32_peel_fwd, HSM_F32, 4, 32),
    HSM_ROW_FWD_PEEL_SET_ENTRIES(f16, HSM_F16),
    HSM_ROW_FWD_PEEL_SET_ENTRIES(bf16, HSM_BF16),
    HSM_ROW_ENTRY_K(hsm_row_f32_s1_bwd, HSM_KOP_BWD, HSM_F32, 1, 1),
    HSM_ROW_ENTRY_K(hsm_row_f32_s2_bwd, HSM_KOP_BWD, HSM_F32, 1, 2),
    HSM_ROW_ENTRY_K(hsm_row_f32_s4_bwd, HSM_KOP_BWD, HSM_F32, 1, 4),
    HSM_ROW_ENTRY_K(hsm_row_f32_s8_bwd, HSM_KOP_BWD, HSM_F32, 1, 8),
    HSM_ROW_ENTRY_K(hsm_row_f32_v4_bwd, HSM_KOP_BWD, HSM_F32, 4, 4),
    HSM_ROW_ENTRY_K(hsm_row_f32_v8_bwd, HSM_KOP_BWD, HSM_F32, 4, 8),
    HSM_ROW_ENTRY_K(hsm_row_f32_v16_bwd, HSM_KOP_BWD, HSM_F32, 4, 16),
    HSM_ROW_BWD_SET_ENTRIES(f16, HSM_F16, 8),
    HSM_ROW_BWD_SET_ENTRIES(bf16, HSM_BF16, 8),
    HSM_ROW_BWD_PEEL_ENTRY(hsm_row_f32_v4_peel_bwd, HSM_F32, 4, 4),
    HSM_ROW_BWD_PEEL_ENTRY(hsm_row_f32_v8_peel_bwd, HSM_F32, 4, 8),
    HSM_ROW_BWD_PEEL_ENTRY(hsm_row_f32_v16_peel_bwd, HSM_F32, 4, 16),
    HSM_ROW_BWD_PEEL_ENTRY(hsm_row_f16_v8_peel_bwd, HSM_F16, 8, 8),
    HSM_ROW_BWD_PEEL_ENTRY(hsm_row_f16_v16_peel_bwd, HSM_F16, 8, 16),
    HSM_ROW_BWD_PEEL_ENTRY(hsm_row_bf16_v8_peel_bwd, HSM_BF16, 8, 8),
    HSM_ROW_BWD_PEEL_ENTRY(hsm_row_bf16_v16_peel_bwd, HSM_BF16, 8, 16),
    HSM_ROW_BWD_WORDS_SET_ENTRIES(f16, HSM_F16),
    HSM_ROW_BWD_WORDS_SET_ENTRIES(bf16, HSM_BF16),
    HSM_ROW_PACKED_BWD_ENTRY(hsm_row_f32_p8_bwd, HSM_F32, 4, 8),
    HSM_ROW_PACKED_BWD_ENTRY(hsm_row_f32_p16_bwd, HSM_F32, 4, 16),
    HSM_ROW_PACKED_BWD_ENTRY(hsm_row_f16_p16_bwd, HSM_F16, 8, 16),
    HSM_ROW_PACKED_BWD_ENTRY(hsm_row_f16_p32_bwd, HSM_F16, 8, 32),
    HSM_ROW_PACKED_BWD_ENTRY(hsm_row_bf16_p16_bwd, HSM_BF16, 8, 16),
    HSM_ROW_PACKED_BWD_ENTRY(hsm_row_bf16_p32_bwd, HSM_BF16, 8, 32),
    /* after _p32_bwd, which plan_row_packed takes first where its block holds the row */
    HSM_ROW_PACKED_BWD_ENTRY_B(hsm_row_f16_p32_b512_bwd, HSM_F16, 8, 32, HSM_ROW_PACKED_BWD_WIDE_BLOCK, 2),
    HSM_ROW_PACKED_BWD_ENTRY_B(hsm_row_bf16_p32_b512_bwd, HSM_BF16, 8, 32, HSM_ROW_PACKED_BWD_WIDE_BLOCK, 2),
};

extern "C" const hsm_kernel *hsm_row_kernels(size_t *count)
{
    *count = sizeof hsm_row_table / sizeof hsm_row_table[0];
    return hsm_row_table;
}
