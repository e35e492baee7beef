/* internal.h: the handle and the library's internal helpers. Private to hipsoftmax, do not expose.
 * Everything here is vendor-neutral C: vendor runtime calls live in device.c, behind hsm_vendor.h. */
#ifndef HSM_INTERNAL_H_C41F08
#define HSM_INTERNAL_H_C41F08

#define HIPSOFTMAX_EXPERIMENTAL
#include "hipsoftmax/hipsoftmax.h"
#include "arch.h"
#include "hsm_kernels.h"

/* ---- error travel: two macros only -------------------------------------------------- */
#ifdef HSM_DEBUG_LOG
#  include <stdio.h>
#  define HSM_LOG_FAIL(st, expr) \
      fprintf(stderr, "hipsoftmax: %s:%d: %s -> %s\n", __FILE__, __LINE__, expr, hipsoftmax_status_string(st))
#else
#  define HSM_LOG_FAIL(st, expr) ((void)0)
#endif
/* Return status `st` when `cond` holds. */
#define HSM_RETURN_IF(cond, st)                                                                       \
    do {                                                                                              \
        if (cond) {                                                                                   \
            HSM_LOG_FAIL(st, #cond);                                                                  \
            return (st);                                                                              \
        }                                                                                             \
    } while (0)
/* Forward the status of `call` unless it is SUCCESS. */
#define HSM_FORWARD_IF_ERROR(call)                                                                    \
    do {                                                                                              \
        const hipsoftmax_status hsm_st_ = (call);                                                     \
        if (hsm_st_ != HIPSOFTMAX_STATUS_SUCCESS) {                                                   \
            HSM_LOG_FAIL(hsm_st_, #call);                                                             \
            return hsm_st_;                                                                           \
        }                                                                                             \
    } while (0)

/* Internal "go on" value of validation helpers: never returned to callers. */
#define HSM_CONTINUE ((hipsoftmax_status)-1)

/* The largest struct_size any versioned struct may declare: far above every version's, small enough
 * that reading that many bytes of a caller's struct is safe to promise. */
#define HSM_MAX_STRUCT_SIZE 4096

/* ---- a validated call ------------------------------------------------------------------------------ */
/* The call: forward or backward, writing its output, or only the row statistics (sharded rows). */
typedef enum hsm_op {
    HSM_OP_FORWARD = 0,
    HSM_OP_BACKWARD = 1,
    HSM_OP_FORWARD_STATS = 2,
    HSM_OP_BACKWARD_STATS = 3
} hsm_op;
static inline int hsm_op_is_backward(hsm_op op) { return op == HSM_OP_BACKWARD || op == HSM_OP_BACKWARD_STATS; }
static inline int hsm_op_stats_only(hsm_op op) { return op == HSM_OP_FORWARD_STATS || op == HSM_OP_BACKWARD_STATS; }

typedef struct hsm_call {
    hipsoftmax_problem p;          /* the caller's problem, full struct of this version, defaults resolved */
    hsm_op op;
    const void *in0;               /* forward x, backward y (NULL when planning without pointers) */
    const void *in1;               /* backward dy */
    void *out;                     /* forward y, backward dx; NULL for the statistics alone */
} hsm_call;

/* ---- kernels as the handle knows them ------------------------------------------------------------ */
typedef struct hsm_kernel_state {
    const hsm_kernel *k;
    arch_kernel meta;              /* registers and LDS the plan uses */
    int have_meta;                 /* 0: no metadata for this target (offline handle, not built) */
    int meta_from_code_object;     /* 1: read from the library's own code object; 0: from the runtime */
} hsm_kernel_state;

/* ---- plans ------------------------------------------------------------------------------------- */
typedef struct hsm_plan {
    const hsm_kernel_state *ks;
    int grid, block, group_width, blocks_per_row;
    int cached_tiles;              /* ONLINE: row tiles kept in shared memory */
    int staged;                    /* SPLIT: accesses per thread of its chunk staged in shared memory */
    int channel_warps;             /* CHANNEL: warps sharing a tile of columns */
    int channel_lanes;             /* CHANNEL: lanes of a warp on different columns (of vec each) */
    int flat_rows;                 /* WARP's _flat kernels: rows a block stages at once */
    int ahead;                     /* ROW's plain forward: visits to the row prefetched (hsm_launch) */
    size_t smem_bytes;             /* dynamic shared memory per block */
} hsm_plan;

#define HSM_PLAN_CACHE 64
/* What a plan is for: the kernel op, x's (backward: y's) dtype, the access width, and what the
 * problem rules out. */
typedef struct hsm_req {
    hsm_kop kop;
    hsm_dtype dt;
    int vec;
    int no_raw;        /* a mask tensor: no kernel that holds 16-bit values as stored (it would have to
                          read the mask again) */
    int given;         /* row statistics given (stats_in): only kernels compiled to take them */
    int one_pass;      /* the statistics alone, or a call given them (stats_in): each row is read once,
                          nothing is read again (ONLINE keeps no tiles for a second pass) */
    int peel;          /* vec > 1 on rows off 16 bytes: only the peeled kernels (hsm_kernel.peel) */
    int flat;          /* the plain forward of dense rows: only WARP's staged kernels (hsm_kernel.flat) */
    int same_offset;   /* every x row lies at the same offset from 16 bytes as its y row (WARP's peeled
                          kernels need it; ROW's take either) */
    int log_shift;     /* the plain log-softmax with some x row at another offset from 16 bytes than its y
                          row (ROW's fp32 _stage_log kernels take those rows) */
    int causal;        /* a forward with a causal bound: about half of each row is read and exponentiated */
    int packed;        /* only the packed kernels (hsm_kernel.lanes: WARP's, ROW's backward), which the plan
                          tries on their own; a request without it never takes them (a forced kernel aside) */
    int64_t stage_es;  /* bytes of shared memory per column: SPLIT's, x's element or y and dy as fp32;
                          CHANNEL tiles', x's element, or y's and dy's */
    int64_t keep_es;   /* the row backward: bytes of shared memory per column of a tile ONLINE keeps, dy's
                          element and, for softmax, y's (log-softmax's first pass reads dy alone); else 0 */
    int64_t out_es;    /* the row backward: dx's element bytes; else 0 */
    int dy_as_y;       /* the row backward of 16-bit y with dy in y's dtype: ROW's vector kernels are the
                          ones that hold both as stored (hsm_kernel.dy_as_y), which take no other dy */
    int plain_bwd;     /* the backward with dy and dx in y's dtype, no alpha/beta and no statistics (scale
                          and log-softmax allowed): the only one WARP's packed backward kernels serve */
    int for_twin;      /* the plan of rows on 16 bytes that plan_peeled takes a peeled twin of: no rule
                          measured only on rows on 16 bytes (plan_auto's WARP rows past 512 columns) */
} hsm_req;

/* Everything a plan depends on besides the handle's device and kernels: the cache compares it whole
 * (built on zeroed memory, so its padding compares too). */
typedef struct hsm_plan_key {
    hsm_req q;
    int lead;                      /* room SPLIT leaves for rows off their line (plan.c) */
    int family;                    /* forced family at the time, or 0 */
    int64_t rows, cols, inner;     /* inner: CHANNEL's, 0 for a plan of the row families */
    int sub;                       /* WARP's _h or _q kernels tried first: their packs' bytes (plan.c) */
} hsm_plan_key;

typedef struct hsm_plan_entry {
    int valid;
    hsm_plan_key key;
    hipsoftmax_status status;
    hsm_plan plan;
} hsm_plan_entry;

struct hipsoftmax_context {
    int device;                    /* the runtime's device index; -1 for an offline handle */
    arch_device dev;               /* properties: from the runtime, or from the target table offline */
    char target[64];               /* full target name */
    int cooperative;               /* the device supports cooperative launches */
    hipsoftmax_stream stream;
    hipsoftmax_family forced;
    char forced_kernel[64];        /* non-empty: plans use only this kernel (tuning, tests) */
    void *workspace;               /* SPLIT's barrier words and tagged partials; zeroed at creation and
                                      when the tags wrap */
    int workspace_grid;            /* the largest grid the workspace serves */
    unsigned split_epoch;          /* the next SPLIT launch's first tag (hsm_device_launch); tags 0 are
                                      the zeroed workspace's, never a launch's */
    hsm_kernel_state *kernels;
    size_t n_kernels;
    hsm_plan_entry plans[HSM_PLAN_CACHE];
};

/* problem.c: reading a caller's versioned structs. hsm_problem_init: hipsoftmax_problem_init for the
 * library's own problems, which the log does not trace as a caller's call. */
void hsm_problem_init(hipsoftmax_problem *p, hipsoftmax_dtype dtype, int64_t rows, int64_t cols);
hipsoftmax_status hsm_problem_read(const hipsoftmax_problem *user, hipsoftmax_problem *out);
hipsoftmax_status hsm_struct_out(void *caller, size_t caller_size, const void *full, size_t full_size,
                                 size_t min_size);

/* validate.c: the argument checks of hipsoftmax_forward/backward, in the documented order. ptrs:
 * forward {x, y}, backward {y, dy, dx}, the statistics alone {x} or {y, dy}, or NULL to validate the
 * problem alone (plans). Returns
 * HSM_CONTINUE and fills *call when the call should go on, or the failing status. */
hipsoftmax_status hsm_validate(const hipsoftmax_problem *user, hsm_op op, const void *const *ptrs, hsm_call *call);
hsm_dtype hsm_dtype_of(hipsoftmax_dtype d);
size_t hsm_dtype_size(hipsoftmax_dtype d);

/* device.c: the vendor runtime, behind hsm_vendor.h. */
hipsoftmax_status hsm_device_open(struct hipsoftmax_context *h, int device);
void hsm_device_close(struct hipsoftmax_context *h);
hipsoftmax_status hsm_device_func_attributes(struct hipsoftmax_context *h, const void *func, int *regs,
                                             int *static_smem);
hipsoftmax_status hsm_device_allow_smem(struct hipsoftmax_context *h, const void *func, size_t bytes);
hipsoftmax_status hsm_device_launch(struct hipsoftmax_context *h, const hsm_plan *plan, const hsm_call *call);

/* kernels.c: the kernel table with metadata read from the library's own code objects. */
hipsoftmax_status hsm_kernels_load(struct hipsoftmax_context *h);
void hsm_kernels_free(struct hipsoftmax_context *h);

/* plan.c */
/* The plan of a validated call; call->in0/out NULL plans for 256-byte aligned, distinct buffers. */
hipsoftmax_status hsm_plan_get(struct hipsoftmax_context *h, const hsm_call *call, hsm_plan *out);

#endif /* HSM_INTERNAL_H_C41F08 */
