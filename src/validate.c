/* validate.c: argument checks shared by every softmax entry point. */
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

/* Bytes from the first element of a rows x cols matrix to one past its last, or -1 when that does
 * not fit in int64_t. Preconditions: rows, cols > 0, stride >= cols, esize in {2, 4}. */
static int64_t extent_bytes(int64_t rows, int64_t cols, int64_t stride, size_t esize)
{
    const int64_t max_elems = INT64_MAX / (int64_t)esize;
    if (cols > max_elems || rows - 1 > (max_elems - cols) / stride)
        return -1;
    return ((rows - 1) * stride + cols) * (int64_t)esize;
}

static int in_range(int v, int lo, int hi) { return v >= lo && v <= hi; }

/* Only the last fields a caller may lack matter: the problem must reach at least to causal_offset,
 * the last field of version 0.1. */
#define HSM_PROBLEM_MIN_SIZE (offsetof(hipsoftmax_problem, causal_offset) + sizeof(int64_t))

/* Checks, in order (the first failure is returned):
 *  - problem non-NULL (INVALID_POINTER) and struct_size at least version 0.1's (INVALID_VALUE);
 *  - rows > 0, cols > 0 (INVALID_SIZE);
 *  - x and y non-NULL (INVALID_POINTER);
 *  - row strides >= cols (INVALID_STRIDE);
 *  - the byte extent of x and of y fits in int64_t (INVALID_SIZE);
 *  - enum values in range, inner == 1 in ROW mode (INVALID_VALUE);
 *  - options 0.1 lacks (NOT_SUPPORTED);
 *  - x and y aligned to the element size (MISALIGNED);
 *  - x and y the same memory with the same layout, or disjoint (OVERLAP).
 * Returns HSM_CONTINUE when all hold. Reads only the problem; never touches x or y. */
hipsoftmax_status hsm_validate(const hipsoftmax_problem *p, const void *x, const void *y)
{
    HSM_RETURN_IF(p == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF(p->struct_size < HSM_PROBLEM_MIN_SIZE, HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF(p->rows <= 0 || p->cols <= 0, HIPSOFTMAX_STATUS_INVALID_SIZE);
    HSM_RETURN_IF(x == NULL || y == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF(p->x_row_stride < p->cols || p->y_row_stride < p->cols, HIPSOFTMAX_STATUS_INVALID_STRIDE);

    HSM_RETURN_IF(!in_range((int)p->x_dtype, HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_BF16) ||
                      !in_range((int)p->y_dtype, HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_BF16),
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    const size_t xes = hsm_dtype_size(p->x_dtype), yes = hsm_dtype_size(p->y_dtype);
    const int64_t xext = extent_bytes(p->rows, p->cols, p->x_row_stride, xes);
    const int64_t yext = extent_bytes(p->rows, p->cols, p->y_row_stride, yes);
    HSM_RETURN_IF(xext < 0 || yext < 0, HIPSOFTMAX_STATUS_INVALID_SIZE);

    HSM_RETURN_IF(!in_range((int)p->algorithm, HIPSOFTMAX_ALGO_SOFTMAX, HIPSOFTMAX_ALGO_LOG_SOFTMAX) ||
                      !in_range((int)p->mode, HIPSOFTMAX_MODE_ROW, HIPSOFTMAX_MODE_CHANNEL) ||
                      !in_range((int)p->mask, HIPSOFTMAX_MASK_NONE, HIPSOFTMAX_MASK_CAUSAL),
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF(p->mode == HIPSOFTMAX_MODE_ROW && p->inner != 1, HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF(p->mode == HIPSOFTMAX_MODE_CHANNEL && p->inner <= 0, HIPSOFTMAX_STATUS_INVALID_SIZE);
    HSM_RETURN_IF(p->mask == HIPSOFTMAX_MASK_ADDITIVE &&
                      !in_range((int)p->mask_dtype, HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_BF16),
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF(p->scale != p->scale || p->alpha != p->alpha || p->beta != p->beta, HIPSOFTMAX_STATUS_INVALID_VALUE);

    HSM_RETURN_IF(p->algorithm != HIPSOFTMAX_ALGO_SOFTMAX || p->mode != HIPSOFTMAX_MODE_ROW ||
                      p->mask != HIPSOFTMAX_MASK_NONE || p->y_dtype != p->x_dtype || p->scale != 1.0f ||
                      p->alpha != 1.0f || p->beta != 0.0f,
                  HIPSOFTMAX_STATUS_NOT_SUPPORTED);

    const uintptr_t xa = (uintptr_t)x, ya = (uintptr_t)y;
    HSM_RETURN_IF(xa % xes != 0 || ya % yes != 0, HIPSOFTMAX_STATUS_MISALIGNED);
    /* A range that wraps the address space cannot be real memory. */
    HSM_RETURN_IF(xa > UINTPTR_MAX - (uintptr_t)xext || ya > UINTPTR_MAX - (uintptr_t)yext,
                  HIPSOFTMAX_STATUS_INVALID_POINTER);
    if (xa == ya) {
        HSM_RETURN_IF(p->x_row_stride != p->y_row_stride || xes != yes, HIPSOFTMAX_STATUS_OVERLAP);
    } else {
        HSM_RETURN_IF(xa < ya + (uintptr_t)yext && ya < xa + (uintptr_t)xext, HIPSOFTMAX_STATUS_OVERLAP);
    }
    return HSM_CONTINUE;
}
