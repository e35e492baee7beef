/* hipsoftmax.h: fused softmax on AMD CDNA and NVIDIA GPUs, one C API for both.
 *
 * Usage: create a handle bound to a GPU, attach your stream, describe the problem, call
 * hipsoftmax_forward. Every call validates its arguments and returns a hipsoftmax_status; nothing
 * aborts, prints, allocates or synchronises on the call path (the environment variable
 * HIPSOFTMAX_LOG aside: it logs each call, README "Logging"). C11 and C++ clean; needs no GPU SDK.
 */
#ifndef HIPSOFTMAX_H_3F90B1
#define HIPSOFTMAX_H_3F90B1

#include <stddef.h>
#include <stdint.h>

#include "hipsoftmax_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ----------------------------------------------------------------------------------- */
#define HIPSOFTMAX_VERSION_MAJOR 0
#define HIPSOFTMAX_VERSION_MINOR 2
#define HIPSOFTMAX_VERSION_PATCH 0
#define HIPSOFTMAX_VERSION_NUMBER                                                                     \
    (HIPSOFTMAX_VERSION_MAJOR * 10000 + HIPSOFTMAX_VERSION_MINOR * 100 + HIPSOFTMAX_VERSION_PATCH)
#define HIPSOFTMAX_VERSION_STRING "0.2.0"

/* The library's HIPSOFTMAX_VERSION_NUMBER, to compare with the header's. Added in 0.1. */
HIPSOFTMAX_API unsigned hipsoftmax_version_number(void);
/* The library's version as "MAJOR.MINOR.PATCH"; static, never NULL. Added in 0.1. */
HIPSOFTMAX_API const char *hipsoftmax_version_string(void);

/* ---- types ------------------------------------------------------------------------------------- */

/* A handle: one GPU, its cached properties, kernel metadata and plans, one stream, a small workspace.
 * Not thread-safe: use one handle per host thread, or serialise calls on it (hipsoftmax_get_plan too:
 * it fills the handle's plan cache). Work enqueued with one handle must not run concurrently on two
 * streams (the long-row kernels share the handle's workspace): use one handle per stream that runs
 * concurrently. */
typedef struct hipsoftmax_context *hipsoftmax_handle;

/* The caller's stream: pass your hipStream_t (AMD) or cudaStream_t (NVIDIA) as is; NULL is the
 * default stream. Kept opaque so this header needs no vendor runtime. */
typedef void *hipsoftmax_stream;

/* Enum values live in disjoint ranges, so an argument passed in the wrong place is caught. */
typedef enum hipsoftmax_dtype {
    HIPSOFTMAX_DTYPE_F32 = 150,  /**< IEEE binary32 */
    HIPSOFTMAX_DTYPE_F16 = 151,  /**< IEEE binary16 */
    HIPSOFTMAX_DTYPE_BF16 = 152  /**< bfloat16 (8-bit exponent, 7-bit mantissa) */
} hipsoftmax_dtype;

typedef enum hipsoftmax_algorithm {
    HIPSOFTMAX_ALGO_SOFTMAX = 200,     /**< y = exp(z - max) / sum(exp(z - max)) */
    HIPSOFTMAX_ALGO_LOG_SOFTMAX = 201  /**< y = z - max - log(sum(exp(z - max))) (0.2) */
} hipsoftmax_algorithm;

typedef enum hipsoftmax_mode {
    HIPSOFTMAX_MODE_ROW = 250,     /**< softmax over the last dimension of a rows x cols matrix */
    HIPSOFTMAX_MODE_CHANNEL = 251  /**< over a non-last dimension: [rows][cols][inner], softmax over cols */
} hipsoftmax_mode;

typedef enum hipsoftmax_mask {
    HIPSOFTMAX_MASK_NONE = 300,     /**< no mask */
    HIPSOFTMAX_MASK_ADDITIVE = 301, /**< z = scale * x + mask, mask a tensor of mask_dtype (0.2) */
    HIPSOFTMAX_MASK_CAUSAL = 302,   /**< column j of a row with query index q is -inf when j > q + causal_offset (0.2) */
    HIPSOFTMAX_MASK_BOOL = 303      /**< a uint8 tensor: 0 = masked (-inf), nonzero = keep; mask_dtype unused (0.2) */
} hipsoftmax_mask;

/* Floats in a record of row statistics (hipsoftmax_problem.stats, stats_in). */
#define HIPSOFTMAX_STATS_FLOATS 4

/* Bits of hipsoftmax_problem.flags. */
#define HIPSOFTMAX_FLAG_SAFE_ROWS 1u /**< a row whose every column is masked or -inf gives zeros (log-softmax: -inf), not NaN (0.2) */

/* The problem: what to compute and the layout of each tensor. Fill it with hipsoftmax_problem_init,
 * then change fields. Sizes and strides count elements, not bytes; pointers are device memory.
 *
 * z, the values the softmax is taken of: z = scale * x (+ the additive mask), with masked columns -inf.
 *
 * Versions: fields are only ever appended, and struct_size tells the library which ones the caller
 * was compiled with. A caller built against an older header gets the defaults for the fields it
 * lacks; a caller built against a newer one may pass a larger struct whose fields this library does
 * not know only while they are all zero (each appended field's zero is its default: the calls return
 * NOT_SUPPORTED otherwise, never silently ignoring an option).
 *
 * Attention layouts: rows may be the flattened [batch][heads][queries] of attention scores (cols is
 * the key length). Row r then has query index r % queries and batch index r / (heads * queries); a
 * causal mask uses the query index, and a mask tensor [mask_batches][mask_rows][cols] is indexed by
 * (batch, query), a dimension of size 1 being shared (broadcast) as in NumPy: [batch, 1, q, k] masks
 * set mask_batches = batch, mask_rows = queries; a key-padding mask [batch, 1, 1, k] sets mask_rows
 * = 1; one mask row for every row sets both to 1. The defaults (heads 1, queries = rows, one mask row
 * per row) describe a plain matrix. */
typedef struct hipsoftmax_problem {
    size_t struct_size;              /* sizeof(hipsoftmax_problem) as the caller compiled it; set by hipsoftmax_problem_init */
    hipsoftmax_algorithm algorithm;  /* default HIPSOFTMAX_ALGO_SOFTMAX */
    hipsoftmax_mode mode;            /* default HIPSOFTMAX_MODE_ROW */
    hipsoftmax_dtype x_dtype;        /* forward input x; backward: the output dx */
    hipsoftmax_dtype y_dtype;        /* forward output y; backward: the input y */
    int64_t rows;                    /* > 0; CHANNEL mode: the outer dimension */
    int64_t cols;                    /* > 0: the softmax runs over each row's cols elements */
    int64_t x_row_stride;            /* elements between row starts of x (backward: dx), >= cols (CHANNEL: >= cols * inner); default cols */
    int64_t y_row_stride;            /* elements between row starts of y, likewise; default cols */
    int64_t inner;                   /* CHANNEL mode: elements after the softmax dimension (element (r, c, i) at r * row_stride + c * inner + i); 1 in ROW mode */
    float scale;                     /* z = scale * x: a finite scale > 0 (temperature, 1/sqrt(d)); default 1 */
    float alpha, beta;               /* y = alpha * softmax + beta * y (cuDNN/MIOpen blending; beta = 0 never reads y); finite; default 1, 0 */
    hipsoftmax_mask mask;            /* default HIPSOFTMAX_MASK_NONE */
    hipsoftmax_dtype mask_dtype;     /* ADDITIVE: the mask's element type (f32, f16, bf16) */
    const void *mask_ptr;            /* ADDITIVE, BOOL: device pointer to element (0, 0, 0) of the mask */
    int64_t mask_row_stride;         /* ADDITIVE, BOOL: elements between mask rows, >= cols where mask_rows > 1 */
    int64_t causal_offset;           /* CAUSAL: column j is masked when j > query + causal_offset (KV-cache decoding: keys - queries) */
    /* ---- appended in 0.2; each field's zero is its default ---- */
    unsigned flags;                  /* HIPSOFTMAX_FLAG_* bits; 0 */
    hipsoftmax_dtype dy_dtype;       /* backward: the element type of dy; 0: y_dtype */
    int64_t dy_row_stride;           /* backward: elements between row starts of dy; 0: y_row_stride */
    int64_t heads;                   /* attention layout: heads per batch; 0: 1 */
    int64_t queries;                 /* attention layout: rows per (batch, head); 0: rows */
    int64_t mask_batches;            /* ADDITIVE, BOOL: 1 (shared by every batch) or at least the batch count; 0: 1 */
    int64_t mask_rows;               /* ADDITIVE, BOOL: 1 (shared by every query) or at least min(queries, rows); 0: that */
    int64_t mask_batch_stride;       /* ADDITIVE, BOOL: elements between mask batches, where mask_batches > 1 */
    float *stats;                    /* statistics out, when not NULL: per row one record of HIPSOFTMAX_STATS_FLOATS floats,
                                        16-byte aligned device memory: forward {max, lse, sum, 0} of z (sum = sum exp(z -
                                        max), lse = max + log sum); hipsoftmax_backward_stats {sum, 0, 0, 0}, the row's sum
                                        of dy * y (softmax) or of dy (log-softmax) */
    const float *stats_in;           /* statistics in, when not NULL: the call takes each row's statistics from here instead of
                                        computing them (a row split over devices: see "Sharded rows" below); records as
                                        stats writes them, stats_in_shards per row, combined in the kernel */
    int64_t stats_in_shards;         /* records per row in stats_in, one per shard of the row; 0: 1 */
    int64_t stats_in_shard_stride;   /* floats from a shard's record of a row to the next shard's; 0: HIPSOFTMAX_STATS_FLOATS
                                        * rows (the layout an all-gather of every shard's stats makes) */
} hipsoftmax_problem;

/* ---- handle ------------------------------------------------------------------------------------ */

/* Creates a handle on the calling thread's current GPU. Reads the device's properties and the
 * library's own kernel metadata, and allocates a small device workspace (zeroed here, and again on
 * the handle's stream where its long-row launches' round count wraps: after 2^31 rows or more).
 * Returns NO_DEVICE when there is no usable GPU for this build's vendor, INVALID_POINTER when
 * out is NULL. On failure *out is set to NULL. Added in 0.1. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_create(hipsoftmax_handle *out);

/* As hipsoftmax_create, on GPU `device` (0-based, as the vendor runtime numbers them); the
 * current device of the calling thread is restored before returning. Added in 0.1. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_create_for_device(hipsoftmax_handle *out, int device);

/* Creates a handle with no GPU, for a named target ("gfx942", "gfx90a", "gfx908", "sm_80", "sm_90",
 * ...): it validates arguments and plans launches from the target's tables, and every call that would
 * launch returns NO_DEVICE after validation. NOT_SUPPORTED for an unknown target. Added in 0.1. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_create_offline(hipsoftmax_handle *out, const char *target);

/* Frees the handle and its workspace. Accepts NULL. Waits for nothing: the caller must make sure
 * work enqueued with this handle has finished. Added in 0.1. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_destroy(hipsoftmax_handle handle);

/* Sets the stream every later call enqueues on (NULL: the default stream). Added in 0.1. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_set_stream(hipsoftmax_handle handle, hipsoftmax_stream stream);
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_get_stream(hipsoftmax_handle handle, hipsoftmax_stream *stream);

/* The handle's target name ("gfx942:sramecc+:xnack-", "sm_90") into buf (NUL-terminated, truncated
 * to size). Added in 0.1. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_get_target(hipsoftmax_handle handle, char *buf, size_t size);

/* ---- softmax ----------------------------------------------------------------------------------- */

/* Fills *problem with the defaults above for a rows x cols problem in dtype with dense rows, writing
 * exactly struct_size bytes (at most the library's own struct) and setting problem->struct_size to
 * that. INVALID_POINTER for a NULL problem, INVALID_VALUE for a struct_size below version 0.1's
 * struct; nothing is written then. Use hipsoftmax_problem_init, which passes sizeof *problem.
 * Added in 0.2. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_problem_init_sized(hipsoftmax_problem *problem, size_t struct_size,
                                                               hipsoftmax_dtype dtype, int64_t rows, int64_t cols);

/* Version 0.1's entry point, kept for binaries built against 0.1: it fills only 0.1's fields (the
 * struct those binaries allocate). Does nothing when problem is NULL. Added in 0.1. */
HIPSOFTMAX_API void hipsoftmax_problem_init(hipsoftmax_problem *problem, hipsoftmax_dtype dtype, int64_t rows,
                                            int64_t cols);
/* Code compiled against this header calls the sized version with its own struct's size. */
#define hipsoftmax_problem_init(problem, dtype, rows, cols)                                           \
    ((void)hipsoftmax_problem_init_sized((problem), sizeof *(problem), (dtype), (rows), (cols)))

/* CHANNEL mode (0.2): a tensor [rows = outer][cols = C][inner] with the softmax over C of every
 * (outer, inner) column, as torch.softmax(x, dim=1) of NCHW (inner = H * W). Element (r, c, i) lies at
 * r * row_stride + c * inner + i: inner contiguous, C's stride exactly inner; the slices of outer may
 * be padded (x_row_stride, y_row_stride, dy_row_stride >= cols * inner, each tensor its own); no other
 * stride is allowed. Softmax and log-softmax, forward and backward, every dtype and dtype pair, scale,
 * alpha/beta, safe rows (a column of only -inf) and in place (same pointer, stride and dtype) work as
 * in ROW mode, over columns instead of rows. Masks are refused (INVALID_VALUE: attention masks are
 * row-major). Statistics (stats, stats_in, hipsoftmax_forward_stats/backward_stats) over inner > 1
 * return NOT_SUPPORTED; inner = 1 is a ROW problem with rows = outer, cols = C, and takes everything
 * ROW mode does. Columns of any C: C too long for registers is read twice. */

/* Sharded rows: when each of P devices holds a slice of every row's columns (a vocabulary split over
 * GPUs), a softmax over the whole rows takes two passes over the logits and one small collective:
 *   1. each device: hipsoftmax_forward_stats over its slice (problem->stats: {max, lse, sum, 0} a row);
 *   2. an all-gather of the P stats buffers (HIPSOFTMAX_STATS_FLOATS * rows floats each; NCCL or RCCL,
 *      by the caller);
 *   3. each device: hipsoftmax_forward with stats_in = the gathered buffer, stats_in_shards = P: the
 *      kernel combines the P records of a row from their max and sum (max M = max_p max_p, sum S =
 *      sum_p sum_p exp(max_p - M): exact where lse would lose log(sum) below the max's last bit) and
 *      writes its slice of exp(z - M) / S (log-softmax: z - M - log S).
 * The backward likewise: hipsoftmax_backward_stats ({sum, 0, 0, 0} a row of the slice), an
 * all-gather, hipsoftmax_backward with stats_in (the P sums added). Masks, scale and dtypes as in the
 * forward; the record of an empty slice (every column masked) is {-inf, -inf, 0, 0} and adds nothing.
 * examples/sharded_softmax.c does this with NCCL/RCCL. */

/* Forward: y = alpha * softmax(z) + beta * y (log-softmax with HIPSOFTMAX_ALGO_LOG_SOFTMAX) over each
 * row, enqueued on the handle's stream; returns before the GPU finishes.
 *   x, y: device pointers; y == x with the same layout (stride, dtype) is an in-place softmax.
 *   problem->stats, when set, receives each row's {max, lse, sum, 0} of z.
 * Checked, in this order (the first failure is returned; nothing is launched or written):
 *   handle (INVALID_HANDLE); problem pointer (INVALID_POINTER); struct_size below 0.1's struct or
 *   above 4096 (INVALID_VALUE); nonzero fields this version does not know (NOT_SUPPORTED);
 *   rows, cols > 0, CHANNEL inner > 0 (INVALID_SIZE); x, y non-NULL (INVALID_POINTER); row strides
 *   (INVALID_STRIDE); dtypes (INVALID_VALUE); the byte extent of every tensor fits in 63 bits
 *   (INVALID_SIZE); enum values, flags, scale (finite, > 0), alpha and beta (finite), inner == 1 in
 *   ROW mode, and option combinations that make no sense (INVALID_VALUE: a mask in CHANNEL mode,
 *   heads or queries < 0); the mask tensor: mask_ptr (INVALID_POINTER), mask_dtype (INVALID_VALUE),
 *   its strides (INVALID_STRIDE), mask_batches / mask_rows too few for the rows that read them or the
 *   extent overflowing (INVALID_SIZE); options this version lacks (NOT_SUPPORTED); every pointer
 *   aligned to its element size, stats and stats_in to 16 bytes (MISALIGNED); a range that wraps the
 *   address space (INVALID_POINTER); the output overlapping an input other than exactly in place, or
 *   the stats overlapping any tensor, or stats_in overlapping an output (OVERLAP: conservative, so rows of y interleaved between rows of x
 *   without touching them are reported too); then the device (NO_DEVICE).
 * Numerics: fp32 arithmetic for every dtype; a row of only -inf (or only masked columns) gives NaN
 * as torch.softmax does, or zeros (log-softmax: -inf) with HIPSOFTMAX_FLAG_SAFE_ROWS; a NaN or +inf
 * in a row gives NaN for the row. Results do not vary between runs. Added in 0.1; every option in 0.2. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_forward(hipsoftmax_handle handle, const hipsoftmax_problem *problem,
                                                    const void *x, void *y);

/* Backward, one kernel per call: dx = alpha * g + beta * dx, where g is the gradient of the forward's
 * loss with respect to x:
 *   softmax:     g = scale * y * (dy - sum(dy * y)),
 *   log-softmax: g = scale * (dy - exp(y) * sum(dy)),
 * sums over each row. y (y_dtype, y_row_stride), dy (dy_dtype, dy_row_stride), dx (x_dtype,
 * x_row_stride): dx has x's layout, dy has y's unless set. dx == dy or dx == y with the same layout is
 * in place. The mask fields are not read (y already holds the mask), stats must be NULL; stats_in,
 * when set, gives each row's sum (hipsoftmax_backward_stats of each shard). Checked
 * like hipsoftmax_forward, with y and dy as inputs and dx as the output, every pointer checked
 * before any stride. Rows too long for the GPU to hold read each tensor at most twice.
 * Added in 0.1 (validation only); computes from 0.2. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_backward(hipsoftmax_handle handle, const hipsoftmax_problem *problem,
                                                     const void *y, const void *dy, void *dx);

/* The forward's statistics alone: problem->stats (required) receives each row's {max, lse, sum, 0}; no
 * output is written. Validated as hipsoftmax_forward without y (stats_in must be NULL). Added in 0.2. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_forward_stats(hipsoftmax_handle handle, const hipsoftmax_problem *problem,
                                                          const void *x);

/* The backward's statistics alone: problem->stats (required) receives each row's {sum, 0, 0, 0}, the sum
 * hipsoftmax_backward subtracts (of dy * y, or of dy for log-softmax); no dx is written. Validated
 * as hipsoftmax_backward without dx. Added in 0.2. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_backward_stats(hipsoftmax_handle handle, const hipsoftmax_problem *problem,
                                                           const void *y, const void *dy);

/* Shorthand for hipsoftmax_forward over a rows x cols matrix of dtype with the given row strides
 * (elements). Added in 0.1. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_softmax(hipsoftmax_handle handle, hipsoftmax_dtype dtype, int64_t rows,
                                                    int64_t cols, const void *x, int64_t x_row_stride, void *y,
                                                    int64_t y_row_stride);

#ifdef __cplusplus
}
#endif
#endif /* HIPSOFTMAX_H_3F90B1 */

/* ================================================================================================
 * Experimental API: may change or vanish in any release. Define HIPSOFTMAX_EXPERIMENTAL before
 * including this header to see it. 0.2 changed it incompatibly: hipsoftmax_plan_info and
 * hipsoftmax_kernel_info begin with struct_size now, so a program built against 0.1's experimental
 * part must be rebuilt (0.1's own bench gets no plan from 0.2). The stable API above is compatible:
 * 0.1 binaries run on 0.2 unchanged (bench/ab_stable.c, built against 0.1's header, runs both).
 * ================================================================================================ */
#if defined(HIPSOFTMAX_EXPERIMENTAL) && !defined(HIPSOFTMAX_H_EXPERIMENTAL_8D2A64)
#define HIPSOFTMAX_H_EXPERIMENTAL_8D2A64

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hipsoftmax_family {
    HIPSOFTMAX_FAMILY_AUTO = 0,   /**< let the plan choose (default) */
    HIPSOFTMAX_FAMILY_WARP = 1,   /**< several rows per warp, rows in registers */
    HIPSOFTMAX_FAMILY_ROW = 2,    /**< persistent block per row, row in registers */
    HIPSOFTMAX_FAMILY_ONLINE = 3, /**< block per row, two passes over DRAM */
    HIPSOFTMAX_FAMILY_SPLIT = 4,  /**< co-resident blocks share a row (cooperative launch) */
    HIPSOFTMAX_FAMILY_CHANNEL = 5 /**< CHANNEL mode: a thread per (outer, inner) column (0.2); forced on a ROW
                                       problem it runs it as inner = 1 */
} hipsoftmax_family;

/* Forces a kernel family for later calls on this handle (AUTO restores the plan's choice). A forced
 * family that cannot run a problem (row longer than it can hold) makes that call return
 * NOT_SUPPORTED. For tests and benchmarks. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_set_family(hipsoftmax_handle handle, hipsoftmax_family family);

/* Makes later plans on this handle use only the kernel of this name (its family's geometry rules
 * still apply; a problem it cannot serve returns NOT_SUPPORTED). NULL restores the plan's choice.
 * INVALID_VALUE for a name the library does not have. For tuning and tests. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_set_kernel(hipsoftmax_handle handle, const char *name);

/* What the plan chose for a problem, and why: the plan for distinct buffers aligned as hipMalloc /
 * cudaMalloc give them (a call with other pointers may plan differently: unaligned rows take the
 * scalar kernels, and rows that start off a 128-byte line leave room to be laid out from it). */
typedef struct hipsoftmax_plan_info {
    size_t struct_size;           /* set by the caller: sizeof(hipsoftmax_plan_info); the library writes no more */
    hipsoftmax_family family;
    char kernel[64];              /* the kernel's symbol name */
    int block;                    /* threads per block */
    int grid;                     /* blocks launched */
    int blocks_per_row;           /* SPLIT: blocks sharing one row, else 1 */
    int group_width;              /* WARP: lanes per row, else 0 */
    int blocks_per_cu;            /* resident blocks per CU/SM by the exact occupancy model */
    int regs;                     /* registers per thread the plan used (VGPRs on AMD) */
    int static_smem;              /* static LDS/shared memory per block, bytes */
    int metadata_from_code_object;/* 1: regs and LDS read from the library's code object; 0: from the runtime */
    int dynamic_smem;             /* dynamic LDS/shared memory per block the launch asks for, bytes */
    int num_cus;                  /* CUs/SMs of the device the plan is for */
} hipsoftmax_plan_info;

/* The plan of a forward problem (hipsoftmax_get_backward_plan: of a backward one). info->struct_size
 * must be set (INVALID_VALUE when it is below the first fields' size or above 4096); the library
 * writes at most that many bytes, zeroing what it does not know. Validates the problem as
 * hipsoftmax_forward does, without the pointer checks. Not thread-safe: fills the handle's plan cache. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_get_plan(hipsoftmax_handle handle, const hipsoftmax_problem *problem,
                                                     hipsoftmax_plan_info *info);
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_get_backward_plan(hipsoftmax_handle handle,
                                                              const hipsoftmax_problem *problem,
                                                              hipsoftmax_plan_info *info);
/* The plan of hipsoftmax_forward_stats (backward = 0) or hipsoftmax_backward_stats (backward = 1), which
 * may differ from the full call's: it reads each row once. problem->stats must be set, as for the call
 * (to any address: no pointer is read or checked). INVALID_VALUE for another `backward`. Added in 0.2. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_get_stats_plan(hipsoftmax_handle handle, const hipsoftmax_problem *problem,
                                                           int backward, hipsoftmax_plan_info *info);

/* The library's kernels as the handle knows them: count, and per index the name, the host function
 * handle (for the vendor runtime's attribute queries), the resources the plan uses, and the block
 * sizes the plan may launch it with: min_block, min_block + block_step, ..., max_block. */
typedef struct hipsoftmax_kernel_info {
    size_t struct_size;           /* set by the caller: sizeof(hipsoftmax_kernel_info); the library writes no more */
    char name[64];
    const void *function;
    hipsoftmax_family family;
    int regs;
    int static_smem;
    int metadata_from_code_object;
    int min_block, max_block, block_step;
} hipsoftmax_kernel_info;

/* info->struct_size must be set, as for hipsoftmax_get_plan. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_kernel_count(hipsoftmax_handle handle, size_t *count);
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_get_kernel_info(hipsoftmax_handle handle, size_t index,
                                                            hipsoftmax_kernel_info *info);

/* Resident blocks per CU/SM of kernel `index` at `block` threads (no dynamic shared memory), by the
 * exact occupancy model the plan uses. NOT_SUPPORTED when the handle has no metadata for it. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_kernel_occupancy(hipsoftmax_handle handle, size_t index, int block,
                                                             int *blocks_per_cu);

#ifdef __cplusplus
}
#endif
#endif /* HIPSOFTMAX_EXPERIMENTAL */
