/* plan.c: which kernel family and launch geometry serve a problem on this handle's device. The grid of
 * every family comes from the exact occupancy model (arch/) applied to the metadata of the kernel
 * that will run (but ROW's, ONLINE's backward's and CHANNEL's on large problems: a block a row or
 * tile, HSM_BLOCK_A_ROW_MIN_BYTES and HSM_ROW_PLAIN_A_ROW_MIN_BYTES); plans are cached per (dtype,
 * alignment, line alignment, forced family, rows, cols). */
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* Thresholds chosen from bench/sweep-kernels.sh, each family and kernel forced on the same shapes in
 * one run (bench/results/h200-2026-11-22.md, -22b.md, -22c.md and -22d.md; % of the copy bandwidth,
 * H200, M=4096):
 * - WARP up to 512 columns: at 1024 columns ROW was 3% (fp32) to 18% (bf16) faster, at 512 equal.
 * - ROW: the largest per-thread chunk that leaves a block of at least 64 threads: the fastest ROW
 *   kernel or within 5% of it at every N from 1K to 32K (fp32 and bf16, H100 and H200). 16-bit rows
 *   of more than 2K columns take the kernels that hold them as stored (64 values per thread, rows to
 *   64K): bf16 N=32K 83% and N=64K 86%, where the fp32-held kernels gave 77% and (SPLIT) 77%.
 * - Where ROW would leave one block per SM for a short row (under 88 KiB for 16-bit rows, 84 KiB for
 *   fp32) and the rows are fewer than 16 a SM (HSM_ROW_ALONE_ROWS_PER_CU: with more, ROW's one block
 *   is now as fast or faster, 0.99-1.06x, h200-2026-12-01-row-regs.md), SPLIT with one block per row
 *   instead where that keeps two or more blocks (and as many threads) per SM: two rows in flight per
 *   SM, where one block's per-row reductions leave DRAM idle (the figures that follow are of 11-22).
 *   bf16 N=32776..43008 (64-84 KiB): 75-84% against 69-80%; at 45048 (88 KiB) both 78%, and from 96
 *   KiB rows (49152) ROW's one block is as fast or faster (83-86% against 81-84%). fp32 N=16392,
 *   18432, 20480 (64-80 KiB): 84.5-85.5, 86.0-87.1, 86.9-87.9 against 81.8-82.6, 84.9-86.1,
 *   85.9-86.5; from 84 KiB ROW is ahead (N=21504: 87.4-88.0, SPLIT at 21496: 85.8-86.3; N=22528: 2
 *   points). Since ROW lays rows out from their line, its 16-bit kernel holding 64 values takes 54
 *   registers instead of 60 (now held to 56: softmax_row.hip), and two blocks of up to 576 threads
 *   fit per SM: 16-bit rows to 36864 columns stay with ROW (bf16 N=32776..36864: 82.4-86.0 against
 *   75.2-80.5 with SPLIT, the same run, h200-2026-11-22d.md), and the swap starts at 36872 (85.6 ->
 *   79.7).
 * - Rows longer than ROW holds, many of them, that one block holds in registers and shared memory
 *   (fp32 to about 80K columns, 16-bit to about 140K): SPLIT with one block per row, which needs no
 *   group barrier. fp32 N=33K..80K: 89-91%, against 67-82% (ONLINE) and 77-83% (SPLIT over several
 *   blocks); bf16 N=72K..139K: 83-87%.
 * - Longer rows, many of them: SPLIT over several blocks (fp32 N=96K..256K: 83-86%, ONLINE 70-84%;
 *   bf16 and fp16 N=144K..512K: 76-82%, ONLINE 63-80%). ONLINE is what serves them where a
 *   cooperative launch is not available.
 * - Few rows (fewer than 2 per SM), long ones: SPLIT, which puts the whole GPU on each row; in every
 *   call but the one-pass ones, only rows longer than HSM_FEW_ROWS_ROW_MAX_BYTES or than ROW holds
 *   (ROW below). */
#define HSM_WARP_MAX_COLS 512
/* The plain backward's rows WARP's packed kernels take, at most (plan_auto): 4 KB, fp32 rows of 1024
 * columns, the longest measured (16-bit rows of 2048 columns on 32 lanes of 64 values ran no faster
 * than ROW's kernel: bench/results/h200-2026-11-30-warp-packed-bwd.md). */
#define HSM_WARP_PACKED_BWD_MAX_BYTES 4096
/* The plain backward's rows ROW's packed kernels take, at most (plan_auto; their blocks hold as
 * much: 16-bit 8192 columns, fp32 4096), and the threads of their grid, a block a row: within 2^31
 * (AMD's limit is 2^32). */
#define HSM_ROW_PACKED_BWD_MAX_BYTES (16 << 10)
/* 16-bit rows past that, up to this: ROW's _p32_b512_bwd kernels (blocks of 512 threads whatever the
 * row: 16384 columns), where plan_row_packed gives them the row. */
#define HSM_ROW_PACKED_BWD_WIDE_MAX_BYTES (32 << 10)
/* ROW's fixed-block packed backward (lanes 2: _p32_b512), launched with its largest block whatever the
 * row, only where the row needs more than HSM_ROW_PACKED_FIXED_FILL quarters of those threads, and on
 * 32-lane targets only (nothing was measured on 64-lane ones), unless forced: shorter rows leave the
 * rest without a column. bf16 4096 x 8200, 9216 and 10240 on it ran 0.84x, 0.92x and 0.97x of the
 * kernel before them, 12288 (384 of its 512 threads' worth) 1.002x (H200, same run;
 * bench/results/h200-2026-12-01-wide-packed-bwd.md). */
#define HSM_ROW_PACKED_FIXED_FILL 3
#define HSM_ROW_PACKED_BWD_MAX_THREADS ((int64_t)1 << 31)
#define HSM_WARP_TWO_ROW_COLS 256        /* fewer_lanes */
#define HSM_WARP_F32_MAX_COLS 1024       /* plan_auto: fp32's plain rows past HSM_WARP_MAX_COLS */
#define HSM_WARP_PEEL16_MAX_COLS 64      /* plan_peeled: WARP's 16-bit peeled twins, rows of fewer columns */
#define HSM_WARP_HALF_MIN_COLS 64        /* plan_get: WARP's _h kernels, rows of more columns */
#define HSM_WARP_QUAD_MIN_COLS 256       /* plan_get: WARP's _q kernels, rows of more columns */
#define HSM_WARP_QUAD_SHORT_MIN_COLS 64  /* quad_short_rows: and of more columns than this */
#define HSM_WARP_SCALAR_BYTES (4 << 20)  /* scalar_rows */
#define HSM_WARP_MAX_GRID ((int64_t)1 << 24) /* plan_warp: 2^24 blocks of 128 threads */
/* WARP's kernels that do not loop over rows (hsm_warp_once): 2^20 blocks a launch, further launches
 * for the rows past them (hsm_launch_warp_rows). Lower than the other bound so that a GPU test reaches
 * the second launch with tensors of half a gigabyte (kernel.warp_launches); a launch of 2^20 blocks
 * runs for milliseconds, its launch's microseconds are nothing beside it. */
#define HSM_WARP_ONCE_MAX_GRID ((int64_t)1 << 20)
#define HSM_ROW_MIN_BLOCK 64
#define HSM_ROW_WARP_A_ROW_WARPS 24 /* plan_row */
#define HSM_MANY_ROWS_PER_CU 2
#define HSM_SPLIT_MIN_COLS 4096
#define HSM_ROW_ALONE_MIN_BYTES_16 (88 << 10) /* rows ROW may serve with one block per SM */
#define HSM_ROW_ALONE_MIN_BYTES_F32 (84 << 10)
/* ...and only where there are fewer rows than this many a SM/CU: with more, ROW's one block. H200,
 * kernel time, ROW's one block against SPLIT's one block a row (the rule before) in one run
 * (bench/results/h200-2026-12-01-row-regs.md): 4096 rows (31 a SM) bf16 x 45048 1.06x, log-softmax x
 * 32776 1.42x (its _log kernel fits two blocks a SM), fp32 x 20000 1.05x, x 16388 1.01x, bf16 x 40960
 * 1.005x; 16384 rows bf16 x 40960 1.003x, fp32 x 18432 1.06x; 3168 rows (24 a SM) fp32 x 20000 1.04x,
 * 2112 (16) 1.02x, but bf16 x 40960 0.99x at both and fp32 2112 x 16388 0.995x; fewer rows lost:
 * 1024 (7.8 a SM) bf16 x 40960 0.98x, fp32 x 20000 0.98x, 300 rows fp32 x 20000 0.91x (bf16 x 40960
 * 1.09x), and 1584 (12 a SM) were even (0.997-0.998x). */
#define HSM_ROW_ALONE_ROWS_PER_CU 16
/* Few rows (fewer than HSM_MANY_ROWS_PER_CU a SM) of up to this many bytes of x (y in the backward)
 * that ROW holds: ROW, a block a row, not SPLIT, in every call but the one-pass ones (statistics alone,
 * or given). Forward, H100, one process, each family forced on 8 to 256 rows, two rounds, the faster
 * of each (bench/results/h100-2026-11-28-few-rows.md): softmax and log-softmax rows of 64 KB or less
 * (fp32 4096-16384 columns, bf16 4096-32768) 0.99-1.42x on ROW, median 1.15x fp32 and 1.21x bf16 (fp32 128 x 12344
 * log-softmax 12.9 us against 14.8); longer rows, on 1024-thread ROW blocks or one block a SM,
 * 0.83-1.66x, median 0.95x bf16 and 0.99x fp32 (bf16 8 x 65536 softmax 11.3 us on SPLIT, 13.3 on
 * ROW), and stay on SPLIT. Against the library before: scale and mixed dtypes 0.84-2.45x (behind on
 * bf16 8 x 32768 and 64 x 4096, 0.84-0.94). Backward, H100, against the library before in one run
 * (bench/results/h100-2026-11-28-few-rows-backward.md): 1.03-1.37x on all 77 shapes (8-256 rows of
 * 4096-16384 columns; softmax and log-softmax, fp32, bf16, fp16, fp32 dy, scale), median 1.14-1.23x. */
#define HSM_FEW_ROWS_ROW_MAX_BYTES (64 << 10)
/* A group's barrier and combine grow with its blocks: fp32 M=4 N=8M on an H200 ran at 60.5% of the
 * copy bandwidth with 1024 blocks per row, 58% with 1171 (the same run). */
#define HSM_SPLIT_MAX_ROW_BLOCKS 1024
/* ROW (and ONLINE's backward) launch a block a row, not a persistent grid of the blocks the SMs hold at
 * once, where the input (x; for the backward y, dy and dx together, row_grid) is this large: the kernels
 * loop over rows gridDim.x apart either way, and with a block a row the rows still to come wait in the
 * launch, each SM taking the next as soon as one of its blocks retires, where a persistent block issues
 * its next row's loads only after its own reductions and stores. H100, same library, against the resident
 * grid (bench/results/h100-2026-11-27-block-a-row.md): rows of 2K-32K columns 1.01-1.12x on 32 MB and more
 * (bf16 4096 x 16384 1.09x, 99% of a same-size copy; fp32 4096 x 4096 1.06x; backward 1.01-1.07x; scale,
 * masks and mixed dtypes 1.02-1.08x); on 8-16 MB problems 0.94-1.05x, so those stay resident.
 * CHANNEL's kernels loop over tiles (or groups of them) the same way, and take the same rule, a block
 * a unit of work (bench/results/h100-2026-11-27-channel-grid.md, against the resident grid): 16-bit
 * tile kernels 1.02-1.15x on 32 MB and more, fp32 backward 1.02-1.10x, fp32 word forward at C = 32
 * and 128 1.12-1.15x, at C = 64 and 150 unchanged; on 4-22 MB tensors the same grid went 0.96-1.03x
 * (h100-2026-11-27-tries.md part 7), so those stay resident.
 * Not measured on AMD (no AMD GPU here): the same rule. */
#define HSM_BLOCK_A_ROW_MIN_BYTES ((int64_t)32 << 20)
/* ROW's plain forward and log-softmax launch a block a row where x has this many bytes or more (more
 * than 16 MiB) and its rows HSM_ROW_PLAIN_A_ROW_MIN_ROW_BYTES or more, on 32-lane targets, but for
 * the 16-bit v32 peeled kernel (row_grid): H200, kernel time, against the resident grid, same run
 * (bench/results/h200-2026-12-02-row-grid.md, commands 2-4): 17-33 MB of x 1.003-1.117x (bf16 4096 x
 * 3072 1.072-1.080x, 4096 x 3584 1.108-1.117x, 4096 x 4095 with x's rows 4096 apart 1.077-1.094x,
 * 2048 x 8000 1.082x, 8192 x 2047 with x's rows 2048 apart (p32's _shift twin) 1.070x; fp32 1.003-1.055x;
 * log-softmax 0.997-1.045x). It lost at 16 MiB exactly (bf16 8192 x 1024 0.981x, 1024 x 8192 0.991x,
 * 4096 x 2048 0.997x) and on the 16-bit v32 peeled kernel (dense rows of 1100-2047 columns,
 * 0.978-0.987x, log-softmax 0.982-0.992x); rows under 3 KiB on other kernels were not measured above
 * 16 MiB, and under 16 MiB it was mixed (bf16 4096 x 1536, 12.6 MB, 0.976x): all those stay
 * resident. The forward with options, the backward, CHANNEL and 64-lane targets keep
 * HSM_BLOCK_A_ROW_MIN_BYTES (not measured below it; no AMD GPU here). */
#define HSM_ROW_PLAIN_A_ROW_MIN_BYTES (((int64_t)16 << 20) + 1)
#define HSM_ROW_PLAIN_A_ROW_MIN_ROW_BYTES 3072
/* fp32's plain rows that WARP's _v8 takes (plan_compute), under this size of x: measured against ROW's
 * resident grid up to 32 MiB, and against ROW's block a row at 16 MiB, 4096 x 1024, where it still
 * ran 1.017x (bench/results/h200-2026-12-02-row-grid.md). */
#define HSM_WARP_F32_MAX_BYTES ((int64_t)32 << 20)

/* ROW's plain forward (softmax and log-softmax) launched a block a row, on rows of 32 KiB or more,
 * asks L2 for the row resident / HSM_ROW_AHEAD_DIV visits after each of its own (hsm_launch's
 * ahead): such a block holds its long row in registers alone or beside a few others, so its SM's
 * loads stop while it reduces and stores, and the lines of a row soon to come are then already on
 * their way. H200, one library, the same run, against no prefetch (bench/results/
 * h200-2026-11-28-row-ahead.md): a wave ahead (every resident block's next row, 13-17 MB of lines in
 * L2) ran 0.75-0.97x; an eighth of one (1-2 MB) bf16 4096 x 50256 1.10x, 65536 1.05x, 16384 1.04x,
 * fp32 4096 x 16384 1.02x. The backward (y and dy) lost at every distance (0.96-0.97x, bf16 4096 x
 * 16384), the forward with a mask did not gain (0.98-1.00x): neither asks. Against the library before,
 * rows of 32 KiB and more 1.01-1.09x; shorter rows, with more blocks a SM to cover each other, 0.92-1.03x
 * (fp32 4096 x 2048 0.92x and 0.99x in two runs), and the resident grid (fp32 4096 x 1024, 16 MB)
 * 0.90x: neither asks. On AMD the prefetch is a no-op (hsm_vendor.h). */
#define HSM_ROW_AHEAD_DIV 8
#define HSM_ROW_AHEAD_MIN_ROW_BYTES ((int64_t)32 << 10)

static int occupancy_smem(const struct hipsoftmax_context *h, const hsm_kernel_state *ks, int block, size_t dyn)
{
    arch_occupancy occ;
    if (block > ks->k->max_block || arch_occupancy_exact(&h->dev, &ks->meta, block, dyn, NULL, &occ) != ARCH_OK)
        return 0;
    return occ.blocks_per_cu;
}

static int occupancy(const struct hipsoftmax_context *h, const hsm_kernel_state *ks, int block)
{
    return occupancy_smem(h, ks, block, 0);
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t elem_bytes(hsm_dtype dt) { return dt == HSM_F32 ? 4 : 2; }
/* The grid of a family whose blocks loop over units of work gridDim.x apart (ROW's and ONLINE's rows,
 * CHANNEL's tiles): a block a unit where the input, `bytes`, is `min_bytes` or more, its
 * work-items within 31 bits (CDNA's dispatch counts work-items in 32; past that the blocks loop; it
 * also keeps CHANNEL's word kernels' 32-bit step, gridDim.x x tiles a block, exact), else `resident`
 * blocks; never more blocks than units. */
static int work_grid(int64_t bytes, int64_t units, int block, int64_t resident, int64_t min_bytes)
{
    return (int)min64(units, bytes >= min_bytes ? (int64_t)INT32_MAX / block : resident);
}

/* The plain forward's kernel operations, softmax and log-softmax: the ones planned as the plain
 * forward is (hsm_plan_get). */
static int is_plain_kop(hsm_kop kop) { return kop == HSM_KOP_PLAIN || kop == HSM_KOP_LOG; }

/* CHANNEL's: a block a unit (a tile, or a block's group of tiles) where the tensor is large. */
static int channel_grid(const hsm_req *q, int64_t outer, int64_t c, int64_t inner, int64_t units, int64_t block,
                        int64_t resident)
{
    return work_grid(outer * c * inner * elem_bytes(q->dt), units, (int)block, resident, HSM_BLOCK_A_ROW_MIN_BYTES);
}

/* hsm_req, what a plan is for: internal.h (it is part of the plan cache's key). */

/* Whether a kernel holds 16-bit values as stored and converts them again for the output (ROW's
 * packed kernels, chunks over 32; WARP's packed forward). */
static int holds_raw(const hsm_kernel *k)
{
    return k->lanes != 0 || (k->family == HSM_FAMILY_ROW && k->dtype != HSM_F32 && k->cols_per_thread > 32);
}

/* ROW's and ONLINE's: a block a row where `a_row` allows it and the rows are large (the plain forward
 * and log-softmax of rows of HSM_ROW_PLAIN_A_ROW_MIN_ROW_BYTES on kernel k from
 * HSM_ROW_PLAIN_A_ROW_MIN_BYTES, the rest from HSM_BLOCK_A_ROW_MIN_BYTES). The backward counts the
 * bytes of y, dy (taken in y's dtype) and dx, the tensors it moves, where it counted y's:
 * H200, against the library before, three rounds (bench/results/h200-2026-11-28-split-copies.md):
 * 0.995-1.027x, 1.013x on average, on the ten launches of 19-30 us whose grid changed (fp32 4096 x
 * 1024 and 1536 1.018x; fp32 4096 x 2000, 2048 x 2048 and bf16 4096 x 3072 0.995-0.998x), 0.985-1.010x
 * on the four whose grid did not. */
static int row_grid(const struct hipsoftmax_context *h, const hsm_req *q, const hsm_kernel *k, int64_t rows,
                    int64_t cols, int block, int64_t resident, int a_row)
{
    const int64_t per = q->kop == HSM_KOP_BWD ? 2 * elem_bytes(q->dt) + q->out_es : elem_bytes(q->dt);
    /* (not the 16-bit peeled kernels that hold floats, v32's: HSM_ROW_PLAIN_A_ROW_MIN_BYTES says why) */
    const int peeled16 = k->dtype != HSM_F32 && k->peel == 1 && !holds_raw(k);
    const int plain = h->dev.warp_size == 32 && is_plain_kop(q->kop) && !peeled16 &&
                      cols * elem_bytes(q->dt) >= HSM_ROW_PLAIN_A_ROW_MIN_ROW_BYTES;
    return work_grid(a_row ? rows * cols * per : 0, rows, block, resident,
                     plain ? HSM_ROW_PLAIN_A_ROW_MIN_BYTES : HSM_BLOCK_A_ROW_MIN_BYTES);
}

/* Whether a kernel takes given row statistics: all but ROW's forward kernels of the largest
 * unpacked chunks (HSM_ROW_GIVEN_MAX_CHUNK says why). */
static int takes_given(const hsm_kernel *k)
{
    return !(k->family == HSM_FAMILY_ROW && k->kop == HSM_KOP_FWD && !holds_raw(k) &&
             k->cols_per_thread > HSM_ROW_GIVEN_MAX_CHUNK);
}

/* Whether ROW's 16-bit backward kernel k fits how the request holds dy: a kernel that holds y and dy
 * as stored (hsm_kernel.dy_as_y) takes only dy in y's dtype, and such a call takes no other vector
 * kernel of ROW's backward but a forced one. Every other kernel fits. */
static int words_match(const struct hipsoftmax_context *h, const hsm_req *q, const hsm_kernel *k)
{
    if (k->dy_as_y)
        return q->dy_as_y;
    return !(q->dy_as_y && k->family == HSM_FAMILY_ROW && k->kop == HSM_KOP_BWD && k->vec > 1 &&
             h->forced_kernel[0] == '\0');
}

/* Kernels of a family for the request, in table order (ascending cols_per_thread). */
static const hsm_kernel_state *next_kernel(const struct hipsoftmax_context *h, const hsm_kernel_state *after,
                                           hsm_family f, const hsm_req *q)
{
    const hsm_kernel_state *end = h->kernels + h->n_kernels;
    for (const hsm_kernel_state *s = after != NULL ? after + 1 : h->kernels; s < end; s++)
        if (s->k->family == f && s->k->kop == q->kop && s->k->dtype == q->dt && s->k->vec == q->vec &&
            s->k->peel == q->peel && (s->k->flat != 0) == (q->flat != 0) &&
            ((s->k->lanes != 0) == (q->packed != 0) || h->forced_kernel[0] != '\0') && s->have_meta &&
            !(q->no_raw && holds_raw(s->k)) && !(q->given && !takes_given(s->k)) && words_match(h, q, s->k) &&
            !(s->k->lanes != 0 && s->k->kop == HSM_KOP_BWD && !q->plain_bwd) &&
            (h->forced_kernel[0] == '\0' || strcmp(h->forced_kernel, s->k->name) == 0))
            return s;
    return NULL;
}

/* Whether WARP passes over kernel s (w lanes a row) for the next, which holds twice the values a lane
 * on half the lanes, for rows of at most 256 columns (16-bit vector kernels of the plain forward and
 * log-softmax: 512). Not for a forced kernel.
 * - fp32, the plain forward and log-softmax: where s takes the whole warp for a row. The next kernel
 *   then holds two rows a warp, 16 lanes each, with twice the loads in flight a lane, as cuDNN's
 *   kernel does at 128 columns (H100, same run, kernel time: 4096 x 128 3.52 us against 3.63, 4096 x
 *   256 4.93 against 5.02, 16384 x 128 8.00 against 8.21; bench/results/h100-2026-11-27-warp-grid.md).
 *   The scalar kernels (rows off 16 bytes) only where s holds at most two values a lane: 16384 x 33 ran
 *   3.90 us on 16 lanes of 4 against 4.50 on 32 of 2, 127 columns 3.81 on 32 lanes of 4 against 3.90
 *   on 16 of 8 (h100-2026-11-27-scalar.md).
 * - 16-bit (the vector kernels, rows on 16 bytes): where the next kernel's groups still give every
 *   SM/CU HSM_WARP_FEWER_LANES_WARPS warps, from one pack a lane to two where s has 16 lanes or more
 *   (a lane's loads in flight double), and on the plain forward and log-softmax from two to four
 *   where that takes fewer lane passes a row: a row of P packs on w lanes runs ceil(P / w) passes of
 *   w lanes, so 80 columns (10 packs) take 16 lane passes on 8 lanes of two packs and 12 on 4 lanes
 *   of four. H200, kernel time of each kernel forced (bench/results/h200-2026-11-29-warp-lanes16.md):
 *   fp16 65536 x 80 10.08 us on 16 lanes of one pack, 9.15 on 8 of two, 8.24 on 4 of four; 262144 x
 *   136 64.4, 48.5, 44.2; 65536 x 128 11.39, 10.56 (four packs 11.31); 65536 x 256 20.48, 18.61.
 *   Since the two-pack kernels are held to 32 registers (16 blocks a SM; fp16's took 40, twelve
 *   blocks, where four packs take 48, ten), two packs run ahead on tensors of up to
 *   HSM_WARP_TWO_PACKS_MAX_BYTES, four past them (H200, each forced, kernel time, same run;
 *   bench/results/h200-2026-12-01-short16-lanes.md): fp16 65536 x 80 7.51 us on two, 7.91 on four,
 *   bf16 7.66 and 7.95, bf16 65536 x 136 12.50 and 12.98, fp16 65536 x 192 14.34 and 14.54, 8192 x
 *   320 4.35 and 4.59, log-softmax fp16 65536 x 80 7.68 and 7.94; past 32 MB fp16 262144 x 80 24.74
 *   and 23.47, 65536 x 320 22.49 and 22.29, 262144 x 320 83.54 and 81.51 (262144 x 136, 39.69 and
 *   40.56, is the exception). 64-lane targets, where no register cap applies, keep the step (not
 *   measured: no AMD GPU here).
 *   Fewer rows do not fill the GPU so: 4096 x 128 2.27 us on 16 lanes, 2.43 on 8. Of the rows it
 *   moves, bf16 log-softmax at 16384 rows lost (0.95-0.98x). 64 columns (8 lanes of one pack) stay:
 *   on 4 lanes of two they ran 0.96-1.00x on 8192-65536 rows (1.10-1.14x on 131072-262144).
 *   The forward with options and the backward hold more a value (64-bit columns, masks; y and dy)
 *   and gain more from the first step (scale 1/8: fp16 65536 x 80 16.03 us on one pack, 11.36 on
 *   two; 65536 x 256 31.23, 22.32; backward 65536 x 192 25.39, 22.26), less or nothing from the
 *   second (65536 x 80: 12.10 on four, backward 13.33), which they do not take.
 *   The second step on rows of 257-512 columns too (two packs a lane on 32 lanes, four on 16, where
 *   that takes fewer lane passes: 264-384 columns, not 448 or 512). H200, against the library before
 *   (bench/results/h200-2026-11-30-half.md): fp16 65536 x 320 1.118x, 65536 x 384 1.107x, 262144 x
 *   320 1.129x, 8192 x 320 1.136x, bf16 16384 x 384 1.059x, log-softmax bf16 65536 x 320 1.077x.
 * - 16-bit, the _h kernels (packs of 8 bytes: rows on 8 bytes, not 16): half a warp a row where a row
 *   would take the whole warp and the rows still give every SM/CU HSM_WARP_FEWER_LANES_WARPS warps
 *   (scalar16_fewer). H200, each forced (bench/results/h200-2026-11-30-half.md): fp16 65536 x 100
 *   10.01 us on 16 lanes of two packs, 10.35 on 8 of four, 11.58 on 4 of eight; 65536 x 180 16.06 on
 *   16 of four, 16.83 on 8 of eight, 17.22 on 32 of two; 65536 x 300 25.93 on 16 of eight, 26.95 on
 *   32 of four; 65536 x 500 35.10 and 35.17. The _q kernels (packs of 4 bytes) keep as few lanes as
 *   hold the row: fp16 65536 x 302 27.17 us on 32 lanes of eight packs, 31.82 on 16 of sixteen;
 *   65536 x 510 35.61 and 43.42 (bench/results/h200-2026-11-30-quad.md).
 * - fp32, the forward with options and the backward: the 16-bit rule's first step (a pack is four
 *   values): scale 1/8 65536 x 128 26.10 us on 32 lanes of one pack, 20.16 on 16 of two; backward
 *   28.27, 27.73.
 * - 16-bit, the scalar kernels (rows off 16 bytes), the plain forward and log-softmax: where s takes
 *   the whole warp for a row with fewer than 8 values a lane, on rows that still give every SM/CU
 *   HSM_WARP_FEWER_LANES_WARPS warps. H200, each kernel forced, padded rows (every stride cols + 1):
 *   fp16 65536 x 77 14.40 us on 32 lanes of 4, 13.15 on 16 of 8; 65536 x 120 15.66, 15.25; bf16
 *   65536 x 127 14.14, 13.04; log-softmax fp16 65536 x 77 14.61, 12.44, at 33 columns 12.58 on 32
 *   lanes of 2, 8.74 on 16 of 4 (bench/results/h200-2026-11-30-warp-scalar16.md). At 33 columns
 *   the softmax ran 7.78 on 16 lanes of 4 and 8.92 on 8 of 8: the rule stops at the half warp.
 * - The peeled kernels (rows off 16 bytes, x's and y's at the same offsets), every dtype: the first
 *   step. H200, each forced, every stride cols + 1 or + 3 (bench/results/h200-2026-11-29-warp-peel.md):
 *   fp32 65536 x 77 18.93 us on 32 lanes of one pack, 16.38 on 16 of two; bf16 65536 x 200 25.66,
 *   23.33; fp16 65536 x 77 13.92, 13.58, but 262144 x 77 49.61, 51.52. Four packs lost on 16-bit
 *   rows (fp16 65536 x 77 14.53). */
#define HSM_WARP_FEWER_LANES_WARPS 16
/* The first step for 16-bit rows on 16 bytes of 129-256 columns (one pack a lane on a 32-lane warp,
 * two on half of it), the plain forward and log-softmax: on rows that give every SM this many warps on
 * half a warp each, fewer than HSM_WARP_FEWER_LANES_WARPS. H200, each forced (bench/results/
 * h200-2026-12-01-short16-rows.md, command 1): fp16 4096 x 256 2.83 us on 16 lanes of two packs, 2.91
 * on 32 of one; 4096 x 192 2.53, 2.62; 3072 x 192 2.30, 2.39; log-softmax 4096 x 256 2.84, 2.93; bf16
 * 4096 x 256 2.83, 2.88; 3072 x 256 2.54, 2.51 (the one loss); at 2048 rows (8 warps a SM) level or
 * behind (bf16 2048 x 256 2.22, 2.19); at 80-128 columns (16 lanes of one pack, 8 of two) one pack
 * ran ahead on every row count to 4096 (fp16 4096 x 128 2.24, 2.34), which the bound above keeps.
 * Against the library before (same file, commands 2 and 4): 1.017-1.041x at 3072-4096 x 192-256 (fp16
 * 4096 x 256 2.88 -> 2.78 us, 94% of a same-size copy), 3072 x 256 1.000x. */
#define HSM_WARP_HALF_ONE_PACK_WARPS 10
#define HSM_WARP_TWO_PACKS_MAX_BYTES ((int64_t)32 << 20) /* fewer_lanes: two packs, not four, up to this */
/* Whether rows on half a warp each still give every SM/CU HSM_WARP_FEWER_LANES_WARPS warps: where
 * they do, 16-bit scalar kernels of the plain forward and log-softmax take 8 values a lane
 * (fewer_lanes), and 16-bit rows of HSM_WARP_PEEL16_MAX_COLS columns or more those rather than the
 * peeled kernels (plan_peeled). */
static int scalar16_fewer(const struct hipsoftmax_context *h, int64_t rows)
{
    return rows * (h->dev.warp_size / 2) >= (int64_t)HSM_WARP_FEWER_LANES_WARPS * h->dev.num_cus * h->dev.warp_size;
}
/* Whether WARP's _q kernels (16-bit rows on 4 bytes) take rows of HSM_WARP_QUAD_SHORT_MIN_COLS to
 * HSM_WARP_QUAD_MIN_COLS columns (plan_get's sub_rows, dense rows only), each on half the lanes that
 * would hold it in the fewest (fewer_lanes): where the rows still give every SM 16 warps on half a warp
 * each (scalar16_fewer), 32-lane targets only. Such rows took the staged kernels: fp16 65536 x 98 on
 * `_flat_w8` 11.31 us, on `_q4` (16 lanes of four packs) 9.50, on `_q2` (32 of two) 12.74 (H200, each
 * forced). Against the library before (H200, kernel time, same run; both in
 * bench/results/h200-2026-12-01-short16-lanes.md): fp16 65536 x 66 1.274x, 98 1.196x (log-softmax
 * 1.180x), bf16 130 1.566x, fp16 162 1.500x, 194 1.351x, bf16 226 1.246x, fp16 254 1.207x, where
 * torch.compile's kernel had run 130 and 162 columns 1.09x and 1.15x as fast as the staged one; now
 * 1.29-2.03x torch.compile's speed. Not measured on padded rows, which keep their kernels (dense only). */
static int quad_short_rows(const struct hipsoftmax_context *h, int64_t rows, int64_t cols)
{
    return h->dev.warp_size == 32 && cols > HSM_WARP_QUAD_SHORT_MIN_COLS && cols <= HSM_WARP_QUAD_MIN_COLS &&
           scalar16_fewer(h, rows);
}
static int fewer_lanes(const struct hipsoftmax_context *h, const hsm_req *q, const hsm_kernel_state *s, int w,
                       int64_t rows, int64_t cols)
{
    const int c = s->k->cols_per_thread, vec = s->k->vec, lane_bytes = c * (int)elem_bytes(q->dt);
    const int plain16 = q->dt != HSM_F32 && vec > 1 && is_plain_kop(q->kop) && !q->peel;
    if (h->forced_kernel[0] != '\0' || s->k->flat || s->k->lanes != 0 ||
        cols > (plain16 ? HSM_WARP_MAX_COLS : HSM_WARP_TWO_ROW_COLS))
        return 0;
    if (q->dt == HSM_F32 && is_plain_kop(q->kop) && !q->peel)
        return w == h->dev.warp_size && (vec > 1 ? c < 8 * vec : c <= 2);
    const int64_t packs = cols / vec, half = w / 2;
    if (q->dt != HSM_F32 && vec == 1 && is_plain_kop(q->kop))
        return w == h->dev.warp_size && c < 8 && scalar16_fewer(h, rows);
    if (vec > 1 && vec * elem_bytes(q->dt) < 16) /* the _h kernels (packs of 8 bytes); the _q (4) on short rows */
        return w == h->dev.warp_size &&
               (vec * elem_bytes(q->dt) == 8 ? scalar16_fewer(h, rows) : quad_short_rows(h, rows, cols));
    const int one_pack16 = plain16 && lane_bytes <= 16 && w == 32 && h->dev.warp_size == 32;
    const int64_t warps = one_pack16 ? HSM_WARP_HALF_ONE_PACK_WARPS : HSM_WARP_FEWER_LANES_WARPS;
    if (vec == 1 || lane_bytes > 32 || half == 0 || rows * half < warps * h->dev.num_cus * h->dev.warp_size)
        return 0;
    if (lane_bytes <= 16) /* past 256 columns only a 64-lane wave's one pack a lane: unmeasured, left */
        return w >= 16 && cols <= HSM_WARP_TWO_ROW_COLS;
    /* fewer lane passes a row; on 32-lane targets (two packs held to 32 registers) only on tensors
     * past HSM_WARP_TWO_PACKS_MAX_BYTES */
    const int two_packs_held =
        h->dev.warp_size == 32 && rows * cols * elem_bytes(q->dt) <= HSM_WARP_TWO_PACKS_MAX_BYTES;
    return is_plain_kop(q->kop) && !two_packs_held && !q->peel &&
           half * ceil_div(packs, half) < w * ceil_div(packs, w);
}

static hipsoftmax_status plan_warp(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows,
                                   int64_t cols, hsm_plan *out)
{
    const int warp = h->dev.warp_size;
    /* A peeled kernel lays a row out from the 16 bytes that hold its start: up to vec - 1 more; a
     * staged kernel (16-bit) from the 32-bit word that holds it: one more. */
    const int64_t span = cols + (q->peel ? q->vec - 1 : 0) + (q->flat ? 1 : 0);
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_WARP, q); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_WARP, q)) {
        const int c = s->k->cols_per_thread;
        /* The staged kernels have their group width built in (k->flat): the table lists them from the
         * fewest lanes, so the first that holds the row (hip/softmax_warp.hip says why). */
        if ((int64_t)(s->k->flat ? s->k->flat : warp) * c < span)
            continue;
        int w = s->k->flat ? s->k->flat : 1;
        while ((int64_t)w * c < span)
            w *= 2;
        if (fewer_lanes(h, q, s, w, rows, cols))
            continue;
        if (s->k->lanes != 0 && w != s->k->lanes) /* a packed kernel takes only rows that need its lanes */
            continue;
        const int block = s->k->max_block;
        const int bpc = occupancy(h, s, block);
        HSM_RETURN_IF(bpc == 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
        const int64_t blocks = ceil_div(rows, block / w); /* a block for every block / w rows */
        /* WARP's packed backward does not loop over rows (hip/softmax_warp.hip says why): all of
         * those blocks, or not this kernel. */
        if (s->k->lanes != 0 && s->k->kop == HSM_KOP_BWD && blocks > HSM_WARP_MAX_GRID)
            continue;
        out->ks = s;
        out->block = block;
        out->group_width = w;
        out->blocks_per_row = 1;
        /* The plain forward and log-softmax: a block for every block / w rows, not only as many as are
         * resident with each looping over rows: the GPU starts a waiting block wherever one ends,
         * where the loop left the last round to some of the blocks (H100, same run, kernel time: fp32
         * 65536 x 128 25.2 us against 26.6, 16384 x 128 8.13 against 8.21, the others as before).
         * Bounded so that a grid's threads stay under 2^31 (AMD's limit is 2^32); past that the
         * kernels loop, or (hsm_warp_once: no loop) launch again. The packed kernels on causal rows
         * too, whose lengths run from one column to the whole row: a resident grid gave each warp a
         * fixed share of them, a block for every four rows lets each SM take more as its rows end
         * (H200, same run against the resident grid, bench/results/h200-2026-11-29-causal-grid.md:
         * bf16 131072 x 1024 1.08x, 131072 x 2048 1.14x, fp16 262144 x 2048 1.07x, 32768-row batches
         * 1.05-1.08x). */
        const int by_rows = is_plain_kop(s->k->kop) || (s->k->lanes != 0 && (q->causal || s->k->kop == HSM_KOP_BWD));
        const int64_t cap = hsm_warp_once(s->k) ? HSM_WARP_ONCE_MAX_GRID
                            : by_rows           ? HSM_WARP_MAX_GRID
                                                : (int64_t)h->dev.num_cus * bpc;
        out->grid = (int)min64(blocks, cap);
        if (s->k->flat) {
            /* The staged kernels: as many rows a span as fit HSM_WARP_FLAT_BYTES (every group the same
             * rounds), but no more than spreads the rows over every resident block, so a small
             * problem keeps every SM busy. The span holds a round of every group: block / w rows of
             * at most w * c columns, at most block * 16 * 4 bytes. A third of that grid, each block
             * with three spans to overlap one's copy with another's reduction, was slower (H200, same
             * run: 0.83-0.96x on problems of 4-10 MB, 1.00x on fp16 and bf16 262144 x 77). */
            const int64_t groups = block / w, resident = (int64_t)h->dev.num_cus * bpc;
            const int64_t fit = HSM_WARP_FLAT_BYTES / (cols * elem_bytes(q->dt)) / groups * groups;
            HSM_RETURN_IF(fit < groups, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
            const int64_t even = ceil_div(ceil_div(rows, resident), groups) * groups;
            out->flat_rows = (int)min64(fit, even);
            out->grid = (int)min64(ceil_div(rows, out->flat_rows), resident);
        }
        return HIPSOFTMAX_STATUS_SUCCESS;
    }
    return HIPSOFTMAX_STATUS_NOT_SUPPORTED;
}

/* ROW's block for rows of `cols` on kernel k: the threads that hold them, in whole warps. A peeled
 * kernel's chunk (peel 1-3, 16-byte packs) holds vec - 1 columns more than its packs: it reads and
 * writes whole packs alone, each at a column of one residue (the row's first boundary) anywhere in
 * [0, chunk) (pack 0 of the lanes before the row's start moves a chunk on: hsm_chunk_load's wrap),
 * and the fewer than vec columns each side of them one a thread (hsm_peel_col), so the last whole pack
 * of a row of up to chunk + vec - 1 columns starts under the chunk. A row of 2049 16-bit columns
 * then takes 64 threads of 32 values (no idle lane) where it took 96, or p40's 64 (511 idle). */
static int64_t row_block(const struct hipsoftmax_context *h, const hsm_kernel *k, int64_t cols)
{
    const int64_t held = k->peel && k->vec > 1 ? max64(cols - (k->vec - 1), 1) : cols;
    return ceil_div(ceil_div(held, k->cols_per_thread), h->dev.warp_size) * h->dev.warp_size;
}

/* ROW's packed backward (hip/softmax_row.hip's hsm_row_packed_bwd_body) for the plain backward: the
 * first kernel, in ascending chunk, whose block holds the row (the least C a block of at most
 * HSM_ROW_PACKED_BWD_BLOCK threads allows: more loads in flight a thread where a row needs them, and
 * blocks as small as a row allows; past that, 16-bit _p32_b512, whose block is always its largest:
 * lanes 2), a block a row with no loop over rows, so the grid is the rows. */
static hipsoftmax_status plan_row_packed(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows,
                                         int64_t cols, hsm_plan *out)
{
    const int warp = h->dev.warp_size;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_ROW, q); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_ROW, q)) {
        int64_t block = row_block(h, s->k, cols);
        if (s->k->lanes == 0 || block > s->k->max_block)
            continue;
        if (s->k->lanes == 2) { /* a forced one takes any row its block holds: the tests' partial rows */
            if (h->forced_kernel[0] == '\0' &&
                (warp != 32 ||
                 4 * ceil_div(cols, s->k->cols_per_thread) <= HSM_ROW_PACKED_FIXED_FILL * s->k->max_block))
                continue;
            block = s->k->max_block;
        }
        if (occupancy(h, s, (int)block) == 0)
            continue;
        if (rows * block > HSM_ROW_PACKED_BWD_MAX_THREADS)
            return HIPSOFTMAX_STATUS_NOT_SUPPORTED;
        out->ks = s;
        out->block = (int)block;
        out->group_width = 0;
        out->blocks_per_row = 1;
        out->grid = (int)rows;
        out->ahead = 0;
        return HIPSOFTMAX_STATUS_SUCCESS;
    }
    return HIPSOFTMAX_STATUS_NOT_SUPPORTED;
}

/* The kernel hipsoftmax_set_kernel named, if any. */
static const hsm_kernel *forced_kernel(const struct hipsoftmax_context *h)
{
    for (size_t i = 0; h->forced_kernel[0] != '\0' && i < h->n_kernels; i++)
        if (strcmp(h->kernels[i].k->name, h->forced_kernel) == 0)
            return h->kernels[i].k;
    return NULL;
}

/* The dynamic shared memory of ROW's _stage kernels (peel 3: hsm_row_stage_store, hsm_row_packed_body's
 * G) for rows of `cols`: the row's outputs, from up to vec - 1 elements before y's first 16-byte
 * boundary (fp32: cols + 3 values; 16-bit: cols + 7). */
static size_t row_stage_bytes(const hsm_kernel *k, int64_t cols)
{
    return k->peel == 3 ? (size_t)(cols + k->vec - 1) * elem_bytes(k->dtype) : 0;
}

/* A ROW kernel's resident blocks of `block` threads on rows of `cols`, with its dynamic shared memory
 * (row_stage_bytes; 0 where that does not fit a block). */
static int row_occupancy(const struct hipsoftmax_context *h, const hsm_kernel_state *s, int block, int64_t cols)
{
    const size_t dyn = row_stage_bytes(s->k, cols);
    if (dyn > 0 && dyn + (size_t)s->meta.static_smem > h->dev.smem_per_block_optin)
        return 0;
    return occupancy_smem(h, s, block, dyn);
}

/* plan_row's candidates: kernel s's block for rows of `cols` (row_block) and its resident blocks
 * (row_occupancy), 0 where its bound or kind leaves it out (the packed backward: plan_row_packed). */
static int row_candidate(const struct hipsoftmax_context *h, const hsm_kernel_state *s, int64_t cols, int64_t *block)
{
    *block = row_block(h, s->k, cols);
    return *block > s->k->max_block || s->k->lanes != 0 ? 0 : row_occupancy(h, s, (int)*block, cols);
}

/* ROW's 16-bit plain forward (its peeled rows too) on 32-lane targets (plan_row): where the kernel
 * picked leaves more than 1 / HSM_ROW_IDLE_DIV of its block's columns idle (rows just past what a
 * block of a power-of-two chunk holds: 2056 columns took p64 on 64 threads, room for 4096), the
 * kernel of a block no larger that leaves the fewest idle (of equals, the larger chunk). H200, kernel
 * time, against the library before, same run (bench/results/h200-2026-12-02-row-idle.md): bf16 4096 x
 * 2056 1.237x (p40; 75% -> 93% of a same-size copy, where 2048 columns run at 98%), 2304 1.144x, 2560
 * 1.076x, 2568-2816 (p48) 1.048-1.055x, 4104 (p48) 1.029x, 16384 x 2056 1.028x; peeled rows 4096 x
 * 2049 1.211x (x 2050 apart, y dense: 1.135x), 2561 (x 2562 apart) 1.088x, 3001 1.050x, 4097
 * 1.008-1.019x; fp16 2056 1.241x, 4104 1.031x, 2049 (x 2050 apart) 1.128x; the rows it leaves alone
 * 0.997-1.005x. Not measured: the log-softmax, 64-lane waves. */
#define HSM_ROW_IDLE_DIV 4
/* Whether a block's `room` columns leave at most 1 / HSM_ROW_IDLE_DIV of them idle on rows of `cols`. */
static int row_few_idle(int64_t room, int64_t cols)
{
    return HSM_ROW_IDLE_DIV * (room - cols) <= room;
}
static const hsm_kernel_state *row_fewer_idle(const struct hipsoftmax_context *h, const hsm_req *q, int64_t cols,
                                              int64_t min_block, const hsm_kernel_state *pick, int *pick_block)
{
    const int64_t room = (int64_t)*pick_block * pick->k->cols_per_thread;
    if (row_few_idle(room, cols))
        return pick;
    const hsm_kernel_state *best = pick;
    int64_t best_idle = room - cols;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_ROW, q); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_ROW, q)) {
        int64_t block;
        if (row_candidate(h, s, cols, &block) == 0 || block > *pick_block || block < min_block)
            continue;
        const int64_t idle = block * s->k->cols_per_thread - cols;
        if (idle < best_idle || (idle == best_idle && s->k->cols_per_thread > best->k->cols_per_thread)) {
            best = s;
            best_idle = idle;
            *pick_block = (int)block;
        }
    }
    return best;
}

/* ROW's plan of kernel s on blocks of `block` threads: a block a row (no groups), its dynamic shared
 * memory, the grid (row_grid) and how far ahead its rows' lines are asked for (HSM_ROW_AHEAD_DIV). */
static void row_layout(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows, int64_t cols,
                       const hsm_kernel_state *s, int block, hsm_plan *out)
{
    out->ks = s;
    out->block = block;
    out->group_width = 0;
    out->blocks_per_row = 1;
    out->smem_bytes = row_stage_bytes(s->k, cols);
    const int64_t resident = (int64_t)h->dev.num_cus * row_occupancy(h, s, block, cols);
    out->grid = row_grid(h, q, s->k, rows, cols, block, resident, 1);
    out->ahead = is_plain_kop(q->kop) && out->grid > resident &&
                         cols * elem_bytes(q->dt) >= HSM_ROW_AHEAD_MIN_ROW_BYTES
                     ? (int)(resident / HSM_ROW_AHEAD_DIV) : 0;
}

/* ROW: the largest power-of-two per-thread chunk whose block still has HSM_ROW_MIN_BLOCK threads, or a
 * warp for fp32's plain forward and log-softmax on enough rows (below, in plan_row)
 * (more bytes in flight per thread, fewer threads to reduce over); for rows too short for that, the
 * smallest chunk. Where that leaves one block per SM/CU, the chunk with the most resident threads
 * instead, the chunks between the powers of two included (the larger among equals): just past a row
 * a full block holds, the larger chunk gives one block of a few hundred threads (bf16 N=32776 on an
 * H200, when that kernel took 60 registers and 544 threads fitted once per SM: 64%, 832 threads with
 * 40 values each 69%, after 84% at N=32768). Elsewhere the in-between chunks would leave lanes idle
 * (bf16 N=2048: 37 of 64 with 56 values each, 42% against 50% with 32, same run). On 32-lane
 * targets the 16-bit plain forward's first choice gives way where it leaves more than a quarter of its
 * block idle (row_fewer_idle: the chunk of a block no larger with the fewest idle columns).
 * The forward with options instead takes the power-of-two chunk with the most blocks resident per
 * SM/CU, one row each, where that is more than the first choice's: its kernels hold 48-64 registers a
 * thread, so on short rows the resident rows bound it, and a causal bound halves the bytes each row
 * has in flight (H200, same run, 32 lanes of 32 values against 64 of 16: bf16 131072 x 1024 at scale
 * 1.13x, causal 1.23x, additive mask 1.15x, bool mask 1.21x, log-softmax 1.20x). The packed chunks
 * count only for a causal row: fp16 262144 x 2048 causal, 32 lanes of 64 against 64 of 32, 1.25x;
 * at scale alone 0.98x, bf16 4096 x 2048 log-softmax 0.93x (an earlier run). */
static hipsoftmax_status plan_row(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows,
                                  int64_t cols, hsm_plan *out)
{
    const int warp = h->dev.warp_size;
    /* The packed backward kernels only as plan_row_packed plans them (a request for them, or one of
     * them forced); the loop below never takes them. */
    const hsm_kernel *fk = forced_kernel(h);
    if (q->packed || (fk != NULL && fk->family == HSM_FAMILY_ROW && fk->lanes != 0))
        return plan_row_packed(h, q, rows, cols, out);
    /* fp32's plain forward and log-softmax: a warp a row where the largest chunk allows it (rows of
     * 513-1024 columns, 32 values a lane, as torch.compile's kernel for them) and the rows give every
     * SM/CU HSM_ROW_WARP_A_ROW_WARPS warps; fewer rows keep two warps a row (on 64-lane waves a wave
     * is the least block either way). H200, kernel time, a warp a row against two warps of 16 values
     * (bench/results/h200-2026-11-29-anchor-kernel-time.md): 4096 x 520-1024 1.05-1.12x (4096 x 1024
     * 10.53 -> 9.76 us, log-softmax 10.37 -> 9.54), 3168 x 1024 (24 warps an SM) 1.03-1.05x, 3500 x
     * 1024 1.07-1.09x, 16384 x 1024 1.01x, 65536 x 1024 1.00x; below the threshold a warp a row gained
     * little or lost: 3000 x 1024 1.01-1.04x, 2112 x 1024 (16 warps an SM) 0.96-0.97x, 1024 x 1024
     * 0.94-0.95x, 1823 x 781 log-softmax 0.93x. */
    const int64_t min_block = q->dt == HSM_F32 && is_plain_kop(q->kop) &&
                                      rows >= (int64_t)HSM_ROW_WARP_A_ROW_WARPS * h->dev.num_cus
                                  ? warp
                                  : HSM_ROW_MIN_BLOCK;
    const hsm_kernel_state *pick = NULL, *fallback = NULL, *fullest = NULL, *most = NULL;
    int pick_block = 0, fallback_block = 0, fullest_block = 0, most_block = 0, most_occ = 0;
    int64_t fullest_threads = 0;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_ROW, q); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_ROW, q)) {
        int64_t block;
        const int occ = row_candidate(h, s, cols, &block);
        if (occ == 0)
            continue;
        /* Power-of-two chunks are the first choice; a kernel forced by hipsoftmax_set_kernel is the
         * only candidate, whatever its chunk. */
        const int c = s->k->cols_per_thread, primary = (c & (c - 1)) == 0 || h->forced_kernel[0] != '\0';
        if (fallback == NULL && primary) {
            fallback = s;
            fallback_block = (int)block;
        }
        /* (the smaller chunk among equals: fewer idle lanes; the packed ones, which compute each
         * exponential twice, only where a causal bound lets them skip about half of them) */
        if (primary && occ > most_occ && (q->causal || !holds_raw(s->k))) {
            most = s;
            most_block = (int)block;
            most_occ = occ;
        }
        if (block >= min_block) {
            if (primary) {
                pick = s;
                pick_block = (int)block;
            }
            const int64_t threads = block * occ;
            if (threads >= fullest_threads) {
                fullest = s;
                fullest_block = (int)block;
                fullest_threads = threads;
            }
        }
    }
    if (pick != NULL && h->forced_kernel[0] == '\0' && q->dt != HSM_F32 && q->kop == HSM_KOP_PLAIN && warp == 32)
        pick = row_fewer_idle(h, q, cols, min_block, pick, &pick_block);
    if (pick == NULL) {
        pick = fallback;
        pick_block = fallback_block;
    } else if (q->kop == HSM_KOP_FWD && most_occ > row_occupancy(h, pick, pick_block, cols)) {
        pick = most;
        pick_block = most_block;
    } else if (row_occupancy(h, pick, pick_block, cols) == 1) {
        pick = fullest;
        pick_block = fullest_block;
    }
    HSM_RETURN_IF(pick == NULL, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    row_layout(h, q, rows, cols, pick, pick_block, out);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* Whether ROW holds a row of `cols` in one block. */
static int row_fits(const struct hipsoftmax_context *h, const hsm_req *q, int64_t cols)
{
    const hsm_kernel_state *best = NULL;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_ROW, q); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_ROW, q))
        if (best == NULL || s->k->cols_per_thread > best->k->cols_per_thread)
            best = s;
    return best != NULL && cols <= (int64_t)best->k->max_block * best->k->cols_per_thread;
}

/* ONLINE's geometry in blocks of `block` threads: the tiles of a row, how many of them each block keeps
 * in shared memory and how many blocks are resident per SM/CU (0: none). Two ways to spend that
 * memory: keep every block the registers allow resident (smaller cache each), or take the largest
 * cache (often one block per SM). Measured on an H200 (fp32, M=4096): with half the row or more
 * cached, more resident blocks won (N=32K: 78% vs 74% of the copy bandwidth); with less, the larger
 * cache did (N=64K: 78% vs 73%, N=128K: 76% vs 69%). */
typedef struct online_geometry {
    int64_t tiles, cached, tile_bytes;
    int resident;
} online_geometry;
static online_geometry online_fit(const struct hipsoftmax_context *h, const hsm_req *q, const hsm_kernel_state *s,
                                  int block, int64_t cols)
{
    online_geometry g;
    const int64_t tile = (int64_t)block * s->k->cols_per_thread;
    g.tile_bytes = tile * (q->kop == HSM_KOP_BWD ? q->keep_es : elem_bytes(q->dt));
    g.tiles = ceil_div(cols, tile);
    /* A pass that reads the row once keeps nothing. */
    const size_t limit = h->dev.smem_per_block_optin > s->meta.static_smem && !q->one_pass
                             ? h->dev.smem_per_block_optin - s->meta.static_smem : 0;
    /* Every resident block the registers allow, each with the cache that still fits beside them. */
    g.resident = occupancy(h, s, block);
    g.cached = min64(g.tiles, (int64_t)limit / g.tile_bytes);
    while (g.cached > 0 && occupancy_smem(h, s, block, (size_t)(g.cached * g.tile_bytes)) < g.resident)
        g.cached--;
    /* Less than half the row cached: take the largest cache instead. */
    if (g.resident > 0 && 2 * g.cached < g.tiles) {
        const int64_t most = min64(g.tiles, (int64_t)limit / g.tile_bytes);
        const int r = occupancy_smem(h, s, block, (size_t)(most * g.tile_bytes));
        if (r > 0 && most > g.cached) {
            g.cached = most;
            g.resident = r;
        }
    }
    /* A backward whose dx is wider than y (bf16 y and dy, fp32 dx), one block a SM: nothing kept.
     * Measured on an H200 (bench/results/h200-2026-11-24-online-keep.md, run k6), bf16 -> fp32 4096 x
     * 65536 and 50257 ran 1.05x and 1.03x as fast keeping none as keeping 3 of 4 tiles (743.0 us
     * against 779.8, 660.1 against 680.8), 50256 as fast; in two blocks a SM (4096 x 16384) keeping
     * ran 1.30x as fast as before tiles were kept. */
    if (q->kop == HSM_KOP_BWD && q->out_es > elem_bytes(q->dt) && g.resident < 2) {
        g.cached = 0;
        g.resident = occupancy(h, s, block);
    }
    return g;
}

/* ONLINE: one block per row at a time, keeping as many of the row's tiles as online_fit finds. The
 * backward also weighs blocks of half the threads: where as many threads stay resident, as twice the
 * blocks, and each still keeps three quarters of its row or more, two rows in flight per SM overlap
 * one's sum and second pass with the other's loads. Measured on an H200
 * (bench/results/h200-2026-11-24-online-keep.md), 512 threads against 1024: bf16 4096 x 16384 softmax
 * 84% of a same-size copy against 77%, 24576 86% against 65%, 32768 (3 of 4 tiles kept) 84% against
 * 81%, log-softmax bf16 4096 x 50256 82% against 76%, fp32 4096 x 16384 95% against 94%. With half
 * kept it went both ways: fp32 4096 x 24576 (3 of 6) 338.5 us against 354.2, log-softmax fp32 4096 x
 * 50256 (7 of 13) 765.7 against 701.8; with less than half kept, one 512-thread block per SM was the
 * slower (bf16 4096 x 50256 softmax 62% against 66%, log-softmax 1024 x 131072 68% against 86%). */
static hipsoftmax_status plan_online(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows,
                                     int64_t cols, hsm_plan *out)
{
    const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_ONLINE, q);
    HSM_RETURN_IF(s == NULL, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    int block = s->k->max_block;
    online_geometry g = online_fit(h, q, s, block, cols);
    HSM_RETURN_IF(g.resident == 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    if (q->kop == HSM_KOP_BWD) {
        const online_geometry half = online_fit(h, q, s, block / 2, cols);
        if (half.resident >= 2 * g.resident && 4 * half.cached >= 3 * half.tiles) {
            block /= 2;
            g = half;
        }
    }
    out->ks = s;
    out->block = block;
    out->group_width = 0;
    out->blocks_per_row = 1;
    out->cached_tiles = (int)g.cached;
    out->smem_bytes = (size_t)(g.cached * g.tile_bytes);
    /* The full backward a block a row where it is large (HSM_BLOCK_A_ROW_MIN_BYTES says why): H100,
     * same library, against the resident grid, bf16 4096 x 16384 softmax 1.07x, 32768 1.05x, log-softmax
     * 16384-65536 1.00-1.03x, fp32 16384 and 32768 1.04-1.05x (bench/results/h100-2026-11-27-block-a-row.md). */
    out->grid = row_grid(h, q, s->k, rows, cols, block, (int64_t)h->dev.num_cus * g.resident,
                         q->kop == HSM_KOP_BWD && !q->one_pass);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* Staged tiles (HSM_SPLIT_STAGE_PACKS accesses per thread each) that every one of the `resident`
 * blocks per SM/CU the registers allow can hold in shared memory without lowering that residency. */
static int64_t split_stage_tiles(const struct hipsoftmax_context *h, const hsm_kernel_state *s, int block,
                                 int resident, int64_t tile_bytes)
{
    const int64_t per_block = (int64_t)(h->dev.smem_per_cu / (size_t)resident) -
                              (int64_t)h->dev.reserved_smem_per_block - (int64_t)s->meta.static_smem;
    const int64_t optin = (int64_t)h->dev.smem_per_block_optin - (int64_t)s->meta.static_smem;
    int64_t tiles = (per_block < optin ? per_block : optin) / tile_bytes;
    while (tiles > 0 && occupancy_smem(h, s, block, (size_t)(tiles * tile_bytes)) < resident)
        tiles--;
    return tiles > 0 ? tiles : 0;
}

/* The best SPLIT candidate so far (plan_split). */
typedef struct split_best {
    int whole;       /* its group holds the whole row; -1: no candidate yet */
    int held_kernel; /* 2: a held kernel's lean twin (hsm_split_lean), 1: a held kernel (hsm_split_held), 0: neither */
    int64_t rounds, held, grid;
} split_best;

/* Takes a SPLIT candidate into *out where it beats the best so far: holding the whole row beats not;
 * then, with prefer_held, a held kernel over a staged one where each holds every row in one round;
 * then clearly (1/16) more blocks; within that the fewest rounds, a held kernel over a staged one
 * (hsm_split_held_body says why) and its lean twin over it, the most held. Rows not held whole: the
 * most blocks, the most held. prefer_held (plan_split: the plain forward and log-softmax of rows of
 * HSM_SPLIT_PREFER_HELD_COLS columns or more on 32-lane targets, the rows measured; shorter rows'
 * groups would hold few blocks): the held kernel's 32 values a thread in fewer blocks ran faster than
 * the staged kernel's more blocks on every decode row measured, the same command, each forced (H200,
 * kernel time, bench/results/h200-2026-12-01-decode-rounds.md): fp32 8 x 262144 8.16 us against 8.57
 * (512 blocks against 688), 4 x 262144 6.29 against 6.72, 2 x 262144 5.23 against 5.57, 16 x 131072
 * 7.95 against 8.34, 32 x 131072 11.82 against 12.34, 1 x 524288 5.28 against 5.36, bf16 8 x 262144
 * 6.35 against 6.80. The log-softmax's rows on their line, on the lean twins' _log twins, against the
 * staged _v_log kernels the plan gave them before (bf16 64 x 128256: the held _log kernel), one
 * command: fp32 8 x 262144 1.037x, 4 x 262144 1.070x, 32 x 131072 1.063x, bf16 8 x 262144 1.103x, fp16
 * 16 x 262144 1.187x, bf16 64 x 128256 1.023x (bench/results/h200-2026-12-01-decode-lean.md). */
#define HSM_SPLIT_PREFER_HELD_COLS 131072
static void split_consider(split_best *b, hsm_plan *out, const hsm_kernel_state *s, int block, int whole,
                           int held_kernel, int64_t rounds, int64_t held, int64_t groups, int64_t k, int64_t staged,
                           size_t smem_bytes, int prefer_held)
{
    const int64_t grid = groups * k;
    int better;
    if (whole != b->whole)
        better = whole || b->whole < 0; /* holding the whole row beats not; anything beats none */
    else if (whole && prefer_held && rounds == 1 && b->rounds == 1 && held_kernel != b->held_kernel)
        better = held_kernel > b->held_kernel;
    else if (whole && 16 * (grid - b->grid) > b->grid)
        better = 1; /* clearly more blocks */
    else if (whole && 16 * (b->grid - grid) > b->grid)
        better = 0;
    else if (whole && rounds != b->rounds)
        better = rounds < b->rounds;
    else if (whole && held_kernel != b->held_kernel)
        better = held_kernel > b->held_kernel;
    else if (whole)
        better = held > b->held;
    else
        better = grid > b->grid || (grid == b->grid && held > b->held);
    if (!better)
        return;
    b->whole = whole;
    b->held_kernel = held_kernel;
    b->rounds = rounds;
    b->held = held;
    b->grid = grid;
    out->ks = s;
    out->block = block;
    out->group_width = 0;
    out->blocks_per_row = (int)k;
    out->grid = (int)grid;
    out->staged = (int)staged;
    out->smem_bytes = smem_bytes;
}

/* SPLIT: of every SPLIT kernel for the dtype, every block size it allows, and a chunk in registers
 * alone or in registers and all the shared memory the residency leaves. A candidate that holds the
 * whole row on chip is first spread: as many groups as keep every group busy in every round (rows one
 * group handles in turn, each costing a group barrier), and as many blocks per row as that leaves, so
 * each block holds as little as it can, over at most HSM_SPLIT_MAX_ROW_BLOCKS blocks. Where some hold
 * the whole row, the one with the most co-resident blocks wins, and among those within 1/16 of each
 * other the fewest rounds, then the most held; where none does (rows longer than the GPU holds), the
 * one with the most co-resident blocks, then the most held: the streamed rest of the row wants
 * accesses in flight more than a few MB less of it streamed twice (fp32 M=1 N=2^27 on an H200: 1188
 * blocks of 128 threads 57.5% of the copy bandwidth, 264 of 256 holding 15% more 47.7%). Measured on
 * an H200 (bench/results/h200-2026-11-22.md): 128-thread blocks, 8 per SM, against 256-thread ones
 * with twice the registers: 6 points ahead before the group combine took one pass (M=32, N=1M fp32:
 * 55% vs 49% of the copy bandwidth), within 3% either way since. */
static hipsoftmax_status plan_split(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows,
                                    int64_t cols, int lead, hsm_plan *out)
{
    cols += lead; /* what a row can take, laid out from its line */
    HSM_RETURN_IF(!h->cooperative && h->device >= 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    const int64_t es = q->stage_es, vec = q->vec;
    const int prefer_held = h->dev.warp_size == 32 && is_plain_kop(q->kop) && cols >= HSM_SPLIT_PREFER_HELD_COLS;
    split_best best = {-1, 0, 0, -1, 0};
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_SPLIT, q); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_SPLIT, q)) {
        for (int block = s->k->max_block; block >= 128; block /= 2) {
            const int bpc = occupancy(h, s, block);
            if (bpc == 0)
                continue;
            /* Shared memory is given in tiles of HSM_SPLIT_STAGE_PACKS accesses (the forward copies and
             * folds a tile at once); the backward stages access by access, and its columns take 8 bytes
             * (y and dy as fp32), so whole tiles would leave most of its shared memory unused (bf16 at
             * 64K columns: no tile fitted a 128-thread block, 64 blocks shared each row). */
            const int64_t stage_packs = q->kop == HSM_KOP_BWD ? 1 : HSM_SPLIT_STAGE_PACKS;
            const int64_t tile_bytes = (int64_t)block * stage_packs * vec * es;
            const int64_t most = split_stage_tiles(h, s, block, bpc, tile_bytes);
            const int64_t resident = (int64_t)h->dev.num_cus * bpc;
            const int64_t g = min64(resident, h->workspace_grid > 0 ? h->workspace_grid : resident);
            const int64_t chunk = (int64_t)block * s->k->cols_per_thread, access = (int64_t)block * vec;
            if (hsm_split_held(s->k)) {
                /* The lean twins (hsm_split_lean) take rows on their line (lead 0: x's, and y's on 16
                 * bytes as the vector kernels' are) of fewer than HSM_SPLIT_LEAN_MAX_COLS columns, on
                 * 32-lane targets, where measured (the others' plans keep the held kernels), or forced. */
                const int lean = hsm_split_lean(s->k);
                if (lean && (lead != 0 || cols >= HSM_SPLIT_LEAN_MAX_COLS ||
                             (h->dev.warp_size != 32 && h->forced_kernel[0] == '\0')))
                    continue;
                /* A held kernel takes rows its group holds whole in one round, each block as much of
                 * the row as its registers hold: spread thinner, over as many blocks as the residency
                 * leaves, it ran up to 1.4x slower than the staged kernels (H100: bf16 2 x 1048576 at
                 * 2 packs a thread, fp32 1 x 524288 at 1; bench/results/h100-2026-11-26-held.md). Its
                 * staged is the packs a thread holds, all in registers. */
                const int64_t per = (int64_t)s->k->cols_per_thread / vec;
                const int64_t k = ceil_div(cols, per * access); /* cols: with the lead's room */
                if (rows * k <= g)
                    split_consider(&best, out, s, block, 1, 1 + lean, 1, rows * (cols - lead), rows, k,
                                   ceil_div(cols, k * access), 0, prefer_held);
                continue;
            }
            for (int64_t tiles = 0;; tiles = most) {
                int64_t staged = tiles * stage_packs;
                int64_t span = chunk + staged * access;
                int64_t k = min64(ceil_div(cols, span), g);
                int64_t groups = min64(g / k, rows);
                const int whole = k * span >= cols;
                const int64_t rounds = ceil_div(rows, groups);
                if (whole) {
                    /* Spread the rows: the fewest rounds of groups, every group busy in each, and as many
                     * blocks per row as that leaves (each holding as little as the row allows). */
                    groups = ceil_div(rows, rounds);
                    /* The cap never below the blocks the row needs: fewer would need more shared
                     * memory each than this candidate's residency leaves them. */
                    const int64_t per_block =
                        ceil_div(cols, min64(g / groups, max64(HSM_SPLIT_MAX_ROW_BLOCKS, k)));
                    staged = per_block > chunk ? ceil_div(per_block - chunk, access) : 0;
                    span = chunk + staged * access;
                    k = ceil_div(cols, span);
                }
                const int64_t held = groups * min64(k * span, cols);
                split_consider(&best, out, s, block, whole, 0, rounds, held, groups, k, staged,
                               (size_t)(staged * access * es), prefer_held);
                if (tiles == most)
                    break;
            }
        }
    }
    HSM_RETURN_IF(best.grid == 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* SPLIT with one block per row: the whole row in one block's registers and shared memory, read once,
 * with no group barrier (a group of one block skips it). Of every SPLIT kernel and block size that
 * holds the row with at least `min_bpc` (>= 1) blocks per SM/CU, the one with the most resident threads,
 * then the fewest resident blocks or, with `more_blocks`, the most. A larger fp32 block holds more of
 * a long row in registers and less in shared memory (fp32 N=32776 and 40960 on an H200: one
 * 1024-thread block per SM 81.6% and 89.0% of the copy bandwidth, two 512-thread ones 80.4% and
 * 87.1%); a 16-bit row costs twice the instructions per byte, and two rows in flight per SM hide them
 * (bf16 N=65544: 81.0% against 75.5%, N=40960: 82.7% against 65.6%), as they do for rows short enough
 * that a block's per-row reductions leave DRAM idle (plan_auto). Four blocks of 256 threads were
 * slower than two of 512 there (fp32 N=18432: 84.0-84.7% against 86.0-86.6%; bf16 N=40960: 77% against
 * 83%). */
static hipsoftmax_status plan_split_single(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows,
                                           int64_t cols, int lead, int min_bpc, int more_blocks, hsm_plan *out)
{
    cols += lead;
    HSM_RETURN_IF(!h->cooperative && h->device >= 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    const int64_t es = q->stage_es, vec = q->vec;
    int64_t best_threads = 0;
    int best_bpc = 0;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_SPLIT, q); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_SPLIT, q)) {
        if (hsm_split_held(s->k))
            continue; /* groups of several blocks (plan_split) */
        for (int block = s->k->max_block; block >= 128; block /= 2) {
            const int64_t chunk = (int64_t)block * s->k->cols_per_thread, access = (int64_t)block * vec;
            const int64_t staged = cols > chunk ? ceil_div(cols - chunk, access) : 0;
            const int64_t smem = staged * access * es;
            if (smem + (int64_t)s->meta.static_smem > (int64_t)h->dev.smem_per_block_optin)
                continue;
            const int bpc = occupancy_smem(h, s, block, (size_t)smem);
            if (bpc < min_bpc || (int64_t)bpc * block < best_threads ||
                ((int64_t)bpc * block == best_threads && (more_blocks ? bpc <= best_bpc : bpc >= best_bpc)))
                continue;
            best_threads = (int64_t)bpc * block;
            best_bpc = bpc;
            out->ks = s;
            out->block = block;
            out->group_width = 0;
            out->blocks_per_row = 1;
            out->grid = (int)min64(min64(rows, (int64_t)h->dev.num_cus * bpc),
                                   h->workspace_grid > 0 ? h->workspace_grid : INT32_MAX);
            out->staged = (int)staged;
            out->smem_bytes = (size_t)smem;
        }
    }
    HSM_RETURN_IF(best_threads == 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* CHANNEL ([outer][C][inner], hip/softmax_channel.hip): a warp takes it = min(inner, warp) columns
 * and warp / it positions along C at once (so a narrow inner still reads whole contiguous spans), and
 * G warps share a tile of columns, splitting C. Of the register kernels (N values a thread), the
 * smallest N that holds C with one warp a tile (no barrier, the most loads in flight a thread), else
 * the smallest with at most HSM_CHANNEL_FEW_WARPS warps, else the largest within the kernel's largest block;
 * a C longer than that streams (two passes), with one warp per HSM_CHANNEL_STREAM_CHUNKS chunks of
 * C, and more of them where the tiles are too few to fill the GPU. Blocks of 256 threads (several
 * tiles each) unless one tile's warps need more.
 * The vector kernels (q->vec = V > 1: V adjacent columns a thread, one 16-byte access a position) take
 * HSM_CHANNEL_VLANES lanes of a warp across inner, so a warp's access is whole 128-byte lines at
 * warp / HSM_CHANNEL_VLANES positions along C, and holds that many times more of C than a warp
 * across inner would: fewer warps share a column (C = 150 in fp32: 5 warps of 32 values a thread
 * instead of 19), fewer barriers and combines. Where that leaves fewer tiles than two an SM (8 x 50000
 * x 1024 in bf16: 128 tiles on 132 SMs), half as many lanes across inner, down to
 * HSM_CHANNEL_VLANES_MIN (64 bytes, two whole sectors an access). */
#define HSM_CHANNEL_VLANES 8
#define HSM_CHANNEL_VLANES_MIN 4
#define HSM_CHANNEL_FEW_WARPS 4
#define HSM_CHANNEL_BLOCK_THREADS 256
#define HSM_CHANNEL_STREAM_CHUNKS 4
static hipsoftmax_status plan_channel(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows,
                                      int64_t cols, int64_t inner, hsm_plan *out)
{
    const int warp = h->dev.warp_size;
    const int64_t iv = inner / q->vec, lanes = q->vec > 1 ? HSM_CHANNEL_VLANES : warp;
    int64_t it = iv < lanes ? iv : lanes;
    while (q->vec > 1 && it / 2 >= HSM_CHANNEL_VLANES_MIN && rows * ceil_div(iv, it) < 2 * (int64_t)h->dev.num_cus)
        it /= 2;
    const int64_t ctw = warp / it, tiles = rows * ceil_div(iv, it);
    const hsm_kernel_state *pick = NULL, *few = NULL, *largest = NULL, *stream = NULL;
    int64_t g = 0, g_few = 0, g_largest = 0;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_CHANNEL, q); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_CHANNEL, q)) {
        if (hsm_channel_tiles(s->k) || hsm_channel_words(s->k))
            continue; /* plan_channel_tile's, plan_channel_word's */
        const int64_t max_g = s->k->max_block / warp;
        const int64_t need = ceil_div(cols, ctw * s->k->cols_per_thread);
        if (hsm_channel_streams(s->k)) {
            if (stream == NULL)
                stream = s;
            continue;
        }
        if (need > max_g)
            continue;
        if (pick == NULL && need == 1)
            pick = s, g = 1;
        if (few == NULL && need <= HSM_CHANNEL_FEW_WARPS)
            few = s, g_few = need;
        largest = s, g_largest = need;
    }
    if (pick == NULL)
        pick = few, g = g_few;
    if (pick == NULL)
        pick = largest, g = g_largest;
    if (pick == NULL && stream != NULL) {
        pick = stream;
        const int64_t need = ceil_div(cols, ctw * stream->k->cols_per_thread * HSM_CHANNEL_STREAM_CHUNKS);
        g = min64(need, HSM_CHANNEL_BLOCK_THREADS / warp);
        /* Too few tiles for two blocks an SM: more warps on each. */
        if (tiles < 2 * (int64_t)h->dev.num_cus)
            g = min64(need, stream->k->max_block / warp);
    }
    HSM_RETURN_IF(pick == NULL, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    const int64_t groups = max64(1, HSM_CHANNEL_BLOCK_THREADS / (warp * g));
    const int block = (int)(warp * g * groups);
    /* G > 1: [parity][value][column][warp][lane] floats, two values (max, sum) forward, one backward,
     * of vec columns a thread. */
    const size_t smem =
        g > 1 ? (size_t)2 * (q->kop == HSM_KOP_BWD ? 1 : 2) * (size_t)q->vec * (size_t)block * sizeof(float) : 0;
    const int bpc = occupancy_smem(h, pick, block, smem);
    HSM_RETURN_IF(bpc == 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    out->ks = pick;
    out->block = block;
    out->group_width = 0;
    out->blocks_per_row = 1;
    out->channel_warps = (int)g;
    out->channel_lanes = (int)it;
    out->smem_bytes = smem;
    out->grid = channel_grid(q, rows, cols, inner, ceil_div(tiles, groups), block, (int64_t)h->dev.num_cus * bpc);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* Whether ONLINE takes a call on rows of at least one of its tiles (fits: whether ROW holds the row,
 * row_fits, which the caller has for its own rules).
 * A call that reads each row once (q->one_pass: the statistics alone, or given ones, as the sharded
 * softmax's two calls): the backward's, and
 * the forward's where no ROW block holds the row and there is a row for every SM/CU (ONLINE runs a block
 * per row, keeping no tiles here). Measured on an H200 (bench/results/h200-2026-11-24-sharded.md),
 * against the plan before (SPLIT's backward; SPLIT's forward where ROW does not hold the row):
 *  - backward statistics 1.3-2.0x as fast from 16384 bf16 columns on (bf16 4096 x 64128: 244 us
 *    against 463), the backward given them 1.2-1.6x (bf16) and 1.02-1.08x (fp32); at fp32 4096 x 8192,
 *    one tile, 2-3% slower;
 *  - the forward 1.02-1.26x (bf16 2048 x 128256: statistics 223 us against 256, given 329 against 389),
 *    and the statistics 1.2-1.35x more since ONLINE streams them (hsm_online_stats_pass: 168 us; bf16
 *    8192 x 75968 452 us against SPLIT's 572);
 *  - where ROW holds the row it stays the faster (bf16 4096 x 64128 statistics: 181 us against ONLINE's
 *    246), and with fewer rows than SMs SPLIT does (fp32 64 x 131072 given: 28 us against 36).
 * The full 16-bit backward, with a row for every SM/CU: measured on an
 * H200 (run 7 of the same file), bf16 4096 x 16384/32768/65536 and 1024 x 131072 ran 1.2-1.4x as fast
 * as on SPLIT (4096 x 65536: 514 us against 708, 75% of the copy bandwidth against 54%), fp16 alike.
 * The vector fp32 backward of rows of two of its tiles or more, where ONLINE keeps half the row or
 * more (online_fit): once ONLINE kept tiles (bench/results/h200-2026-11-24-online-keep.md, run k3),
 * 4096 x 16384 ran 1.08x as fast as on SPLIT, 32768 1.08x (log-softmax 1.07x, 1.24x), log-softmax
 * 4096 x 50256 and 65536 1.04x and 1.10x; but softmax 4096 x 24576, its whole row kept in one block
 * per SM, 0.97x (352.9 us against 341.8). With less kept SPLIT stays the faster (4096 x 65536
 * softmax, 3 tiles of 8 kept: 975.5 against 921.2); on one tile or less, ROW and SPLIT were as fast
 * within 3% either way (4096 x 8192 softmax 104.6 against 107.0, log-softmax 110.5 against 107.2). */
/* The 16-bit softmax backward (dy and dx in y's dtype; ONLINE keeps y and dy, keep_es twice the
 * element) goes to SPLIT from this many columns, where ONLINE keeps under a third of the row: H200,
 * each family forced, one command, bf16 and fp16, 4096 rows: 131072 columns 0.99 and 1.01 (ONLINE's
 * time over SPLIT's), 163840 1.02 and 1.03, 196608-524288 1.06-1.14 (bench/results/
 * h200-2026-11-28-split-copies.md; the rule against the library before: h200-2026-11-28-bwd16-split.md).
 * The log-softmax keeps dy alone there and stays on ONLINE (1.09-1.14x as fast as SPLIT to 524288). */
#define HSM_BWD16_SPLIT_MIN_COLS 160000

static int online_takes(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows, int64_t cols, int fits)
{
    const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_ONLINE, q);
    const int64_t tile = s != NULL ? (int64_t)s->k->max_block * s->k->cols_per_thread : 0;
    if (s == NULL || cols < tile)
        return 0;
    const int many = rows >= (int64_t)h->dev.num_cus;
    /* The backward keeps ROW where ROW holds the row and dx is as wide as y (the two rules below). */
    const int row_holds = q->kop == HSM_KOP_BWD && fits && q->out_es == elem_bytes(q->dt);
    if (q->kop == HSM_KOP_BWD && q->dt == HSM_F32 && !q->one_pass) {
        /* fp32: ROW holds 16384 columns; its backward ran 1.05-1.08x as fast as ONLINE's there (H200,
         * 2048-4096 rows), but 0.96-0.97x with a bf16 dx
         * (bench/results/h200-2026-11-28-row-backward.md). */
        const online_geometry g = online_fit(h, q, s, s->k->max_block, cols);
        return many && q->vec > 1 && cols >= 2 * tile && 2 * g.cached >= g.tiles && !row_holds;
    }
    /* 16 bits with dy in y's dtype: ROW's kernels that hold both as stored hold 32768 columns. H200,
     * against ONLINE (the library before, one command, three rounds), 4096 rows of 16384-32768
     * columns: 1.08-1.28x (bf16 and fp16, softmax and log-softmax, 91-99% of the copy bandwidth);
     * with an fp32 dx 0.86-0.91x (bench/results/h200-2026-11-28-words-backward.md). */
    if (q->kop == HSM_KOP_BWD && !q->one_pass && q->dy_as_y && q->keep_es == 2 * elem_bytes(q->dt) &&
        q->out_es == elem_bytes(q->dt) && cols >= HSM_BWD16_SPLIT_MIN_COLS)
        return 0;
    if (q->kop == HSM_KOP_BWD)
        return q->one_pass || (many && !(q->dy_as_y && row_holds));
    return q->one_pass && many && !fits;
}

static hipsoftmax_status plan_auto(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows,
                                   int64_t cols, int lead, hsm_plan *out)
{
    /* WARP's packed backward (one row a warp, hip/softmax_warp.hip says why) for the plain backward's
     * rows of up to HSM_WARP_PACKED_BWD_MAX_BYTES that need the whole warp (on 32 lanes rows of
     * 257-1024 columns, every dtype), before WARP's other kernels and ROW's. H200, kernel time, same
     * run against the library before (bench/results/h200-2026-11-30-warp-packed-bwd.md): 1.08-1.31x
     * where WARP's kernels took the rows (257-512 columns: bf16 4096 x 512 5.70 -> 4.37 us, 131072 x
     * 512 1.08x), 1.01-1.08x on 4096 rows of 768-1024 columns where ROW's did, 1.01-1.14x on
     * 256-1024 rows, 0.997-1.007x on 16384-65536 rows of 1024 columns. On 64 lanes (rows to 2048
     * columns) nothing was measured. */
    if (q->plain_bwd && q->vec > 1 && !q->peel &&
        (h->forced_kernel[0] != '\0' || cols * elem_bytes(q->dt) <= HSM_WARP_PACKED_BWD_MAX_BYTES)) {
        hsm_req qp = *q;
        qp.packed = 1;
        if (plan_warp(h, &qp, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
            return HIPSOFTMAX_STATUS_SUCCESS;
    }
    /* ROW's packed backward (a block a row, y and dy held as loaded, hip/softmax_row.hip says why) for
     * the plain backward's rows on 16 bytes longer than WARP's packed kernels hold (a warp of 32 values
     * a lane) and up to HSM_ROW_PACKED_BWD_MAX_BYTES (16-bit: HSM_ROW_PACKED_BWD_WIDE_MAX_BYTES, past
     * the first on _p32_b512 where plan_row_packed gives it the row), where the rows are many. H200,
     * kernel time, one command against the library before
     * (bench/results/h200-2026-11-30-row-packed-bwd.md): 4096 rows of 1544-8192 columns
     * 1.014-1.052x, 16384 x 4096 1.006x; rows of 32 KB as eight packs a thread in blocks of 256
     * 0.990-0.995x, not kept (16-bit ones now take four in blocks of 512, _p32_b512). */
    const int64_t packed_max = q->dt != HSM_F32 ? HSM_ROW_PACKED_BWD_WIDE_MAX_BYTES : HSM_ROW_PACKED_BWD_MAX_BYTES;
    if (q->plain_bwd && q->vec > 1 && !q->peel && rows >= (int64_t)h->dev.num_cus * HSM_MANY_ROWS_PER_CU &&
        cols > (int64_t)h->dev.warp_size * 32 && cols * elem_bytes(q->dt) <= packed_max) {
        hsm_req qp = *q;
        qp.packed = 1;
        if (plan_row_packed(h, &qp, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
            return HIPSOFTMAX_STATUS_SUCCESS;
    }
    if (cols <= HSM_WARP_MAX_COLS && plan_warp(h, q, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    /* fp32's plain forward and log-softmax (its _v8_log, which hsm_plan_get takes though the forward
     * with options goes to ROW) of rows of 513-1024 columns on 16 bytes: WARP's _v8 (32 values a lane,
     * a row a warp), which since hsm_warp_rows has no loop over rows takes 56 registers (70 before),
     * rather than ROW's one-warp blocks. H200, kernel time, against the library before (same command;
     * bench/results/h200-2026-12-01-warp-once.md): 3168-8191 x 1024 1.03-1.05x (4096 x 1024 9.66 ->
     * 9.39 us; forced in another, 9.21 against ROW's 9.41 and torch.compile's 9.22), 4096 x 520 and 768
     * 1.06-1.07x. The log-softmax on ROW then ran 3.3% behind the softmax and 0.8% behind torch.compile
     * (compare_ops.py, 4096 x 1024: 3495 against 3616 and 3524 GB/s); on WARP's _v8_log 1.02-1.06x the
     * library before on 3168-8191 x 1024, 4096 x 520 and 768, 0.5% behind the softmax
     * (bench/results/h200-2026-12-01-wide-packed-bwd.md). At any row count since (ROW's own warp a row,
     * with its loop over rows, had lost below HSM_ROW_WARP_A_ROW_WARPS warps a SM; _v8 has no loop):
     * against ROW's _v16 on 1-3000 rows, forced, 1.04-1.16x (1024 x 1024 4.01 -> 3.81 us, 128 x 1024
     * 1.13x, 1 x 1024 1.16x, log-softmax 1.07-1.14x), and the library before, same command, 1.04-1.14x
     * (bench/results/h200-2026-12-01-small-ncu.md). Where the input is under HSM_WARP_F32_MAX_BYTES
     * (larger ones ROW launches a block a row); rows on 16 bytes only (not the aligned plan of a peeled
     * row: WARP's peeled twins were not measured there); 32-lane warps only (NVIDIA): nothing was
     * measured on 64-lane waves, where such a row is half a wave. */
    if (q->dt == HSM_F32 && is_plain_kop(q->kop) && q->vec > 1 && !q->peel && !q->for_twin &&
        h->dev.warp_size == 32 && cols > HSM_WARP_MAX_COLS && cols <= HSM_WARP_F32_MAX_COLS &&
        rows * cols * (int64_t)elem_bytes(q->dt) < HSM_WARP_F32_MAX_BYTES &&
        plan_warp(h, q, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    /* WARP's packed forward (one row a warp, hip/softmax_warp.hip says why) for the causal 16-bit rows
     * it holds, where ROW took one-warp blocks. H100, same run, against ROW's kernel: bf16 131072 x
     * 1024 (8 x 16 x 1024^2) 1.07x, 32768 x 1024 1.07x; fp16 262144 x 2048 1.03x, 32768 x 2048 1.05x.
     * Not on rows without a causal bound: at scale alone 1.00x (bf16 131072 x 1024, fp16 262144 x
     * 2048), log-softmax 0.94-1.04x (bench/results/h100-2026-11-26-causal-warp.md). */
    if (q->causal && q->kop == HSM_KOP_FWD) {
        hsm_req qp = *q;
        qp.packed = 1;
        if (plan_warp(h, &qp, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
            return HIPSOFTMAX_STATUS_SUCCESS;
    }
    const int fits = row_fits(h, q, cols);
    if (online_takes(h, q, rows, cols, fits) && plan_online(h, q, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    const int many_rows = rows >= (int64_t)h->dev.num_cus * HSM_MANY_ROWS_PER_CU;
    const int few_rows = !many_rows && cols >= HSM_SPLIT_MIN_COLS;
    const int few_short = few_rows && fits && !q->one_pass && cols * elem_bytes(q->dt) <= HSM_FEW_ROWS_ROW_MAX_BYTES;
    if (few_rows && !few_short && plan_split(h, q, rows, cols, lead, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    if (fits && plan_row(h, q, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS) {
        /* One ROW block per SM on a short row, rows fewer than HSM_ROW_ALONE_ROWS_PER_CU a SM: SPLIT
         * with more rows in flight instead, if it has them (few rows have none to put in flight: they
         * stay a block a row). Not the backward, but where dx is wider than y: ROW's backward with
         * one block a SM ran 1.01-1.57x as fast as SPLIT's one block a row at 9000-16383 columns
         * (fp32, bf16, fp16, softmax and log-softmax, bf16 y with fp32 dy, fp32 y with bf16 dx;
         * 1024-16384 rows; fp32 at 4096 rows 95-98% of the copy bandwidth against 81-87%), and
         * 0.85-1.05x with bf16 y and fp32 dx (H200, bench/results/h200-2026-11-28-row-backward.md). */
        hsm_plan alt;
        memset(&alt, 0, sizeof alt);
        const int64_t alone = q->dt == HSM_F32 ? HSM_ROW_ALONE_MIN_BYTES_F32 : HSM_ROW_ALONE_MIN_BYTES_16;
        const int row_bwd = q->kop == HSM_KOP_BWD && q->out_es <= elem_bytes(q->dt);
        if (!few_short && !row_bwd && rows < (int64_t)HSM_ROW_ALONE_ROWS_PER_CU * h->dev.num_cus &&
            occupancy(h, out->ks, out->block) == 1 && cols * elem_bytes(q->dt) < alone &&
            plan_split_single(h, q, rows, cols, lead, 2, 0, &alt) == HIPSOFTMAX_STATUS_SUCCESS) {
            const int bpc = occupancy_smem(h, alt.ks, alt.block, alt.smem_bytes);
            if ((int64_t)bpc * alt.block >= out->block)
                *out = alt;
        }
        return HIPSOFTMAX_STATUS_SUCCESS;
    }
    if (plan_split_single(h, q, rows, cols, lead, 1, q->dt != HSM_F32, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    if (cols >= HSM_SPLIT_MIN_COLS && plan_split(h, q, rows, cols, lead, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    if (plan_online(h, q, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    return plan_warp(h, q, rows, cols, out);
}

static hipsoftmax_status plan_compute(const struct hipsoftmax_context *h, hipsoftmax_family family, const hsm_req *q,
                                      int64_t rows, int64_t cols, int64_t inner, int lead, hsm_plan *out);

/* The kernel of request q (a twin's: peeled, _shift) with k's chunk and block bound, or NULL. */
static const hsm_kernel_state *twin_of(const struct hipsoftmax_context *h, const hsm_req *q, const hsm_kernel *k)
{
    const hsm_kernel_state *t = next_kernel(h, NULL, k->family, q);
    while (t != NULL && (t->k->cols_per_thread != k->cols_per_thread || t->k->max_block != k->max_block))
        t = next_kernel(h, t, k->family, q);
    return t;
}

/* ROW's _stage twin (peel 3) of plan p's kernel for request q's kop and dtype, and in *occ its resident
 * blocks on p's block with rows of `cols` in shared memory (row_occupancy); NULL (and 0) where there is
 * none or the row does not fit. */
static const hsm_kernel_state *stage_twin(const struct hipsoftmax_context *h, const hsm_req *q, const hsm_plan *p,
                                          int64_t cols, int *occ)
{
    hsm_req qs = *q;
    qs.peel = 3;
    const hsm_kernel_state *g = twin_of(h, &qs, p->ks->k);
    *occ = g != NULL ? row_occupancy(h, g, p->block, cols) : 0;
    return *occ > 0 ? g : NULL;
}

/* Plan p on _stage kernel g, with the row's dynamic shared memory (row_stage_bytes). */
static void take_stage(hsm_plan *p, const hsm_kernel_state *g, int64_t cols)
{
    p->ks = g;
    p->smem_bytes = row_stage_bytes(g->k, cols);
}

/* The rows a resident block would take, at least, for ROW's 16-bit _shift twins (plan_peeled):
 * counted against the blocks the SMs hold at once, whatever the grid. */
#define HSM_ROW_SHIFT_MIN_ROWS 16
/* The values a thread holds, at most, in ROW's 16-bit _shift twins that plan_peeled gives any rows
 * on 32-lane targets where the peeled kernel keeps two blocks a SM or more: p40's and p48's twins
 * hold them without spilling (64 registers, sm_90), p56's and p64's spill 16-28 bytes. */
#define HSM_ROW_SHIFT16_FREE_CHUNK 48
/* The threads a block of those twins has, at most, where plan_peeled gives one of them rows the peeled
 * kernel's chunk (more than HSM_ROW_SHIFT16_FREE_CHUNK values a thread) would hold. */
#define HSM_ROW_SHIFT16_MAX_BLOCK 192
/* The columns a row has, at least, for ROW's fp32 _shift twins, on any number of rows (plan_peeled). */
#define HSM_ROW_SHIFT_F32_MIN_COLS 10000
/* The blocks a SM/CU the fp32 _stage kernels keep with their row in shared memory, at least, and the
 * rows a resident block takes, at least, for the plan to give them a _shift twin's rows
 * (plan_peeled). */
#define HSM_ROW_STAGE_MIN_BLOCKS 2
#define HSM_ROW_STAGE_MIN_ROWS 5
/* The values a thread holds, at least, in the 16-bit _shift twins whose rows plan_peeled gives the
 * _stage twin of the same chunk (p32's lost, but on rows past its block's chunks: p32_past), and the
 * rows it takes for that, at least, in hundredths of the blocks the SMs hold with its row in shared
 * memory. */
#define HSM_ROW_STAGE16_MIN_CHUNK 40
#define HSM_ROW_STAGE16_MIN_ROWS_PCT 150

/* A plain forward, or a forward with options or a backward that peel_ok allows, whose rows are not
 * on 16 bytes (q->vec == 1, q->peel set: the call allows the peeled kernels): the plan the same rows
 * would have on 16 bytes, where that is ROW's or WARP's (the latter only for the plain forward, with x
 * and y rows at the same offsets), or SPLIT's or ONLINE's for the backward, with that family's peeled
 * twins of its kernels (the same chunks: the same choice, but for the twins' registers and WARP's
 * lead); where it is SPLIT's or ONLINE's without twins (the forward), ROW's twins if a block holds the
 * row; else the scalar plan. */
static hipsoftmax_status plan_peeled(const struct hipsoftmax_context *h, hipsoftmax_family family, const hsm_req *q,
                                     int64_t rows, int64_t cols, hsm_plan *out)
{
    hsm_req qv = *q;
    qv.vec = (int)(16 / elem_bytes(q->dt));
    qv.peel = 0;
    qv.plain_bwd = 0; /* WARP's packed backward has no peeled twins: the plan its rows had without it */
    qv.for_twin = 1;
    hsm_plan aligned;
    memset(&aligned, 0, sizeof aligned);
    /* The room SPLIT's forward takes for rows off their line: rows at any offset are off it (the
     * backward lays rows out from their first column). */
    const int lead = q->kop == HSM_KOP_BWD ? 0 : (int)((HSM_LINE_BYTES - 16) / elem_bytes(q->dt));
    if (plan_compute(h, family, &qv, rows, cols, 0, lead, &aligned) == HIPSOFTMAX_STATUS_SUCCESS) {
        qv.peel = 1;
        const hsm_family af = aligned.ks->k->family;
        if (af == HSM_FAMILY_SPLIT) {
            /* SPLIT's backward twins lay out the row's whole packs, fewer columns than cols: the
             * aligned plan as it is (groups or single blocks, staging), on the twin of its kernel
             * where the twin is as resident (a cooperative grid must be). */
            const hsm_kernel_state *t = twin_of(h, &qv, aligned.ks->k);
            if (t != NULL && occupancy_smem(h, t, aligned.block, aligned.smem_bytes) >=
                                 occupancy_smem(h, aligned.ks, aligned.block, aligned.smem_bytes)) {
                *out = aligned;
                out->ks = t;
                return HIPSOFTMAX_STATUS_SUCCESS;
            }
        }
        /* ONLINE's backward twins, the same way (its plan is the row's tiles and how many it keeps),
         * planned for the whole packs they take: at most cols rounded down to the vector (fp16
         * 32771 columns: two 1024-thread tiles, not three, the last of 3 columns). */
        if (af == HSM_FAMILY_ONLINE &&
            plan_online(h, &qv, rows, cols / qv.vec * qv.vec, out) == HIPSOFTMAX_STATUS_SUCCESS)
            return HIPSOFTMAX_STATUS_SUCCESS;
        if (af == HSM_FAMILY_WARP) {
            /* WARP's twins take up to vec - 1 columns more: only where that leaves the group's span as
             * it is (H200, 2026-11-23, the kernels of then: fp16 65536 x 77, 16 lanes of 8 either way,
             * 1.31x the scalar kernel; bf16 16384 x 127, whose lead made 32 lanes of 8 where 128
             * columns take 16: 0.82x), and for
             * 16-bit rows only under HSM_WARP_PEEL16_MAX_COLS columns where the scalar kernels take 8
             * values a lane (scalar16_fewer): they are the faster there (H200, each forced, stride cols +
             * 1: fp16 65536 x 77 13.15 us against 14.06-14.10 peeled, 65536 x 120 15.25 against
             * 15.50-16.45, bf16 65536 x 200 23.24 against 24.34; at 33 columns the peeled 7.54
             * against 7.78; bench/results/h200-2026-11-30-warp-scalar16.md). */
            hsm_plan pw = *out;
            if (q->same_offset && (q->dt == HSM_F32 || cols < HSM_WARP_PEEL16_MAX_COLS || !scalar16_fewer(h, rows)) &&
                plan_warp(h, &qv, rows, cols, &pw) == HIPSOFTMAX_STATUS_SUCCESS &&
                (int64_t)pw.group_width * pw.ks->k->cols_per_thread <=
                    (int64_t)aligned.group_width * aligned.ks->k->cols_per_thread) {
                *out = pw;
                return HIPSOFTMAX_STATUS_SUCCESS;
            }
        } else if ((af == HSM_FAMILY_ROW || (family == HIPSOFTMAX_FAMILY_AUTO && row_fits(h, &qv, cols))) &&
                   plan_row(h, &qv, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS) {
            /* A plain forward whose y rows lie at other offsets than its x rows: the _shift twin of the
             * peeled kernel (16-byte stores as well as loads) where it is as resident and
             *   16-bit (packed kernels): each block has HSM_ROW_SHIFT_MIN_ROWS rows or more (on 32-lane
             *   targets only where the peeled kernel keeps one block a SM; where it keeps more, the
             *   twins of p32-p48, which do not spill: below). H100, x
             *   stride cols + 1, y dense, against the peeled kernel: 4096 rows of 40001-65521 columns
             *   1.07-1.16x; 50257 columns, 132 blocks, 2112 rows 1.05x, 1056 0.99x, 528 0.95x, 132
             *   0.80-0.91x (bench/results/h100-2026-11-26-shift.md);
             *   fp32: rows of HSM_ROW_SHIFT_F32_MIN_COLS columns or more, where the peeled kernel's
             *   element stores cost most. H200, the same layout, both forced: 30001 columns (960
             *   threads) 1.47-1.71x on 132-4096 rows, 10001 and 12345 (320 and 416) 0.97-1.06x;
             *   5001-8001 columns (160-256 threads) 0.96-0.97x
             *   (bench/results/h200-2026-11-29-row-shift-f32.md). */
            hsm_req qt = qv;
            qt.peel = 2;
            const int occ = occupancy(h, out->ks, out->block);
            /* 16-bit on 32-lane targets, H200, x rows cols + 1 apart and y dense (or the reverse), each
             * forced against the peeled kernel (bench/results/h200-2026-12-02-shift16-rows.md): where
             * the peeled kernel keeps two blocks a SM or more, p40's and p48's twins (which keep 10-16
             * blocks of 64-96 threads a SM where the peeled kernels keep 13-20) ran 1.005-1.18x on
             * 264-16384 rows of 2049-4097 columns (4096 rows 1.05-1.14x), where p64's (which spill) ran
             * 0.95-0.99x on 4096-16384 rows of 5121-12345 columns and 0.90-0.92x of 20001-30001 (three
             * and two blocks a SM), which the rule of rows alone had given them from 6336 and 4224 rows;
             * where it keeps one, the rule of rows (p56's at 50257 columns, 1056-16384 rows, 1.01-1.07x;
             * p64's forced at 40001, 4096-16384 rows, 1.03-1.04x). Elsewhere the rule of rows, as
             * measured on the H100. */
            const int free16 = h->dev.warp_size == 32 && q->dt != HSM_F32 && occ >= 2;
            /* p32's twin (packed) in place of the v32 peeled kernel (floats), free16's only: where the
             * block leaves at most 1 / HSM_ROW_IDLE_DIV of its columns idle and the rows fill every
             * resident block once. H200, against the library before, same run (same file, command 6),
             * 64 threads: bf16 4096 x 1537-2047 1.06-1.14x (x or y cols + 1 apart), 16384 rows
             * 1.01-1.03x; lost at 1025-1279 columns (half the block idle: 4096 rows 0.91-0.94x) and on
             * 1056 rows (less than a wave: 0.96-0.99x), level on 8-264. */
            const int64_t room = (int64_t)out->block * out->ks->k->cols_per_thread;
            const int p32_ok = holds_raw(out->ks->k) || (row_few_idle(room, cols) &&
                                                         rows >= (int64_t)h->dev.num_cus * occ);
            /* The rule of rows: the packed peeled kernels' twins alone (p40-p64), not p32's. */
            const int by_rows = holds_raw(out->ks->k) && rows >= (int64_t)HSM_ROW_SHIFT_MIN_ROWS * h->dev.num_cus * occ;
            const int shift_ok = q->dt == HSM_F32 ? cols >= HSM_ROW_SHIFT_F32_MIN_COLS
                                 : free16 ? out->ks->k->cols_per_thread <= HSM_ROW_SHIFT16_FREE_CHUNK && p32_ok
                                          : by_rows;
            const int offsets_differ = q->kop == HSM_KOP_PLAIN && !q->same_offset;
            /* p32's twin on rows whose x and y lie at the same offsets too (free16's, where p32_ok),
             * in place of the v32 peeled kernel (floats): it holds the row as stored in 60 registers
             * where v32's takes 63, and needs no exchange there (K = 0). H200, kernel time, against
             * the library before, same run (bench/results/h200-2026-12-02-peel-slack.md, command 2):
             * bf16 4096 x 1537-2047 1.022-1.033x, 16384 x 1793 1.081x, 4096 x 2049 and 2055 (each
             * held by 64 threads since row_block counts the peeled kernels' edges) 1.019-1.021x where
             * v32's ran 0.986-1.000x; not at 1153 (half the block idle: 0.937x; p32_ok's bound). */
            const int p32_same = q->kop == HSM_KOP_PLAIN && q->same_offset && free16 && !holds_raw(out->ks->k);
            const hsm_kernel_state *t = (offsets_differ || p32_same) && shift_ok ? twin_of(h, &qt, out->ks->k) : NULL;
            /* fp32: the _stage kernel of the peeled kernel's chunk instead (y through shared memory, written
             * from its own 16-byte boundary: hsm_row_stage_store) where, with its row in shared memory, it
             * keeps the peeled kernel's blocks a SM, HSM_ROW_STAGE_MIN_BLOCKS or more, and the rows give each
             * of them HSM_ROW_STAGE_MIN_ROWS or more, on 32-lane targets (measured there). H200, kernel time, x
             * rows cols + 1 apart and y dense (or the reverse), against the _shift twin
             * (bench/results/h200-2026-12-02-stage-kernels.md): 4096 rows of 10001-16381 columns 1.018-1.063x
             * (within 4.5% of the dense rows, from 8%), 8192 x 12345 1.047x, 2048 x 12345 1.011-1.038x, 2112 x
             * 10001 1.032-1.035x; fewer rows a resident block lost or tied (the barrier and the trip through
             * shared memory in every block's latency, no other block's work beside it): 12345 columns (264
             * resident blocks) 132-396 rows 0.924x, 528 0.966x, 1056 0.986-0.990x, 1584 1.008x; 10001 columns
             * (396) 264 rows 0.929x, 528 0.988x, 1056 1.006x. A stand-alone kernel at one block a SM (30001
             * columns) ran 0.83x the twin (bench/results/h200-2026-12-02-shift-stage.md). */
            int gocc = 0;
            const hsm_kernel_state *g =
                t != NULL && q->dt == HSM_F32 && h->dev.warp_size == 32 ? stage_twin(h, &qt, out, cols, &gocc) : NULL;
            if (g != NULL && occ >= HSM_ROW_STAGE_MIN_BLOCKS &&
                rows >= (int64_t)HSM_ROW_STAGE_MIN_ROWS * h->dev.num_cus * occ && gocc >= occ) {
                take_stage(out, g, cols);
            } else if (t != NULL) {
                /* The twin on the peeled kernel's layout, its grid too (where the twin holds fewer blocks
                 * a SM, some wait for a second round). Laid out afresh from its own blocks a SM, as the
                 * p40/p48 swap below is, it ran 0.988-1.014x (H200, bf16 2400-4096 x 2049-2981, x's rows
                 * cols + 1 apart; bench/results/h200-2026-12-02-row-grid.md, command 1): not taken. */
                const int tocc = occupancy(h, t, out->block);
                if (tocc >= occ || (free16 && tocc >= 2)) {
                    /* whether a block a row is the twin's to say (row_grid, with the peeled layout's
                     * grid as the resident one): p32's twin takes it where the v32 peeled kernel does
                     * not (rows of 4 KiB at most: no lines asked for ahead) */
                    out->grid = row_grid(h, &qv, t->k, rows, cols, out->block, out->grid, 1);
                    out->ks = t;
                }
            } else if (free16 && offsets_differ && h->forced_kernel[0] == '\0' &&
                       out->ks->k->cols_per_thread > HSM_ROW_SHIFT16_FREE_CHUNK) {
                /* The peeled kernel's chunk holds more than HSM_ROW_SHIFT16_FREE_CHUNK values a thread
                 * (p56, p64: their twins spill): the twin of p40 or p48 instead, of the smaller block
                 * (of equals, the smaller chunk: fewer idle columns), where that block has
                 * HSM_ROW_SHIFT16_MAX_BLOCK threads or fewer and two of them fit a SM. H200, kernel
                 * time, x rows cols + 1 apart (or y's), against the library before, same run
                 * (bench/results/h200-2026-12-02-shift16-rows.md, command 5): 3073-9216 columns on
                 * 8-16384 rows 0.973-1.275x (4096 rows 1.013-1.144x; 16384 0.973-1.024x, the loss at
                 * 3073; 1056 x 7931 0.973x); forced (commands 2-3), p48's on 288 threads at 12345
                 * columns 0.94-1.01x. */
                const hsm_kernel_state *best = NULL;
                int64_t best_block = 0;
                for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_ROW, &qt); s != NULL;
                     s = next_kernel(h, s, HSM_FAMILY_ROW, &qt)) {
                    int64_t block;
                    if (s->k->cols_per_thread > HSM_ROW_SHIFT16_FREE_CHUNK || row_candidate(h, s, cols, &block) < 2 ||
                        block > HSM_ROW_SHIFT16_MAX_BLOCK)
                        continue;
                    if (best == NULL || block < best_block ||
                        (block == best_block && s->k->cols_per_thread < best->k->cols_per_thread)) {
                        best = s;
                        best_block = block;
                    }
                }
                if (best != NULL)
                    row_layout(h, &qv, rows, cols, best, (int)best_block, out);
            }
            /* 16-bit rows that one warp's chunk of p32 holds (up to 32 x 32 + 7 columns, row_block)
             * with at most 1 / HSM_ROW_IDLE_DIV of it idle, where the peeled kernel takes blocks of two
             * warps or more: p32's twin on one warp (32 values a lane, the row as stored, warp-wide
             * reductions), on 32-lane targets, where the rows give every SM HSM_ROW_WARP_A_ROW_WARPS
             * warps (fp32's rule of a warp a row, plan_row). H200, kernel time, p32's twin forced
             * against the library before, same run (bench/results/h200-2026-12-02-peel-slack.md,
             * command 4): bf16 4096 x 781-1031 1.097-1.117x (the v16 peeled kernel on 64 threads
             * before), x rows cols + 1 apart 1.102-1.126x, 16384 x 781 and 1025 1.079-1.088x (x
             * apart 1.036x), 65536 x 1025 1.111x, fp16 4096 x 781 and 1025 1.117-1.122x; level on
             * 2048 and 1024 rows (0.993x, 1.000x). The rule against the plan before it (command 5):
             * 1.078-1.125x, 3168 rows 0.995x. */
            if (h->dev.warp_size == 32 && q->dt != HSM_F32 && q->kop == HSM_KOP_PLAIN && h->forced_kernel[0] == '\0' &&
                out->ks->k->peel == 1 && out->block > h->dev.warp_size &&
                rows >= (int64_t)HSM_ROW_WARP_A_ROW_WARPS * h->dev.num_cus &&
                row_few_idle((int64_t)h->dev.warp_size * 32, cols)) {
                for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_ROW, &qt); s != NULL;
                     s = next_kernel(h, s, HSM_FAMILY_ROW, &qt)) {
                    int64_t block;
                    if (s->k->cols_per_thread == 32 && row_candidate(h, s, cols, &block) > 0 &&
                        block == h->dev.warp_size) {
                        row_layout(h, &qv, rows, cols, s, (int)block, out);
                        break;
                    }
                }
            }
            /* 16-bit: the _stage twin of the chunk the _shift twin has (y through shared memory,
             * written from its own 16-byte boundary: hsm_row_packed_body's G) in place of p40's and
             * p48's _shift twins, on 32-lane targets (measured there), where it keeps as many blocks a
             * SM with its row in shared memory (its registers are the peeled kernel's: 48, sm_90) and
             * the rows are HSM_ROW_STAGE16_MIN_ROWS_PCT of those blocks or more. H200, kernel time, x
             * rows cols + 1 apart and y dense (or the reverse), against the _shift twin
             * (bench/results/h200-2026-12-02-stage16.md): 4096 rows of 2049-8963 columns
             * 0.998-1.034x (2049-2065 1.011-1.025x, 3073 1.034x, 6210 1.021-1.028x; 1.55-5.2 times
             * the resident blocks), 65536 rows 0.999-1.011x, 16384 x 2049 1.017x; on rows about as many
             * as the resident blocks it lost (2700 x 2049, 1.02 times, 0.969x; 1024 x 7931, 1.29
             * times, 0.950x; 1056 x 2049 0.942x: the barrier and the trip through shared memory in
             * every block's latency, little other work beside it), as p32's did in place of its
             * twin (4096 x 1537 and 1793 0.93-0.94x) and p56's and p64's where a block a SM holds
             * the row (4096 x 50257 0.95x). In place of p32's _shift twin only where x and y lie at
             * different offsets and the row runs past its block's chunks, on two warps or more
             * (p32_past: 2049-2055 columns on 64 threads); against the library before, same run
             * (bench/results/h200-2026-12-03-p32-stage.md, command 2): bf16 and fp16, 4096-65536
             * rows, x rows cols + 1 apart or y's, 1.003-1.019x (4096 rows 1.007-1.019x); 2047
             * columns (the block holds the row) forced 0.983x, 1537-1793 0.93-0.96x (command 1);
             * why the peeled columns decide it was not found. */
            const int chunk = out->ks->k->cols_per_thread;
            const int p32_past =
                chunk == 32 && offsets_differ && out->block > h->dev.warp_size && cols > 32 * (int64_t)out->block;
            if (free16 && h->forced_kernel[0] == '\0' && out->ks->k->peel == 2 &&
                ((chunk >= HSM_ROW_STAGE16_MIN_CHUNK && chunk <= HSM_ROW_SHIFT16_FREE_CHUNK) || p32_past)) {
                const hsm_kernel_state *g16 = stage_twin(h, &qt, out, cols, &gocc);
                if (g16 != NULL && gocc >= occupancy(h, out->ks, out->block) &&
                    100 * rows >= (int64_t)HSM_ROW_STAGE16_MIN_ROWS_PCT * h->dev.num_cus * gocc)
                    take_stage(out, g16, cols);
            }
            /* fp32 log-softmax whose x and y rows lie at different offsets: the _stage_log twin of the
             * peeled log kernel (y through shared memory; the log-softmax has no _shift twins, and the
             * peeled kernels store y an element at a time there) where it keeps as many blocks a SM
             * with its row in shared memory, on rows of HSM_ROW_SHIFT_F32_MIN_COLS columns or more
             * where the peeled kernel keeps one block a SM or the rows give each resident block
             * HSM_ROW_STAGE_MIN_ROWS or more, on 32-lane targets (measured there). H200, kernel time, x
             * rows cols + 1 apart and y dense, against the peeled log kernel of the same chunk
             * (bench/results/h200-2026-12-02-stage16.md, command 4): 4096 x 20001 1.76x (0.47 -> 0.82
             * of a same-size copy), 30435 1.67x, 128 x 23834 1.28x, 8 x 16517 1.42x; 4096 x 10129 and
             * 12345 1.027x; fewer rows a resident block lost (1024 x 10129 0.963x, 8 x 12345 0.854x),
             * as shorter rows did (4096 x 1025 0.959x, 2049 0.994x, 5001 0.996x). */
            if (q->log_shift && q->dt == HSM_F32 && h->dev.warp_size == 32 && h->forced_kernel[0] == '\0' &&
                out->ks->k->peel == 1 && cols >= HSM_ROW_SHIFT_F32_MIN_COLS &&
                (occ == 1 || rows >= (int64_t)HSM_ROW_STAGE_MIN_ROWS * h->dev.num_cus * occ)) {
                const hsm_kernel_state *gl = stage_twin(h, &qv, out, cols, &gocc);
                if (gl != NULL && gocc >= occ)
                    take_stage(out, gl, cols);
            }
            /* ROW's rows, and unless a family is forced, rows that SPLIT or ONLINE would take on 16
             * bytes (few long rows) where a block holds them: measured on an H200 (run H8,
             * bench/results/h200-2026-11-23-peel.md), 16 to 256 rows of 12345, 20001 and 50257
             * columns, fp32 and bf16, ran 1.0-2.4x faster on ROW's twins than on SPLIT's scalar
             * kernels (bf16 64 x 50257: 895 GB/s against 628), from 64 rows on as fast as their
             * aligned neighbours on SPLIT's vector kernels. */
            return HIPSOFTMAX_STATUS_SUCCESS;
        }
    }
    hsm_req qs = *q;
    qs.peel = 0;
    return plan_compute(h, family, &qs, rows, cols, 0, 0, out);
}

/* CHANNEL's tile kernels (hip/softmax_channel.hip): a block of HSM_CHANNEL_TILE_BLOCK threads stages
 * all C positions of W adjacent columns in shared memory and reduces from there, so its loads in
 * flight are the whole tile rather than the registers' share. W starts at a line of columns (128
 * bytes: whole lines at every position), and doubles while the tile stays under
 * HSM_CHANNEL_TILE_BYTES (several blocks a SM, each with a tile's worth of loads in flight), W under
 * the block and inner; where inner is narrower than a line (a forced kernel only) it halves to the
 * power of two that covers inner. A forced tile kernel serves wherever one block fits. The auto plan
 * takes one where inner spans a line, two blocks fit a SM and the tiles fill every resident block at
 * least once, and, in fp32, where measured faster than the register kernels on an H200
 * (bench/results/h200-2026-11-24-channel-tiles.md): C of at most HSM_CHANNEL_TILE_F32_FEW (fp32
 * 64 x 21 x 4096 forward 1.17x, backward 1.11x), and the forward where the register kernels need more
 * than HSM_CHANNEL_FEW_WARPS warps a column (C = 150: 1.10x). The fp32 register kernels stay on the
 * rest: the vector backward at C = 64 and 150 (88% and 87% of the copy bandwidth against 78% and 83%
 * tiled), the forward at C = 64 (one to four warps a column: 66% against 60%). In 16-bit the tiles
 * were as fast or faster on every shape measured (bf16 16 x 150 x 16384 forward 1.22x, backward
 * 1.43x). */
#define HSM_CHANNEL_TILE_BYTES 16384
#define HSM_CHANNEL_TILE_F32_FEW 32
static hipsoftmax_status plan_channel_tile(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows,
                                           int64_t cols, int64_t inner, hsm_plan *out)
{
    const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_CHANNEL, q);
    while (s != NULL && !hsm_channel_tiles(s->k))
        s = next_kernel(h, s, HSM_FAMILY_CHANNEL, q);
    HSM_RETURN_IF(s == NULL, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    const int forced = h->forced_kernel[0] != '\0';
    const int64_t es = elem_bytes(q->dt), es2 = q->stage_es - es; /* x's (y's) element; dy's (backward) */
    const int64_t line = HSM_LINE_BYTES / es, block = s->k->max_block;
    HSM_RETURN_IF(!forced && inner < line, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    /* A tile holds C elements at least: a longer C never fits, and the products below stay small. */
    HSM_RETURN_IF(cols > (int64_t)h->dev.smem_per_block_optin, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    int64_t w = line;
    while (w / 2 >= q->vec && w / 2 >= inner)
        w /= 2;
    /* The forward's tile may reach twice HSM_CHANNEL_TILE_BYTES exactly: measured on an H100
     * (bench/results/h100-2026-11-26-channel-staging.md), 16-bit C = 64 forward on W = 256 against
     * 128 (a 32 KB tile against 16 KB) was 1.08-1.13x; C = 150 on W = 128 (38 KB) 0.93-0.97x, and
     * the backward's 32 KB tile at C = 64 0.96x. */
    const int64_t fwd_exact = q->kop == HSM_KOP_FWD;
    while (2 * w <= block && w < inner && cols * w * q->stage_es < HSM_CHANNEL_TILE_BYTES + fwd_exact)
        w *= 2;
    /* The tiles (each rounded to 16 bytes), then the folds' floats (hsm_ch_tile_fold): a column's
     * parts (hsm_ch_tile_parts), then its folded value. */
    const int64_t tile = (cols * w * es + 15) / 16 * 16, tile2 = es2 > 0 ? (cols * w * es2 + 15) / 16 * 16 : 0;
    const int64_t groups = w / s->k->cols_per_thread, warp = h->dev.warp_size;
    const int64_t parts = groups < warp ? block / warp : block / groups;
    const int64_t smem = tile + tile2 + (parts + 1) * w * 4;
    HSM_RETURN_IF(smem > (int64_t)h->dev.smem_per_block_optin, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    const int bpc = occupancy_smem(h, s, (int)block, (size_t)smem);
    HSM_RETURN_IF(bpc < (forced ? 1 : 2), HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    const int64_t tiles = rows * ceil_div(inner, w);
    if (!forced) {
        HSM_RETURN_IF(tiles < (int64_t)h->dev.num_cus * bpc, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
        const int64_t reg_max = 16; /* positions a thread of the largest one-column register forward holds */
        HSM_RETURN_IF(q->dt == HSM_F32 && cols > HSM_CHANNEL_TILE_F32_FEW &&
                          !(q->kop == HSM_KOP_FWD && cols > HSM_CHANNEL_FEW_WARPS * reg_max),
                      HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    }
    out->ks = s;
    out->block = (int)block;
    out->group_width = 0;
    out->blocks_per_row = 1;
    out->channel_warps = 1;
    out->channel_lanes = (int)w;
    out->smem_bytes = (size_t)smem;
    out->grid = channel_grid(q, rows, cols, inner, tiles, block, (int64_t)h->dev.num_cus * bpc);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* CHANNEL's word kernels (hip/softmax_channel.hip, forward): a warp takes a line of 32-bit words of
 * columns (E = 4 / element size columns a word: fp32 at any alignment, 16-bit where every row is on
 * 16 bytes, q->vec > 1), and G = ceil(C / K) warps split C, K positions a thread; blocks of
 * HSM_CHANNEL_BLOCK_THREADS threads (several tiles each) unless one tile's G warps need more. The
 * auto plan takes them where inner spans a line, with K = HSM_CHANNEL_WORD_K, or a larger K where
 * that one warp holds C (no fold); in fp32 not where 2 to HSM_CHANNEL_FEW_WARPS warps of K would.
 * Measured on an H100 (bench/results/h100-2026-11-25-channel-words.md, run w2), forced: fp32 K = 16
 * against K = 32 at C = 150 126.6 us against 138.5 (32 values a thread spill), at C = 21 26.7 against
 * 24.5; 16-bit K = 16 against K = 8 at C = 150 84.1 against 139.0 (19 warps a column). */
#define HSM_CHANNEL_WORD_K 16
static hipsoftmax_status plan_channel_word(const struct hipsoftmax_context *h, const hsm_req *q, int64_t rows,
                                           int64_t cols, int64_t inner, hsm_plan *out)
{
    const int64_t warp = h->dev.warp_size, e = 4 / elem_bytes(q->dt), line = warp * e;
    HSM_RETURN_IF(q->kop != HSM_KOP_FWD || (h->forced_kernel[0] == '\0' && inner < line) || inner % e != 0,
                  HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    const int64_t tps = ceil_div(inner, line);
    HSM_RETURN_IF(tps > INT32_MAX / 2, HIPSOFTMAX_STATUS_NOT_SUPPORTED); /* the kernel's line index is 32-bit */
    const hsm_kernel_state *pick = NULL, *one_warp = NULL;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_CHANNEL, q); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_CHANNEL, q)) {
        const int64_t k = s->k->cols_per_thread;
        if (!hsm_channel_words(s->k) || ceil_div(cols, k) * warp > s->k->max_block)
            continue;
        if (pick == NULL || k == HSM_CHANNEL_WORD_K)
            pick = s; /* a forced kernel is the only one here */
        if (one_warp == NULL && k > HSM_CHANNEL_WORD_K && k >= cols)
            one_warp = s;
    }
    if (one_warp != NULL)
        pick = one_warp;
    /* fp32: a C that more than one warp of them and at most HSM_CHANNEL_FEW_WARPS warps of the register
     * kernels hold stays with those (32 x 64 x 16384, run w3: r16 105.8 us, w16 108.2). */
    HSM_RETURN_IF(h->forced_kernel[0] == '\0' && q->dt == HSM_F32 && one_warp == NULL &&
                      cols <= HSM_CHANNEL_FEW_WARPS * HSM_CHANNEL_WORD_K,
                  HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    HSM_RETURN_IF(pick == NULL, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    const int64_t g = ceil_div(cols, pick->k->cols_per_thread);
    const int64_t groups = max64(1, HSM_CHANNEL_BLOCK_THREADS / (warp * g)), block = warp * g * groups;
    /* G > 1: [parity][max, sum][thread][E] partial pairs, then [parity][group][max, sum][line] folded
     * ones (hsm_ch_word_fwd_body). */
    const size_t smem = g > 1 ? (size_t)(2 * 2 * e * block + 2 * groups * 2 * line) * sizeof(float) : 0;
    const int bpc = occupancy_smem(h, pick, (int)block, smem);
    HSM_RETURN_IF(bpc == 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    out->ks = pick;
    out->block = (int)block;
    out->group_width = 0;
    out->blocks_per_row = 1;
    out->channel_warps = (int)g;
    out->channel_lanes = (int)warp;
    out->smem_bytes = smem;
    out->grid = channel_grid(q, rows, cols, inner, ceil_div(rows * tps, groups), block, (int64_t)h->dev.num_cus * bpc);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* inner > 0: a CHANNEL plan (hsm_plan_get decides). */
static hipsoftmax_status plan_compute(const struct hipsoftmax_context *h, hipsoftmax_family family, const hsm_req *q,
                                      int64_t rows, int64_t cols, int64_t inner, int lead, hsm_plan *out)
{
    if (inner > 0) {
        /* A tile kernel where one serves (16-byte accesses where the layout allows them), else the
         * register and streaming kernels. Of those, the forward keeps to the one-column kernels
         * unless a vector kernel is forced: measured on an H200 (bench/results/
         * h200-2026-11-23-channel.md), the vector forward kernels (80-128 registers, one to three
         * blocks a SM) were slower on 5 of 7 shapes (fp32 32x64x16384: 42% of the copy bandwidth
         * against 65%; bf16 16x150x16384: 14% against 27%), the vector backward faster where the
         * tensor is large (fp32 16x150x16384: 87% against 50%). Where no vector kernel serves (a
         * forced one-column one), the one-column kernels do. */
        hsm_req q1 = *q;
        q1.vec = 1;
        /* The forward's word kernels (plan_channel_word): fp32's (any layout, vec 1) before the tiles,
         * 16-bit's (rows on 16 bytes) after them, where they replace the register kernels. Measured
         * on an H100 against the plan before (bench/results/h100-2026-11-25-channel-words.md, run
         * w5): fp32 1.02-1.13x where they replace tiles or registers (16 x 150 x 16384 131.9 -> 123.2
         * us); 16-bit 1.10-1.36x where they replace registers (128 x 21 x 1024); 0.92-0.97x against
         * the 16-bit tiles at C = 19 and 150 (run w2: left to them). */
        if (q->dt == HSM_F32 && plan_channel_word(h, &q1, rows, cols, inner, out) == HIPSOFTMAX_STATUS_SUCCESS)
            return HIPSOFTMAX_STATUS_SUCCESS;
        if ((q->vec > 1 && plan_channel_tile(h, q, rows, cols, inner, out) == HIPSOFTMAX_STATUS_SUCCESS) ||
            plan_channel_tile(h, &q1, rows, cols, inner, out) == HIPSOFTMAX_STATUS_SUCCESS)
            return HIPSOFTMAX_STATUS_SUCCESS;
        if (q->dt != HSM_F32 && q->vec > 1 &&
            plan_channel_word(h, q, rows, cols, inner, out) == HIPSOFTMAX_STATUS_SUCCESS)
            return HIPSOFTMAX_STATUS_SUCCESS;
        const int vec_here = h->forced_kernel[0] != '\0' || q->kop == HSM_KOP_BWD;
        if (q->vec > 1 && vec_here && plan_channel(h, q, rows, cols, inner, out) == HIPSOFTMAX_STATUS_SUCCESS)
            return HIPSOFTMAX_STATUS_SUCCESS;
        return plan_channel(h, &q1, rows, cols, inner, out);
    }
    if (q->peel && q->vec == 1)
        return plan_peeled(h, family, q, rows, cols, out);
    const hsm_kernel *fk = forced_kernel(h);
    if (fk != NULL)
        family = (hipsoftmax_family)fk->family;
    switch (family) {
    case HIPSOFTMAX_FAMILY_WARP: return plan_warp(h, q, rows, cols, out);
    case HIPSOFTMAX_FAMILY_ROW: return plan_row(h, q, rows, cols, out);
    case HIPSOFTMAX_FAMILY_ONLINE: return plan_online(h, q, rows, cols, out);
    case HIPSOFTMAX_FAMILY_SPLIT: return plan_split(h, q, rows, cols, lead, out);
    case HIPSOFTMAX_FAMILY_CHANNEL: return HIPSOFTMAX_STATUS_NOT_SUPPORTED; /* hsm_plan_get sends it to plan_channel */
    case HIPSOFTMAX_FAMILY_AUTO: break;
    }
    return plan_auto(h, q, rows, cols, lead, out);
}

/* Whether a call is the 0.1 forward (algorithm softmax): `algorithm` over rows (CHANNEL with inner 1 is
 * the same), one dtype, no option. */
static int plain_forward_of(const hsm_call *c, hipsoftmax_algorithm algorithm)
{
    const hipsoftmax_problem *p = &c->p;
    return c->op == HSM_OP_FORWARD && p->algorithm == algorithm && p->inner == 1 &&
           p->mask == HIPSOFTMAX_MASK_NONE && p->y_dtype == p->x_dtype && p->scale == 1.0f && p->alpha == 1.0f &&
           p->beta == 0.0f && p->flags == 0 && p->stats == NULL && p->stats_in == NULL;
}
static int plain_forward(const hsm_call *c) { return plain_forward_of(c, HIPSOFTMAX_ALGO_SOFTMAX); }
/* The same with log-softmax for its output: the _log kernels (HSM_KOP_LOG; hsm_plan_get). */
static int plain_log(const hsm_call *c) { return plain_forward_of(c, HIPSOFTMAX_ALGO_LOG_SOFTMAX); }

/* Whether `stride` elements of `es` bytes make a multiple of `m` bytes, m a power of two. The product
 * is taken modulo 2^64: unsigned wrap-around keeps its residue modulo any power of two, and a stride the
 * call does not use (the output of a statistics-only call) may be any value without overflow. */
static int bytes_multiple_of(int64_t stride, size_t es, uint64_t m)
{
    return (uint64_t)stride * (uint64_t)es % m == 0;
}

/* Whether rows of a tensor starting at `at` (bytes), `stride` elements of `es` bytes apart, all start
 * on m bytes (a power of two). */
static int rows_on(uintptr_t at, int64_t rows, int64_t stride, size_t es, uint64_t m)
{
    return at % m == 0 && (rows == 1 || bytes_multiple_of(stride, es, m));
}
static int rows_on_16(uintptr_t at, int64_t rows, int64_t stride, size_t es)
{
    return rows_on(at, rows, stride, es, 16);
}

/* The widest packs, 8 or 4 bytes, in which a plain forward's (or log-softmax's) 16-bit x and y rows
 * lie whole: every row start on them, cols a multiple of their elements (WARP's _h and _q kernels'
 * rows); 0 where neither. Without pointers (plans), tensors are taken as allocated: 256-byte
 * aligned. */
static int sub_pack_bytes(const hsm_call *c)
{
    const hipsoftmax_problem *p = &c->p;
    const uintptr_t in0 = c->in0 != NULL ? (uintptr_t)c->in0 : 256, out = c->out != NULL ? (uintptr_t)c->out : 256;
    const size_t es = hsm_dtype_size(p->x_dtype);
    if (es != 2 || hsm_dtype_size(p->y_dtype) != 2)
        return 0;
    for (int m = 8; m >= 4; m /= 2)
        if (p->cols % (m / 2) == 0 && rows_on(in0, p->rows, p->x_row_stride, es, (uint64_t)m) &&
            rows_on(out, p->rows, p->y_row_stride, es, (uint64_t)m))
            return m;
    return 0;
}

/* Whether every tensor of the call allows 16-byte accesses of the vector width v of its first input:
 * each row start on 16 bytes (a wider or narrower element makes a wider or narrower pack, split into
 * 16-byte pieces or read whole: hsm_get/hsm_put), and rows of whole accesses (`len`, the elements an
 * access runs along, a multiple of v: cols, or CHANNEL's inner). Without pointers
 * (plans), tensors are taken as allocated: 256-byte aligned. */
static int vector_ok(const hsm_call *c, int v, int64_t len)
{
    const hipsoftmax_problem *p = &c->p;
    const int bwd = hsm_op_is_backward(c->op);
    /* The statistics alone have no output: its conditions hold trivially (256). */
    const uintptr_t in0 = c->in0 != NULL ? (uintptr_t)c->in0 : 256, out = c->out != NULL ? (uintptr_t)c->out : 256;
    const int64_t in0_stride = bwd ? p->y_row_stride : p->x_row_stride;
    const int64_t out_stride = bwd ? p->x_row_stride : p->y_row_stride;
    const size_t in0_es = hsm_dtype_size(bwd ? p->y_dtype : p->x_dtype);
    const size_t out_es = hsm_dtype_size(bwd ? p->x_dtype : p->y_dtype);
    if (len % v != 0 || !rows_on_16(in0, p->rows, in0_stride, in0_es) ||
        (!hsm_op_stats_only(c->op) && !rows_on_16(out, p->rows, out_stride, out_es)))
        return 0;
    if (bwd) {
        const uintptr_t in1 = c->in1 != NULL ? (uintptr_t)c->in1 : 256;
        return rows_on_16(in1, p->rows, p->dy_row_stride, hsm_dtype_size(p->dy_dtype));
    }
    if (p->mask == HIPSOFTMAX_MASK_ADDITIVE || p->mask == HIPSOFTMAX_MASK_BOOL) {
        /* A mask pack is v elements of the mask: aligned to its size, at most 16 bytes. */
        const int64_t mes = p->mask == HIPSOFTMAX_MASK_BOOL ? 1 : (int64_t)hsm_dtype_size(p->mask_dtype);
        const int64_t need = v * mes < 16 ? v * mes : 16;
        const uintptr_t m = c->in0 != NULL ? (uintptr_t)p->mask_ptr : 256;
        return m % (uintptr_t)need == 0 &&
               (p->mask_rows == 1 || bytes_multiple_of(p->mask_row_stride, (size_t)mes, (uint64_t)need)) &&
               (p->mask_batches == 1 || bytes_multiple_of(p->mask_batch_stride, (size_t)mes, (uint64_t)need));
    }
    return 1;
}

/* Whether each x row of a forward lies at the same offset from 16 bytes as its y row (taken as
 * allocated, 256-byte aligned, without pointers). */
static int same_offset(const hsm_call *c)
{
    const hipsoftmax_problem *p = &c->p;
    if (p->x_dtype != p->y_dtype)
        return 0;
    const uintptr_t in0 = c->in0 != NULL ? (uintptr_t)c->in0 : 256, out = c->out != NULL ? (uintptr_t)c->out : 256;
    const size_t es = hsm_dtype_size(p->x_dtype);
    const int64_t stride_diff = (int64_t)((uint64_t)p->x_row_stride - (uint64_t)p->y_row_stride);
    return (in0 - out) % 16 == 0 && (p->rows == 1 || bytes_multiple_of(stride_diff, es, 16));
}

/* Whether tensor t's rows (t_es bytes an element) lie at the same offset as the first input's (base)
 * from t's own accesses: a pack of v elements of t lies on m = min(v, 16 / t_es) elements where the
 * input's lies on 16 bytes, so t's row starts in its elements must equal the input's modulo m. A null
 * pointer is taken as allocated (256-byte aligned). */
static int peel_same_offset(const void *base, size_t b_es, int64_t b_stride, const void *t, size_t t_es,
                            int64_t t_stride, int64_t rows, int v)
{
    const uint64_t m = 16 / t_es < (uint64_t)v ? 16 / t_es : (uint64_t)v; /* a power of two */
    const uint64_t b0 = base != NULL ? (uint64_t)(uintptr_t)base : 256, t0 = t != NULL ? (uint64_t)(uintptr_t)t : 256;
    return (b0 / b_es - t0 / t_es) % m == 0 && (rows == 1 || ((uint64_t)b_stride - (uint64_t)t_stride) % m == 0);
}

/* Whether a forward with options or a backward may take the peeled twins (v: the first input's
 * elements in 16 bytes): ROW's for the forward, with no mask tensor (they have no mask loads); ROW's
 * and SPLIT's for the backward. Every other tensor's rows must lie at the first input's offset
 * (peel_same_offset): y's in the forward, dy's and dx's in the backward. */
static int peel_ok(const hsm_call *c, int bwd, int v)
{
    const hipsoftmax_problem *p = &c->p;
    const size_t in_es = hsm_dtype_size(bwd ? p->y_dtype : p->x_dtype);
    const int64_t in_stride = bwd ? p->y_row_stride : p->x_row_stride;
    if (!bwd && (p->mask == HIPSOFTMAX_MASK_ADDITIVE || p->mask == HIPSOFTMAX_MASK_BOOL))
        return 0;
    if (bwd && !peel_same_offset(c->in0, in_es, in_stride, c->in1, hsm_dtype_size(p->dy_dtype), p->dy_row_stride,
                                 p->rows, v))
        return 0;
    return peel_same_offset(c->in0, in_es, in_stride, c->out, hsm_dtype_size(bwd ? p->x_dtype : p->y_dtype),
                            bwd ? p->x_row_stride : p->y_row_stride, p->rows, v);
}

/* Whether WARP's scalar kernels rather than its staged ones take the plain forward or log-softmax of
 * dense rows off 16 bytes: fp32 rows, whose scalar accesses fill a warp's 128 bytes (WARP has no
 * fp32 staged kernels), and 16-bit problems of at most HSM_WARP_SCALAR_BYTES (x and y), too small to
 * pay for the staged kernels' pipeline of spans. H100, kernel time, one run, scalar against staged
 * (bench/results/h100-2026-11-27-scalar.md): fp32 65536 x 127 25.7 us against 27.6, 65536 x 511
 * 91.5 against 101.9, 16384 x 33 3.71 against 4.30; bf16 2048-8192 x 127 (1-4 MB) 1.10-1.29x, fp16
 * 1823 x 301 1.16x, bf16 4096 x 255 1.16x; from 5 MB on the staged kernels: fp16 16384 x 77 4.72
 * against 4.77, bf16 16384 x 127 5.66 against 5.73, fp16 65536 x 77 11.5 against 12.9 (s8: 16 lanes
 * of 8). Near the bound either way: bf16 2048 x 511 (4 MB) 4.46 against 4.35 staged, 8192 x 255 and
 * 4096 x 511 (8 MB) 1.00x. */
static int scalar_rows(hsm_dtype dt, int64_t rows, int64_t cols)
{
    return dt == HSM_F32 || rows <= HSM_WARP_SCALAR_BYTES / 4 / cols;
}

/* The plan of a call; log: a plain log-softmax (plain_log) planned as the plain forward is, on the
 * _log kernels (HSM_KOP_LOG). Preconditions: the call passed hsm_validate. */
static hipsoftmax_status plan_get(struct hipsoftmax_context *h, const hsm_call *call, int log, hsm_plan *out)
{
    const hipsoftmax_problem *p = &call->p;
    const int bwd = hsm_op_is_backward(call->op);
    hsm_req q;
    memset(&q, 0, sizeof q); /* zero padding: q is part of the plan cache's key, compared whole */
    q.kop = bwd ? HSM_KOP_BWD : log ? HSM_KOP_LOG : plain_forward(call) ? HSM_KOP_PLAIN : HSM_KOP_FWD;
    const hipsoftmax_dtype in0 = bwd ? p->y_dtype : p->x_dtype;
    q.dt = hsm_dtype_of(in0);
    const size_t es = hsm_dtype_size(in0);
    const int v = (int)(16 / es);
    q.vec = vector_ok(call, v, p->cols) ? v : 1;
    q.no_raw = !bwd && (p->mask == HIPSOFTMAX_MASK_ADDITIVE || p->mask == HIPSOFTMAX_MASK_BOOL);
    q.given = !bwd && p->stats_in != NULL;
    q.one_pass = hsm_op_stats_only(call->op) || p->stats_in != NULL;
    q.peel = 0;
    q.same_offset = q.kop == HSM_KOP_PLAIN && same_offset(call); /* only the plain forward's plans use it */
    q.log_shift = q.kop == HSM_KOP_LOG && !same_offset(call);
    q.causal = !bwd && p->mask == HIPSOFTMAX_MASK_CAUSAL;
    q.stage_es = bwd ? 8 : (int64_t)es;
    const int is_log = p->algorithm == HIPSOFTMAX_ALGO_LOG_SOFTMAX;
    q.keep_es = bwd ? (int64_t)hsm_dtype_size(p->dy_dtype) + (is_log ? 0 : (int64_t)es) : 0;
    q.out_es = bwd ? (int64_t)hsm_dtype_size(p->x_dtype) : 0;
    q.dy_as_y = bwd && es == 2 && p->dy_dtype == p->y_dtype;
    q.plain_bwd = bwd && !hsm_op_stats_only(call->op) && p->dy_dtype == p->y_dtype && p->x_dtype == p->y_dtype &&
                  p->alpha == 1.0f && p->beta == 0.0f && p->stats == NULL && p->stats_in == NULL;
    /* SPLIT lays each row out from the 128-byte line that holds its start (hsm_line_lead in the
     * kernels), which takes up to a line less one access more room where rows can start off a line.
     * The backward lays rows out from their first column. */
    const uintptr_t x = call->in0 != NULL ? (uintptr_t)call->in0 : 256;
    const int64_t in0_stride = bwd ? p->y_row_stride : p->x_row_stride;
    const int on_line = x % HSM_LINE_BYTES == 0 &&
                        (p->rows == 1 || bytes_multiple_of(in0_stride, es, HSM_LINE_BYTES));
    int lead = q.vec > 1 && !on_line && !bwd ? (int)((HSM_LINE_BYTES - 16) / es) : 0;

    /* CHANNEL with inner 1 is a ROW problem (rows = outer, cols = C, the strides as given) and takes
     * the row families, unless CHANNEL is forced; a forced CHANNEL runs a ROW problem as inner 1.
     * CHANNEL's kernels take no mask and no statistics (validate.c refuses them for inner > 1). */
    const hsm_kernel *forced_k = forced_kernel(h);
    const int plain_kop = is_plain_kop(q.kop);
    const int vec16 = q.vec;
    const int forced_channel =
        forced_k != NULL ? forced_k->family == HSM_FAMILY_CHANNEL : h->forced == HIPSOFTMAX_FAMILY_CHANNEL;
    const int channel = forced_channel || (p->mode == HIPSOFTMAX_MODE_CHANNEL && p->inner > 1);
    int64_t inner = 0;
    if (channel) {
        HSM_RETURN_IF(p->mask != HIPSOFTMAX_MASK_NONE || p->stats != NULL || p->stats_in != NULL ||
                          (h->forced != HIPSOFTMAX_FAMILY_AUTO && h->forced != HIPSOFTMAX_FAMILY_CHANNEL) ||
                          (h->forced_kernel[0] != '\0' && !forced_channel),
                      HIPSOFTMAX_STATUS_NOT_SUPPORTED);
        inner = p->inner;
        q.kop = bwd ? HSM_KOP_BWD : HSM_KOP_FWD;
        /* V adjacent columns a thread where every tensor allows 16-byte accesses along inner (each
         * position's V columns then lie inside one access: inner and every row start are multiples
         * of V), else one column a thread (plan_compute says which kernels take V). CHANNEL takes no
         * mask (refused above). The tile kernels' shared memory: x's element a column and position,
         * and dy's beside y's in the backward. */
        q.vec = p->inner > 1 && vector_ok(call, v, p->inner) ? v : 1;
        q.stage_es = (int64_t)es + (bwd ? (int64_t)hsm_dtype_size(p->dy_dtype) : 0);
        q.keep_es = 0;
        q.out_es = 0;
        q.dy_as_y = 0;
        q.plain_bwd = 0;
        q.no_raw = 0;
        q.given = 0;
        q.one_pass = 0;
        q.same_offset = 0;
        q.log_shift = 0;
        q.causal = 0;
        lead = 0;
    } else if ((plain_kop &&
                (forced_k != NULL ? forced_k->peel && (forced_k->family == HSM_FAMILY_ROW || q.same_offset)
                                  : q.vec == 1 && v > 1)) ||
               (!plain_kop && v > 1 && peel_ok(call, bwd, v) && (forced_k != NULL ? forced_k->peel : q.vec == 1))) {
        /* The peeled kernels take the plain forward's rows (softmax and log-softmax) at any offset
         * (WARP's with x and y rows at the same offsets), ROW's the forward with options and ROW's and
         * SPLIT's the backward where peel_ok: a forced one serves every such layout (vec v, peel);
         * otherwise rows off 16 bytes are planned by plan_peeled (vec 1, peel). */
        if (forced_k != NULL)
            q.vec = v;
        q.peel = forced_k != NULL ? forced_k->peel : 1;
        lead = 0;
    }
    /* WARP's staged kernels (_flat, and _flat_*_log for the plain log-softmax) take the plain forward
     * of dense rows (x's rows cols apart, and y's) of up to HSM_WARP_MAX_COLS columns at any offset
     * (16-bit: one less, plan_warp says why): a forced one only those, and the plan those whose rows
     * are not all on 16 bytes, which the vector kernels cannot take whole, unless scalar_rows gives
     * them to the scalar kernels. Should neither serve them after all, the plan is the one they would
     * have had (q_rows). */
    const int dense = p->rows == 1 || (p->x_row_stride == p->cols && p->y_row_stride == p->cols);
    const int flat_ok = plain_kop && !channel && dense && p->cols + (es == 2) <= HSM_WARP_MAX_COLS;
    HSM_RETURN_IF(forced_k != NULL && forced_k->flat && !flat_ok, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    /* WARP's _h and _q kernels (packs of 8 and 4 bytes) take the plain forward's and log-softmax's
     * 16-bit rows that lie whole in such packs (sub_pack_bytes, the wider) but not in 16-byte ones,
     * where the plan gives WARP the row (family auto or WARP, up to HSM_WARP_MAX_COLS columns) and
     * the row has more than HSM_WARP_HALF_MIN_COLS (_q: HSM_WARP_QUAD_MIN_COLS); a forced one every
     * row its packs allow. The _h kernels: H200, kernel time against the library before (staged or
     * scalar kernels; bench/results/h200-2026-11-30-half.md): fp16 65536 x 300 1.335x (log-softmax
     * 1.492x), 65536 x 68 1.097x, 65536 x 100 1.152x, 65536 x 180 1.205x, 65536 x 500 1.179x, bf16
     * 262144 x 420 1.277x, fp16 4096 x 300 1.274x, x and y rows 304 apart 1.352x; now 1.06-1.29x as
     * fast as torch.compile's kernel, which had run 65536 x 300 1.22x as fast as the library. Short
     * rows stay: fp16 65536 x 20 ran 5.41 us on 8 lanes of one pack against 4.29 on the staged
     * kernel. The _q kernels the same way, for rows of more than HSM_WARP_QUAD_MIN_COLS: fp16 65536 x
     * 302 1.236x, its log-softmax 1.295x, 65536 x 258 1.214x, 65536 x 510 1.179x, bf16 262144 x 422
     * 1.098x, x and y rows 306 apart 1.263x (bench/results/h200-2026-11-30-quad.md); fp16 65536 x 98
     * and x 66 ran 0.971x and 0.978x (on 16 lanes of four packs) then, when WARP's kernels looped over
     * rows; without the loop, 1.196x and 1.274x: dense rows of 65-256 columns take them too where
     * quad_short_rows says. */
    const int sub = plain_kop && !channel ? sub_pack_bytes(call) : 0;
    const int forced_sub = forced_k != NULL && forced_k->family == HSM_FAMILY_WARP && es == 2 &&
                                   forced_k->vec > 1 && forced_k->vec < v
                               ? forced_k->vec * (int)es
                               : 0;
    /* The packs' bytes the plan tries first (the key's `sub`), or 0. */
    const int sub_rows = forced_k != NULL ? (forced_sub != 0 && sub >= forced_sub ? forced_sub : 0)
                         : sub != 0 && vec16 == 1 &&
                                 (p->cols > (sub == 8 ? HSM_WARP_HALF_MIN_COLS : HSM_WARP_QUAD_MIN_COLS) ||
                                  (sub == 4 && dense && quad_short_rows(h, p->rows, p->cols))) &&
                                 p->cols <= HSM_WARP_MAX_COLS &&
                                 (h->forced == HIPSOFTMAX_FAMILY_AUTO || h->forced == HIPSOFTMAX_FAMILY_WARP)
                             ? sub
                             : 0;
    const hsm_req q_rows = q;
    const int lead_rows = lead;
    const int dense_rows = flat_ok && (forced_k != NULL ? forced_k->flat
                                                        : (h->forced == HIPSOFTMAX_FAMILY_AUTO ||
                                                           h->forced == HIPSOFTMAX_FAMILY_WARP) &&
                                                              q.vec == 1);
    if (dense_rows) {
        q.flat = forced_k != NULL || !scalar_rows(q.dt, p->rows, p->cols);
        q.vec = q.flat ? v : 1;
        q.peel = 0;
        lead = 0;
    }

    hsm_plan_key k;
    memset(&k, 0, sizeof k);
    memcpy(&k.q, &q, sizeof q);
    k.lead = lead;
    k.family = (int)h->forced;
    k.rows = p->rows;
    k.cols = p->cols;
    k.inner = inner;
    k.sub = sub_rows;
    /* FNV-1a over the key's bytes, padding included (zeroed above): a field added to the key is
     * hashed without a list to keep beside it. */
    uint64_t hash = 0xCBF29CE484222325ull;
    const unsigned char *kb = (const unsigned char *)&k;
    for (size_t i = 0; i < sizeof k; i++)
        hash = (hash ^ kb[i]) * 0x100000001B3ull;
    hsm_plan_entry *e = &h->plans[hash % HSM_PLAN_CACHE];
    if (e->valid && memcmp(&e->key, &k, sizeof k) == 0) {
        *out = e->plan;
        return e->status;
    }
    hsm_plan plan;
    memset(&plan, 0, sizeof plan);
    hipsoftmax_status st = HIPSOFTMAX_STATUS_NOT_SUPPORTED;
    if (sub_rows) {
        hsm_req qh = q;
        qh.vec = sub_rows / (int)es;
        qh.peel = 0;
        qh.flat = 0;
        st = plan_compute(h, h->forced, &qh, p->rows, p->cols, 0, 0, &plan);
    }
    if (st == HIPSOFTMAX_STATUS_NOT_SUPPORTED && !(sub_rows && forced_k != NULL)) {
        memset(&plan, 0, sizeof plan);
        st = plan_compute(h, h->forced, &q, p->rows, p->cols, inner, lead, &plan);
        if (st == HIPSOFTMAX_STATUS_NOT_SUPPORTED && dense_rows && forced_k == NULL) {
            memset(&plan, 0, sizeof plan);
            st = plan_compute(h, h->forced, &q_rows, p->rows, p->cols, inner, lead_rows, &plan);
        }
    }
    e->valid = 1;
    memcpy(&e->key, &k, sizeof k); /* padding included: the next lookup compares it */
    e->status = st;
    e->plan = plan;
    *out = plan;
    return st;
}

/* A plain log-softmax takes the _log kernels (WARP's, ROW's and SPLIT's; for rows off 16 bytes ROW's
 * peeled ones, SPLIT's scalar ones and WARP's staged ones for dense rows) where the forward with
 * options would take the same family's kernels (or where a _log kernel is forced), planned as the
 * plain forward is (the same chunks, the same registers; hip/softmax_row.hip says why), and WARP's
 * fp32 _v8_log where plan_auto gives the plain forward's fp32 rows of 513-1024 columns WARP's _v8
 * (the forward with options keeps ROW there). Elsewhere (WARP's short rows off 16 bytes, not dense)
 * it keeps the forward with options' plan. */
hipsoftmax_status hsm_plan_get(struct hipsoftmax_context *h, const hsm_call *call, hsm_plan *out)
{
    const hipsoftmax_status st = plan_get(h, call, 0, out);
    if (!plain_log(call))
        return st;
    hsm_plan pl;
    if (plan_get(h, call, 1, &pl) != HIPSOFTMAX_STATUS_SUCCESS)
        return st;
    /* WARP's fp32 vector kernels take rows past HSM_WARP_MAX_COLS only by plan_auto's rule above */
    const hsm_kernel *k = pl.ks->k;
    const int warp_wide = k->family == HSM_FAMILY_WARP && k->dtype == HSM_F32 && k->vec > 1 && !k->peel &&
                          !k->flat && call->p.cols > HSM_WARP_MAX_COLS;
    /* ROW's peeled _log kernels take rows whose x and y lie at different offsets from 16 bytes (16-bit:
     * x read in y's layout; fp32: y stored an element at a time, or through shared memory by the
     * _stage_log kernels), which the forward with options' peeled twins do not (peel_ok): its plan
     * falls to the scalar kernels, SPLIT's past the 16384 columns ROW's scalar ones hold. H200, kernel
     * time, against SPLIT's scalar kernels (bench/results/h200-2026-12-02-stage16.md, commands 3-4):
     * bf16 4096 x 20001-50257 4.1-5.1x, 1024 rows 3.8-3.9x, 128 x 20001 2.5x, 8 x 30435 0.995x; fp32
     * 4096 x 20001 1.75x and 128 x 23834 1.53x on the _stage_log kernels, 1024 x 10129 1.91x, 8 x 16517
     * 0.96x. */
    const int row_peeled =
        st == HIPSOFTMAX_STATUS_SUCCESS && k->family == HSM_FAMILY_ROW && k->peel && out->ks->k->vec == 1;
    if (st == HIPSOFTMAX_STATUS_SUCCESS && k->family != out->ks->k->family && !warp_wide && !row_peeled)
        return st;
    *out = pl;
    return HIPSOFTMAX_STATUS_SUCCESS;
}
