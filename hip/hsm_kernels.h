/* hsm_kernels.h: the C interface between the host library (src/) and the kernels (hip/).
 * Private to hipsoftmax, do not expose. Plain C, no vendor types: src/ sees kernels only as table
 * entries with a launch function, so the plan never needs to know how a family is written.
 */
#ifndef HSM_KERNELS_H_91D0C2
#define HSM_KERNELS_H_91D0C2

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel families (README.md). Values match hipsoftmax_family in the public experimental API. */
typedef enum hsm_family {
    HSM_FAMILY_WARP = 1,   /* several rows per warp: a group of lanes holds one row in registers */
    HSM_FAMILY_ROW = 2,    /* persistent: one block holds one row in registers, loops over rows */
    HSM_FAMILY_ONLINE = 3, /* one block per row streams it twice: online (max, sum), then write */
    HSM_FAMILY_SPLIT = 4,  /* a group of co-resident blocks holds one row, combining partials */
    HSM_FAMILY_CHANNEL = 5 /* [outer][C][inner], softmax over C: a thread per (outer, inner) column */
} hsm_family;

/* Element types (hsm_dtype_of in src/ maps hipsoftmax_dtype to these). */
typedef enum hsm_dtype { HSM_F32 = 0, HSM_F16 = 1, HSM_BF16 = 2 } hsm_dtype;

/* What a kernel computes. A plain kernel is the forward softmax of one dtype with no option (0.1's
 * kernels, kept as they are); a log kernel the same with log-softmax for its output (WARP's, ROW's
 * and SPLIT's _log kernels: plain kernels compiled for it, src/plan.c's hsm_plan_get says where); a
 * forward kernel takes every forward option at run time (hsm_op_args), a backward kernel every
 * backward one. The x dtype, vector width and chunk stay compile-time: they
 * set the registers and the hot loop. The rest is read once per row and selects, by a branch every
 * thread takes the same way, among bodies compiled for it (an output dtype, a mask dtype, softmax or
 * log-softmax), so no loop over elements branches on it. */
typedef enum hsm_kop { HSM_KOP_PLAIN = 0, HSM_KOP_FWD = 1, HSM_KOP_BWD = 2, HSM_KOP_LOG = 3 } hsm_kop;

/* The mask a forward kernel reads with x (a causal bound is separate: hsm_op_args.causal). */
typedef enum hsm_mask_kind {
    HSM_MK_NONE = 0,
    HSM_MK_ADD_F32 = 1, /* additive, in the mask's dtype */
    HSM_MK_ADD_F16 = 2,
    HSM_MK_ADD_BF16 = 3,
    HSM_MK_BOOL = 4     /* uint8: 0 masked, else keep */
} hsm_mask_kind;

/* n / d for 0 <= n < 2^32 in a multiply and a shift (d >= 1): a per-row division by a runtime value
 * costs tens of instructions, more than a short row's elements. hsm_fastdiv_init in src/device.c. */
typedef struct hsm_fastdiv { uint32_t d, mul, shift; } hsm_fastdiv;

/* The options of forward and backward kernels, constant over a launch. */
typedef struct hsm_op_args {
    int out_dtype;                 /* hsm_dtype of y (forward) or dx (backward) */
    int in2_dtype;                 /* backward: hsm_dtype of dy */
    int log;                       /* log-softmax */
    int safe;                      /* HIPSOFTMAX_FLAG_SAFE_ROWS */
    int mask;                      /* hsm_mask_kind */
    int causal;                    /* columns past query + causal_offset are masked and never read */
    int blend;                     /* alpha != 1 or beta != 0 */
    int div32;                     /* every row index < 2^32: q_div and h_div apply */
    float sigma;                   /* forward: z = sigma * u of the loaded values u (scale, or 1 where
                                      a mask was added to scale * x as it was loaded) */
    float scale;                   /* the problem's scale: x's multiplier with a mask; backward: g's */
    float alpha, beta;
    const void *mask_ptr;
    int64_t mask_row_stride;       /* elements; 0 where every query shares one mask row */
    int64_t mask_batch_stride;     /* elements; 0 where every batch shares the mask */
    int64_t queries, heads;        /* row r: query r % queries, batch r / (heads * queries) */
    hsm_fastdiv q_div, h_div;      /* / queries, / heads */
    int64_t causal_offset;
    float *stats;                  /* per row {max, lse} of z (backward: {sum, 0}), or NULL */
    int no_out;                    /* the statistics alone: nothing else is written */
    const float *stats_in;         /* given statistics: stats_shards records per row, stats_stride floats apart */
    int64_t stats_shards, stats_stride;
    int64_t grouped_rows;          /* forward with a mask tensor whose rows the heads share: ROW's
                                      kernels visit the rows under this (whole batches, a multiple of
                                      heads * queries) head-fastest (hsm_visit_row); 0: in order */
} hsm_op_args;

/* Everything one launch needs; sizes in elements unless named _bytes. */
typedef struct hsm_launch {
    const void *x;                 /* forward x; backward y */
    const void *x2;                /* backward dy */
    void *y;                       /* forward y; backward dx */
    int64_t rows, cols;
    int64_t x_stride, x2_stride, y_stride; /* row strides, elements */
    int grid, block;               /* blocks, threads per block */
    size_t smem_bytes;             /* dynamic shared memory per block */
    void *stream;                  /* hipStream_t */
    int group_width;               /* WARP: lanes per row (power of two <= warp size) */
    int blocks_per_row;            /* SPLIT: blocks sharing a row (>= 1) */
    void *workspace;               /* SPLIT: hsm_split_workspace_bytes(workspace_blocks) bytes, zeroed at
                                      creation and where the tags wrap (device.c) */
    int workspace_blocks;          /* SPLIT: the largest grid the workspace serves (>= grid) */
    unsigned epoch;                /* SPLIT: the tag of the launch's first round of exchanges, above every
                                      tag an earlier launch on the workspace used (softmax_split.hip) */
    int fenced;                    /* SPLIT: the exchange fences its barrier, its tags not unique (a launch
                                      captured into a graph, which each replay repeats) */
    int cached_tiles;              /* ONLINE: tiles of each row kept in smem_bytes of shared memory */
    int staged;                    /* SPLIT: accesses (vec elements each) per thread of the block's chunk
                                      held in smem_bytes of shared memory, after its registers' share;
                                      a held kernel's (hsm_split_held): the accesses a thread holds, all
                                      in registers */
    int64_t inner;                 /* CHANNEL: elements after the softmax dimension (cols is C, rows outer) */
    int channel_warps;             /* CHANNEL: warps that share one tile of columns, splitting C */
    int channel_lanes;             /* CHANNEL: lanes of a warp on different columns (of V each) */
    int flat_rows;                 /* WARP's _flat kernels: rows a block stages at once (a multiple of
                                      its groups; their elements fit HSM_WARP_FLAT_BYTES) */
    int ahead;                     /* ROW's plain forward: a block asks L2 for the row this many visits
                                      after its own before loading its own (plan.c's
                                      HSM_ROW_AHEAD_DIV; 0: none) */
    hsm_op_args op;                /* forward and backward kernels */
} hsm_launch;

typedef struct hsm_kernel hsm_kernel;
struct hsm_kernel {
    const char *name;              /* the kernel's symbol (extern "C", so also its name in code objects) */
    const void *func;              /* host handle for the runtime's attribute and occupancy queries */
    hsm_family family;
    hsm_kop kop;
    hsm_dtype dtype;               /* of x (forward) or y (backward) */
    int vec;                       /* elements per memory access: 16 bytes' worth; 8 or 4 bytes' worth
                                      (WARP's 16-bit _h and _q kernels: plan.c's sub_pack_bytes); or 1
                                      (any alignment) */
    int cols_per_thread;           /* row elements a thread keeps in registers (ONLINE: per tile;
                                    * CHANNEL tile kernels: the columns a thread reduces at once) */
    int max_block;                 /* the __launch_bounds__ the kernel was compiled with */
    int (*launch)(const hsm_kernel *k, const hsm_launch *a); /* returns a hipError_t */
    int peel;                      /* a vector kernel that takes rows at any element offset (the
                                      _peel twins of the plain forward, of ROW's forward with
                                      options, of the backward in ROW, SPLIT and ONLINE:
                                      hsm_peel_col); the plan gives it the rows that are not on
                                      16 bytes, the plain kernels those that are. 2: ROW's _shift
                                      twins of its packed peeled kernels, of its 16-bit v32 one (p32)
                                      and of its fp32 ones, for rows whose y lies at another offset
                                      than x; 3: ROW's _stage kernels (fp32 and 16-bit packed),
                                      the same rows, y through shared memory */
    int flat;                      /* WARP's staged plain forward (_flat): dense rows at any offset,
                                      copied through shared memory a span of flat_rows rows at a time;
                                      its group width, built in (else 0) */
    int lanes;                     /* WARP's packed kernels (_p32_fwd, _p64_fwd; _p16_bwd, _p32_bwd):
                                      one row a warp of this many lanes, built in (the warp size); they
                                      serve only rows that need the whole warp. ROW's packed backward
                                      (_p<C>_bwd): 1, a block a row with no loop over rows, planned only
                                      by plan.c's plan_row_packed; 2 (_p32_b512_bwd) the same, launched
                                      with max_block threads whatever the row. Else 0 */
    int dy_as_y;                   /* ROW's 16-bit backward that holds y and dy as stored (_w): it
                                      serves only calls whose dy has y's dtype, which the plan gives
                                      no other vector kernel of ROW's backward (a forced one aside) */
};

/* The kernels of each family compiled into this library. */
const hsm_kernel *hsm_warp_kernels(size_t *count);
const hsm_kernel *hsm_row_kernels(size_t *count);
const hsm_kernel *hsm_online_kernels(size_t *count);
const hsm_kernel *hsm_split_kernels(size_t *count);
const hsm_kernel *hsm_channel_kernels(size_t *count);
/* Whether k is one of CHANNEL's streaming kernels (C read in chunks, twice: any C), not one that
 * holds a column's C values in registers. */
int hsm_channel_streams(const hsm_kernel *k);
/* Whether k is one of CHANNEL's tile kernels (a block stages all C positions of a tile of columns in
 * shared memory: C as long as that allows). */
int hsm_channel_tiles(const hsm_kernel *k);
/* Whether k is one of CHANNEL's word kernels (a 32-bit word of columns a lane, K positions a thread in
 * registers; forward only). */
int hsm_channel_words(const hsm_kernel *k);

/* ROW's forward kernels that hold more than this many values a thread (fp32 28 and 32, 16-bit 32, not
 * the packed 16-bit kernels) are compiled without the path that takes given row statistics: beside
 * those values the shards' combine pushed them past the 64-register cap, and the spills (40-124
 * bytes) cost every fused forward of theirs 15-20% (fp32 log-softmax 4096 x 16384: 69% of the copy
 * bandwidth against 87%). A problem with stats_in goes to a kernel that takes it (hsm_row_takes_given;
 * ONLINE and SPLIT stream a row once when its statistics are given). */
#define HSM_ROW_GIVEN_MAX_CHUNK 24

/* SPLIT: staged accesses per thread that form one tile: copied as one group, folded as it lands. */
#define HSM_SPLIT_STAGE_PACKS 4

/* WARP's _flat kernels: the bytes of the span of rows a block stages in shared memory (besides its
 * lead, under 16 bytes), in each of two buffers: 16.4 KB a 128-thread block. The eight blocks a SM
 * their register cap leaves hold 131 KB, within every NVIDIA target's shared memory from sm_80; a
 * CDNA CU's 64 KB holds three (the occupancy model counts it; no AMD GPU has run them). */
#define HSM_WARP_FLAT_BYTES 8192

/* The L2 cache line of both vendors: SPLIT lays rows out from the line that holds their start
 * (hsm_line_lead), and the plan leaves room for that. */
#define HSM_LINE_BYTES 128

/* Bytes of SPLIT workspace for grids of up to `grid` blocks (barrier words, per-block tagged pairs of
 * two rounds). */
size_t hsm_split_workspace_bytes(int grid);
/* Whether k is one of WARP's kernels that serve one row a group of its lanes and no more (the plain
 * forward's and log-softmax's but the peeled and staged ones): its launch covers the rows past grid x
 * block / group_width with further launches. */
int hsm_warp_once(const hsm_kernel *k);
/* Whether k is one of SPLIT's held kernels (a row its group holds whole in registers, as stored:
 * nothing staged in shared memory, nothing streamed). */
int hsm_split_held(const hsm_kernel *k);
/* Whether k is one of the held kernels' lean twins (hip/softmax_split.hip's hsm_split_lean_body): x's
 * rows on their line and y's on 16 bytes, a group a row, fewer than HSM_SPLIT_LEAN_MAX_COLS columns. */
int hsm_split_lean(const hsm_kernel *k);
#define HSM_SPLIT_LEAN_MAX_COLS (1 << 30)

#ifdef __cplusplus
}
#endif
#endif /* HSM_KERNELS_H_91D0C2 */
