/* hipsoftmax.h: fused softmax on AMD CDNA and NVIDIA GPUs, one C API for both.
 *
 * Usage: create a handle bound to a GPU, attach your stream, describe the problem, call
 * hipsoftmax_forward. Every call validates its arguments and returns a hipsoftmax_status; nothing
 * aborts, prints, allocates or synchronises on the call path. C11 and C++ clean; needs no GPU SDK.
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
#define HIPSOFTMAX_VERSION_MINOR 1
#define HIPSOFTMAX_VERSION_PATCH 0
#define HIPSOFTMAX_VERSION_NUMBER                                                                     \
    (HIPSOFTMAX_VERSION_MAJOR * 10000 + HIPSOFTMAX_VERSION_MINOR * 100 + HIPSOFTMAX_VERSION_PATCH)
#define HIPSOFTMAX_VERSION_STRING "0.1.0"

/* The library's HIPSOFTMAX_VERSION_NUMBER, to compare with the header's. Added in 0.1. */
HIPSOFTMAX_API unsigned hipsoftmax_version_number(void);
/* The library's version as "MAJOR.MINOR.PATCH"; static, never NULL. Added in 0.1. */
HIPSOFTMAX_API const char *hipsoftmax_version_string(void);

/* ---- types ------------------------------------------------------------------------------------- */

/* A handle: one GPU, its cached properties, kernel metadata and plans, one stream, a small workspace.
 * Not thread-safe: use one handle per host thread, or serialise calls on it. Work enqueued with one
 * handle must not run concurrently on two streams (the long-row kernels share the handle's
 * workspace): use one handle per stream that runs concurrently. */
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
    HIPSOFTMAX_ALGO_SOFTMAX = 200,     /**< y = exp(x - max) / sum(exp(x - max)) */
    HIPSOFTMAX_ALGO_LOG_SOFTMAX = 201  /**< y = x - max - log(sum(exp(x - max))); not supported in 0.1 */
} hipsoftmax_algorithm;

typedef enum hipsoftmax_mode {
    HIPSOFTMAX_MODE_ROW = 250,     /**< softmax over the last dimension of a rows x cols matrix */
    HIPSOFTMAX_MODE_CHANNEL = 251  /**< over a non-last dimension (NCHW channels); not supported in 0.1 */
} hipsoftmax_mode;

typedef enum hipsoftmax_mask {
    HIPSOFTMAX_MASK_NONE = 300,     /**< no mask */
    HIPSOFTMAX_MASK_ADDITIVE = 301, /**< a rows x cols tensor added to x before softmax; not supported in 0.1 */
    HIPSOFTMAX_MASK_CAUSAL = 302    /**< column j > row i (+ offset) is -inf; not supported in 0.1 */
} hipsoftmax_mask;

/* The problem: what to compute and the layout of each tensor. Fill it with hipsoftmax_problem_init,
 * then change fields. New fields are only ever appended; struct_size tells the library which ones a
 * caller compiled against, so old binaries keep working. Sizes and strides count elements, not bytes. */
typedef struct hipsoftmax_problem {
    size_t struct_size;              /* sizeof(hipsoftmax_problem); set by hipsoftmax_problem_init */
    hipsoftmax_algorithm algorithm;  /* default HIPSOFTMAX_ALGO_SOFTMAX */
    hipsoftmax_mode mode;            /* default HIPSOFTMAX_MODE_ROW */
    hipsoftmax_dtype x_dtype;        /* input element type */
    hipsoftmax_dtype y_dtype;        /* output element type; must equal x_dtype in 0.1 */
    int64_t rows;                    /* > 0 */
    int64_t cols;                    /* > 0: the softmax runs over each row's cols elements */
    int64_t x_row_stride;            /* elements between row starts of x, >= cols; default cols */
    int64_t y_row_stride;            /* elements between row starts of y, >= cols; default cols */
    int64_t inner;                   /* CHANNEL mode: elements after the softmax dimension; 1 in ROW mode */
    float scale;                     /* x is multiplied by scale before softmax; default 1; only 1 in 0.1 */
    float alpha, beta;               /* y = alpha * softmax + beta * y; default 1, 0; only 1, 0 in 0.1 */
    hipsoftmax_mask mask;            /* default HIPSOFTMAX_MASK_NONE */
    hipsoftmax_dtype mask_dtype;     /* ADDITIVE: the mask's element type */
    const void *mask_ptr;            /* ADDITIVE: device pointer */
    int64_t mask_row_stride;         /* ADDITIVE: elements between mask rows */
    int64_t causal_offset;           /* CAUSAL: column j is masked when j > row + causal_offset */
} hipsoftmax_problem;

/* ---- handle ------------------------------------------------------------------------------------ */

/* Creates a handle on the calling thread's current GPU. Reads the device's properties and the
 * library's own kernel metadata, and allocates a small device workspace (zeroed once, here).
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

/* Fills *problem with the defaults above for a rows x cols problem in dtype with dense rows.
 * Does nothing when problem is NULL. Added in 0.1. */
HIPSOFTMAX_API void hipsoftmax_problem_init(hipsoftmax_problem *problem, hipsoftmax_dtype dtype, int64_t rows,
                                            int64_t cols);

/* y = softmax(x) over each row, enqueued on the handle's stream; returns before the GPU finishes.
 *   x, y: device pointers; y == x with equal strides and dtypes is an in-place softmax.
 * Checked, in this order (the first failure is returned; nothing is launched or written):
 *   handle (INVALID_HANDLE); problem pointer and struct_size (INVALID_POINTER, INVALID_VALUE);
 *   rows, cols > 0 (INVALID_SIZE); x, y non-NULL (INVALID_POINTER); strides >= cols
 *   (INVALID_STRIDE); dtypes (INVALID_VALUE); the byte extent of x and y fits in 63 bits
 *   (INVALID_SIZE); the other enum values (INVALID_VALUE); options this version lacks
 *   (NOT_SUPPORTED); x and y aligned to their element size (MISALIGNED); x and y either the same
 *   memory with the same layout or disjoint (OVERLAP); then the device (NO_DEVICE).
 * Numerics: fp32 arithmetic for every dtype; a row of only -inf gives NaN (as torch.softmax); a NaN
 * or +inf in a row gives NaN for the row. Results do not vary between runs.
 * Added in 0.1. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_forward(hipsoftmax_handle handle, const hipsoftmax_problem *problem,
                                                    const void *x, void *y);

/* dx = y * (dy - sum(dy * y)) over each row. Validates like hipsoftmax_forward (with dy checked
 * like x, and dx like y), then returns NOT_SUPPORTED in 0.1. Added in 0.1. */
HIPSOFTMAX_API hipsoftmax_status hipsoftmax_backward(hipsoftmax_handle handle, const hipsoftmax_problem *problem,
                                                     const void *y, const void *dy, void *dx);

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
 * including this header to see it.
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
    HIPSOFTMAX_FAMILY_SPLIT = 4   /**< co-resident blocks share a row (cooperative launch) */
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

HIPSOFTMAX_API hipsoftmax_status hipsoftmax_get_plan(hipsoftmax_handle handle, const hipsoftmax_problem *problem,
                                                     hipsoftmax_plan_info *info);

/* The library's kernels as the handle knows them: count, and per index the name, the host function
 * handle (for the vendor runtime's attribute queries), the resources the plan uses, and the block
 * sizes the plan may launch it with: min_block, min_block + block_step, ..., max_block. */
typedef struct hipsoftmax_kernel_info {
    char name[64];
    const void *function;
    hipsoftmax_family family;
    int regs;
    int static_smem;
    int metadata_from_code_object;
    int min_block, max_block, block_step;
} hipsoftmax_kernel_info;

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
