/* log.h: call logging switched on by the environment (HIPSOFTMAX_LOG, HIPSOFTMAX_LOG_PATH), as
 * rocBLAS does with ROCBLAS_LAYER. Private to hipsoftmax, do not expose.
 *
 * The variables are read once, on the first call that checks them. Until then the cached mask has
 * every bit set, so that first check takes the slow path (hsm_log_trace and friends), which reads
 * them under pthread_once and returns at once when logging is off. After that, a call with logging off
 * costs one relaxed load and one branch: HSM_LOG_ON. */
#ifndef HSM_LOG_H_5A7E21
#define HSM_LOG_H_5A7E21

#include <stdatomic.h>

#include "internal.h"

/* Bits of HIPSOFTMAX_LOG (README, "Logging"). */
#define HSM_LOG_TRACE 1 /* each public call: its arguments, every non-default descriptor field, its status */
#define HSM_LOG_BENCH 2 /* each forward/backward/statistics call as a hipsoftmax-bench command line */
#define HSM_LOG_PLAN 4  /* the plan of each such call: family, kernel, grid, block */
#define HSM_LOG_ALL (HSM_LOG_TRACE | HSM_LOG_BENCH | HSM_LOG_PLAN)

/* The cached HIPSOFTMAX_LOG bits; -1 (every bit) until the variables have been read. */
extern atomic_int hsm_log_mask_;
#define HSM_LOG_ON(bits) ((atomic_load_explicit(&hsm_log_mask_, memory_order_relaxed) & (bits)) != 0)

/* One trace line: "hipsoftmax trace: fn(args) = STATUS", args formatted as printf does.
 * Call it where HSM_LOG_ON(HSM_LOG_TRACE) holds. */
void hsm_log_trace(const char *fn, hipsoftmax_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The trace line of the calling public function, only where tracing is on. */
#define HSM_TRACE(status, ...)                                                                        \
    do {                                                                                              \
        if (HSM_LOG_ON(HSM_LOG_TRACE))                                                                \
            hsm_log_trace(__func__, (status), __VA_ARGS__);                                           \
    } while (0)

/* A dtype as traces name it ("f32", "f16", "bf16"), or its number written into buf. */
const char *hsm_log_dtype(hipsoftmax_dtype d, char buf[16]);

/* What a softmax call (or a plan query) was given and what became of it. */
typedef struct hsm_log_op {
    const char *fn;                      /* the public function's name */
    const hipsoftmax_problem *user;      /* as passed: may be NULL, its struct_size anything */
    hsm_op op;
    const void *const *ptrs;             /* hsm_validate's ptrs: NULL for a plan query */
    const void *info;                    /* plan queries: the caller's hipsoftmax_plan_info */
    const hsm_call *call;                /* the validated call, or NULL when validation failed */
    const hsm_plan *plan;                /* the call's plan, read only where plan_status is SUCCESS */
    hipsoftmax_status plan_status;       /* hsm_plan_get's status; HSM_CONTINUE where the call did not plan */
    hipsoftmax_status status;            /* what the call returns */
} hsm_log_op;

/* The lines of one softmax call or plan query for each bit set: trace, bench command, plan. h: as
 * passed to the public function, may be NULL. The plan of a validated call that did not plan (an
 * offline handle returns NO_DEVICE first) is made here, from the handle's plan cache, which is why h
 * is not const. Call it where HSM_LOG_ON(HSM_LOG_ALL). */
void hsm_log_op_lines(struct hipsoftmax_context *h, const hsm_log_op *op);

#endif /* HSM_LOG_H_5A7E21 */
