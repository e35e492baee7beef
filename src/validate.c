/* validate.c: the argument checks of every softmax entry point, in the order the public header
 * documents. Only the problem and the pointers' values are read: no tensor memory is touched. */
#include <math.h>
#include <stdint.h>

#include "internal.h"

size_t hsm_dtype_size(hipsoftmax_dtype d)
{
    switch (d) {
    case HIPSOFTMAX_DTYPE_F32: return 4;
    case HIPSOFTMAX_DTYPE_F16: return 2;
    case HIPSOFTMAX_DTYPE_BF16: return 2;
    }
    return 0;
}

hsm_dtype hsm_dtype_of(hipsoftmax_dtype d)
{
    return d == HIPSOFTMAX_DTYPE_F16 ? HSM_F16 : d == HIPSOFTMAX_DTYPE_BF16 ? HSM_BF16 : HSM_F32;
}

static int in_range(int v, int lo, int hi) { return v >= lo && v <= hi; }
static int dtype_ok(hipsoftmax_dtype d) { return in_range((int)d, HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_BF16); }

/* a * b + c in int64_t, or -1 when it does not fit. Preconditions: a, b, c >= 0. */
static int64_t mul_add(int64_t a, int64_t b, int64_t c)
{
    if (b != 0 && a > (INT64_MAX - c) / b)
        return -1;
    return a * b + c;
}

/* Bytes from the first element of `rows` rows of `span` elements, `stride` apart, to one past the
 * last, or -1 when that does not fit in int64_t. Preconditions: rows, span > 0, stride >= 0. */
static int64_t extent_bytes(int64_t rows, int64_t span, int64_t stride, size_t esize)
{
    const int64_t elems = mul_add(rows - 1, stride, span);
    return elems < 0 ? -1 : mul_add(elems, (int64_t)esize, 0);
}

/* A tensor of the call, as the overlap and alignment checks see it. */
typedef struct tensor {
    uintptr_t at;
    int64_t bytes;      /* extent */
    size_t align;       /* required alignment, bytes */
    int64_t stride;     /* elements between rows (0: not a row-major tensor) */
    size_t esize;
} tensor;

static int disjoint(const tensor *a, const tensor *b)
{
    return a->at >= b->at + (uintptr_t)b->bytes || b->at >= a->at + (uintptr_t)a->bytes;
}

/* An output against an input: disjoint, or (where allowed) the same memory with the same layout. */
static int output_ok(const tensor *out, const tensor *in, int in_place_allowed)
{
    if (out->at == in->at && in_place_allowed)
        return out->stride == in->stride && out->esize == in->esize && out->bytes == in->bytes;
    return disjoint(out, in);
}

/* Checks, in order (the first failure is returned; the header's list):
 *  - the problem struct (hsm_problem_read);
 *  - rows, cols > 0; CHANNEL: inner > 0 and cols * inner in range (INVALID_SIZE);
 *  - the tensors' pointers non-NULL (INVALID_POINTER), when ptrs is given;
 *  - their row strides at least a row (INVALID_STRIDE);
 *  - their dtypes (INVALID_VALUE);
 *  - their byte extents fit in int64_t (INVALID_SIZE);
 *  - enum values, flags, scale, alpha, beta, inner == 1 in ROW mode, heads and queries >= 0 and
 *    option combinations that make no sense (INVALID_VALUE; heads * queries overflowing: INVALID_SIZE);
 *  - forward with a mask tensor: its pointer (INVALID_POINTER, when ptrs is given), dtype
 *    (INVALID_VALUE), strides (INVALID_STRIDE), batches, rows and extent (INVALID_SIZE);
 *  - options this version lacks (NOT_SUPPORTED);
 *  - when ptrs is given: alignment (MISALIGNED), ranges that wrap the address space
 *    (INVALID_POINTER), overlap (OVERLAP).
 *  - statistics in and out: records within range (INVALID_SIZE), shards' records apart and the stride a
 *    whole record (INVALID_STRIDE), 16-byte aligned (MISALIGNED), not overlapping an output (OVERLAP); the statistics-only calls need
 *    stats (INVALID_POINTER).
 * ptrs: forward {x, y}, backward {y, dy, dx}, statistics alone {x} / {y, dy}; NULL for a plan without
 * pointers (hipsoftmax_get_plan).
 * Fills *call and returns HSM_CONTINUE when the call should go on. */
hipsoftmax_status hsm_validate(const hipsoftmax_problem *user, hsm_op op, const void *const *ptrs, hsm_call *call)
{
    const hipsoftmax_status r = hsm_problem_read(user, &call->p);
    if (r != HSM_CONTINUE)
        return r;
    const hipsoftmax_problem *p = &call->p;
    const int bwd = hsm_op_is_backward(op), stats_only = hsm_op_stats_only(op);
    call->op = op;

    HSM_RETURN_IF(p->rows <= 0 || p->cols <= 0, HIPSOFTMAX_STATUS_INVALID_SIZE);
    const int channel = p->mode == HIPSOFTMAX_MODE_CHANNEL;
    HSM_RETURN_IF(channel && p->inner <= 0, HIPSOFTMAX_STATUS_INVALID_SIZE);
    const int64_t span = channel ? mul_add(p->cols, p->inner, 0) : p->cols;
    HSM_RETURN_IF(span < 0, HIPSOFTMAX_STATUS_INVALID_SIZE);

    /* The row-major tensors: forward x (in), y (out); backward y, dy (in), dx (out, x's layout); the
     * statistics alone have no output tensor. */
    const int n = (bwd ? 2 : 1) + (stats_only ? 0 : 1);
    const int64_t strides[3] = {bwd ? p->y_row_stride : p->x_row_stride, bwd ? p->dy_row_stride : p->y_row_stride,
                                p->x_row_stride};
    const hipsoftmax_dtype dts[3] = {bwd ? p->y_dtype : p->x_dtype, bwd ? p->dy_dtype : p->y_dtype, p->x_dtype};
    /* (Forward: x, y; backward: y, dy, dx; indices past n are unused.) */
    if (ptrs != NULL)
        for (int i = 0; i < n; i++)
            HSM_RETURN_IF(ptrs[i] == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    for (int i = 0; i < n; i++)
        HSM_RETURN_IF(strides[i] < span, HIPSOFTMAX_STATUS_INVALID_STRIDE);
    for (int i = 0; i < n; i++)
        HSM_RETURN_IF(!dtype_ok(dts[i]), HIPSOFTMAX_STATUS_INVALID_VALUE);
    tensor t[3];
    for (int i = 0; i < n; i++) {
        t[i].esize = hsm_dtype_size(dts[i]);
        t[i].bytes = extent_bytes(p->rows, span, strides[i], t[i].esize);
        t[i].stride = strides[i];
        t[i].align = t[i].esize;
        t[i].at = ptrs != NULL ? (uintptr_t)ptrs[i] : 0;
        HSM_RETURN_IF(t[i].bytes < 0, HIPSOFTMAX_STATUS_INVALID_SIZE);
    }

    HSM_RETURN_IF(!in_range((int)p->algorithm, HIPSOFTMAX_ALGO_SOFTMAX, HIPSOFTMAX_ALGO_LOG_SOFTMAX) ||
                      !in_range((int)p->mode, HIPSOFTMAX_MODE_ROW, HIPSOFTMAX_MODE_CHANNEL) ||
                      (!bwd && !in_range((int)p->mask, HIPSOFTMAX_MASK_NONE, HIPSOFTMAX_MASK_BOOL)),
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF(!channel && p->inner != 1, HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF((p->flags & ~HIPSOFTMAX_FLAG_SAFE_ROWS) != 0, HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF(!isfinite(p->scale) || !(p->scale > 0.0f) || !isfinite(p->alpha) || !isfinite(p->beta),
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF(p->heads < 0 || p->queries < 0, HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF(mul_add(p->heads, p->queries, 0) < 0, HIPSOFTMAX_STATUS_INVALID_SIZE);
    const int masked = !bwd && p->mask != HIPSOFTMAX_MASK_NONE;
    const int tensor_mask = !bwd && (p->mask == HIPSOFTMAX_MASK_ADDITIVE || p->mask == HIPSOFTMAX_MASK_BOOL);
    /* Combinations that make no sense: a mask over channels (attention masks are row-major);
     * statistics out of a backward that writes dx (it has no max or normaliser to give); statistics
     * in and out at once, or in where only statistics are computed; a negative shard count or stride. */
    HSM_RETURN_IF((masked && channel) || (op == HSM_OP_BACKWARD && p->stats != NULL) ||
                      (p->stats_in != NULL && (p->stats != NULL || stats_only)) || p->stats_in_shards < 0 ||
                      p->stats_in_shard_stride < 0,
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF(stats_only && p->stats == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);

    tensor mask = {0, 0, 1, 0, 1};
    if (tensor_mask) {
        HSM_RETURN_IF(ptrs != NULL && p->mask_ptr == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
        HSM_RETURN_IF(p->mask == HIPSOFTMAX_MASK_ADDITIVE && !dtype_ok(p->mask_dtype), HIPSOFTMAX_STATUS_INVALID_VALUE);
        HSM_RETURN_IF(p->mask_row_stride < 0 || p->mask_batch_stride < 0 ||
                          (p->mask_rows > 1 && p->mask_row_stride < p->cols),
                      HIPSOFTMAX_STATUS_INVALID_STRIDE);
        /* The rows read: batch indices up to (rows - 1) / (heads * queries), query indices up to
         * min(queries, rows) - 1; a dimension of 1 is shared. */
        const int64_t batches = (p->rows - 1) / (p->heads * p->queries) + 1;
        const int64_t qrows = p->queries < p->rows ? p->queries : p->rows;
        HSM_RETURN_IF(p->mask_batches < 0 || p->mask_rows < 0 || (p->mask_batches != 1 && p->mask_batches < batches) ||
                          (p->mask_rows != 1 && p->mask_rows < qrows),
                      HIPSOFTMAX_STATUS_INVALID_SIZE);
        mask.esize = p->mask == HIPSOFTMAX_MASK_BOOL ? 1 : hsm_dtype_size(p->mask_dtype);
        mask.align = mask.esize;
        const int64_t last_batch = p->mask_batches == 1 ? 0 : batches - 1;
        const int64_t last_row = p->mask_rows == 1 ? 0 : qrows - 1;
        const int64_t first_part = mul_add(last_batch, p->mask_batch_stride, 0);
        const int64_t elems = first_part < 0 ? -1 : mul_add(last_row, p->mask_row_stride, first_part);
        const int64_t read = elems < 0 ? -1 : mul_add(1, elems, p->cols); /* elements from mask_ptr read */
        mask.bytes = read < 0 ? -1 : mul_add(read, (int64_t)mask.esize, 0);
        HSM_RETURN_IF(elems < 0 || mask.bytes < 0, HIPSOFTMAX_STATUS_INVALID_SIZE);
        mask.at = (uintptr_t)p->mask_ptr;
    }
    /* Row statistics: a record of two floats per row (per row and inner column in CHANNEL mode); in,
     * stats_in_shards records per row, shard after shard. */
    const int64_t rf = HIPSOFTMAX_STATS_FLOATS; /* floats a record */
    const int64_t records = mul_add(p->rows, channel ? p->inner : 1, 0);
    HSM_RETURN_IF((p->stats != NULL || p->stats_in != NULL) && (records < 0 || mul_add(records, rf * 4, 0) < 0),
                  HIPSOFTMAX_STATUS_INVALID_SIZE);
    tensor stats = {(uintptr_t)p->stats, 0, (size_t)rf * 4, 0, (size_t)rf * 4};
    if (p->stats != NULL)
        stats.bytes = records * rf * 4;
    tensor stats_in = {(uintptr_t)p->stats_in, 0, (size_t)rf * 4, 0, (size_t)rf * 4};
    if (p->stats_in != NULL) {
        const int64_t shards = p->stats_in_shards > 0 ? p->stats_in_shards : 1;
        const int64_t stride = p->stats_in_shard_stride > 0 ? p->stats_in_shard_stride : rf * records;
        /* Records of one shard apart from the next shard's, each aligned as a record. */
        HSM_RETURN_IF((shards > 1 && stride < rf * records) || stride % rf != 0, HIPSOFTMAX_STATUS_INVALID_STRIDE);
        const int64_t floats = mul_add(shards - 1, stride, rf * records);
        stats_in.bytes = floats < 0 ? -1 : mul_add(floats, 4, 0);
        HSM_RETURN_IF(stats_in.bytes < 0, HIPSOFTMAX_STATUS_INVALID_SIZE);
    }

    /* CHANNEL over inner > 1 has no statistics (inner 1 is a ROW problem, records and all). */
    HSM_RETURN_IF(channel && p->inner > 1 && (p->stats != NULL || p->stats_in != NULL), HIPSOFTMAX_STATUS_NOT_SUPPORTED);

    call->in0 = ptrs != NULL ? ptrs[0] : NULL;
    call->in1 = ptrs != NULL && bwd ? ptrs[1] : NULL;
    call->out = ptrs != NULL && !stats_only ? (void *)(uintptr_t)ptrs[n - 1] : NULL;
    if (ptrs == NULL)
        return HSM_CONTINUE;

    for (int i = 0; i < n; i++)
        HSM_RETURN_IF(t[i].at % t[i].align != 0, HIPSOFTMAX_STATUS_MISALIGNED);
    HSM_RETURN_IF(tensor_mask && mask.at % mask.align != 0, HIPSOFTMAX_STATUS_MISALIGNED);
    HSM_RETURN_IF(stats.at % stats.align != 0 || stats_in.at % stats_in.align != 0, HIPSOFTMAX_STATUS_MISALIGNED);
    /* A range that wraps the address space cannot be real memory. */
    for (int i = 0; i < n; i++)
        HSM_RETURN_IF(t[i].at > UINTPTR_MAX - (uintptr_t)t[i].bytes, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF(tensor_mask && mask.at > UINTPTR_MAX - (uintptr_t)mask.bytes, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF(stats.at > UINTPTR_MAX - (uintptr_t)stats.bytes || stats_in.at > UINTPTR_MAX - (uintptr_t)stats_in.bytes,
                  HIPSOFTMAX_STATUS_INVALID_POINTER);

    if (!stats_only) {
        const tensor *out = &t[n - 1];
        for (int i = 0; i < n - 1; i++)
            HSM_RETURN_IF(!output_ok(out, &t[i], 1), HIPSOFTMAX_STATUS_OVERLAP);
        HSM_RETURN_IF(tensor_mask && !disjoint(out, &mask), HIPSOFTMAX_STATUS_OVERLAP);
        HSM_RETURN_IF(p->stats_in != NULL && !disjoint(out, &stats_in), HIPSOFTMAX_STATUS_OVERLAP);
    }
    if (p->stats != NULL) {
        for (int i = 0; i < n; i++)
            HSM_RETURN_IF(!disjoint(&stats, &t[i]), HIPSOFTMAX_STATUS_OVERLAP);
        HSM_RETURN_IF(tensor_mask && !disjoint(&stats, &mask), HIPSOFTMAX_STATUS_OVERLAP);
    }
    return HSM_CONTINUE;
}
