/* problem.c: the problem descriptor across versions. Callers compiled against an older header pass a
 * smaller struct, newer ones a larger one (struct_size says which); this file is the one place that
 * reads a caller's struct, so the rest of the library always sees the full struct of this version
 * with every default resolved. */
#include <inttypes.h>
#include <string.h>

#include "log.h"

/* Version 0.1's struct ended with causal_offset: 112 bytes on every LP64 target. */
#define HSM_PROBLEM_V0_1_SIZE (offsetof(hipsoftmax_problem, causal_offset) + sizeof(int64_t))

/* The defaults of 0.1's fields (0.2's appended fields default to zero). Writes `size` bytes. */
static void fill_defaults(hipsoftmax_problem *p, size_t size, hipsoftmax_dtype dtype, int64_t rows, int64_t cols)
{
    hipsoftmax_problem d;
    memset(&d, 0, sizeof d);
    d.struct_size = size;
    d.algorithm = HIPSOFTMAX_ALGO_SOFTMAX;
    d.mode = HIPSOFTMAX_MODE_ROW;
    d.x_dtype = d.y_dtype = dtype;
    d.rows = rows;
    d.cols = cols;
    d.x_row_stride = d.y_row_stride = cols;
    d.inner = 1;
    d.scale = 1.0f;
    d.alpha = 1.0f;
    d.beta = 0.0f;
    d.mask = HIPSOFTMAX_MASK_NONE;
    d.mask_dtype = dtype;
    memcpy(p, &d, size);
}

static hipsoftmax_status problem_init_sized(hipsoftmax_problem *p, size_t struct_size, hipsoftmax_dtype dtype,
                                            int64_t rows, int64_t cols)
{
    HSM_RETURN_IF(p == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF(struct_size < HSM_PROBLEM_V0_1_SIZE || struct_size > HSM_MAX_STRUCT_SIZE,
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    /* A newer caller's fields past ours default to zero. */
    if (struct_size > sizeof *p)
        memset((char *)p + sizeof *p, 0, struct_size - sizeof *p);
    fill_defaults(p, struct_size < sizeof *p ? struct_size : sizeof *p, dtype, rows, cols);
    p->struct_size = struct_size;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

void hsm_problem_init(hipsoftmax_problem *p, hipsoftmax_dtype dtype, int64_t rows, int64_t cols)
{
    fill_defaults(p, sizeof *p, dtype, rows, cols);
}

/* 0.1's symbol: binaries built against 0.1 allocate 0.1's struct and call this. The parentheses keep
 * the header's macro of the same name from expanding here. */
void(hipsoftmax_problem_init)(hipsoftmax_problem *p, hipsoftmax_dtype dtype, int64_t rows, int64_t cols)
{
    if (p != NULL)
        fill_defaults(p, HSM_PROBLEM_V0_1_SIZE, dtype, rows, cols);
    char d[16];
    HSM_TRACE(p != NULL ? HIPSOFTMAX_STATUS_SUCCESS : HIPSOFTMAX_STATUS_INVALID_POINTER,
              "problem=%p, dtype=%s, rows=%" PRId64 ", cols=%" PRId64, (void *)p, hsm_log_dtype(dtype, d), rows, cols);
}

hipsoftmax_status hipsoftmax_problem_init_sized(hipsoftmax_problem *p, size_t struct_size, hipsoftmax_dtype dtype,
                                                int64_t rows, int64_t cols)
{
    const hipsoftmax_status st = problem_init_sized(p, struct_size, dtype, rows, cols);
    char d[16];
    HSM_TRACE(st, "problem=%p, struct_size=%zu, dtype=%s, rows=%" PRId64 ", cols=%" PRId64, (void *)p, struct_size,
              hsm_log_dtype(dtype, d), rows, cols);
    return st;
}

/* Reads the caller's problem into *out, the full struct of this version:
 *  - problem non-NULL (INVALID_POINTER);
 *  - struct_size at least 0.1's and at most HSM_MAX_STRUCT_SIZE (INVALID_VALUE);
 *  - bytes past this version's struct all zero (NOT_SUPPORTED: a newer caller's options this
 *    library does not have; zero is every appended field's default);
 *  - fields the caller's version lacks take their defaults, and every "zero means default" field is
 *    resolved (dy_dtype, dy_row_stride, heads, queries, mask_batches, mask_rows).
 * Returns HSM_CONTINUE when the call should go on. Reads exactly struct_size bytes of *user. */
hipsoftmax_status hsm_problem_read(const hipsoftmax_problem *user, hipsoftmax_problem *out)
{
    HSM_RETURN_IF(user == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    const size_t size = user->struct_size;
    HSM_RETURN_IF(size < HSM_PROBLEM_V0_1_SIZE || size > HSM_MAX_STRUCT_SIZE, HIPSOFTMAX_STATUS_INVALID_VALUE);
    for (size_t i = sizeof *out; i < size; i++)
        HSM_RETURN_IF(((const unsigned char *)user)[i] != 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    memset(out, 0, sizeof *out);
    memcpy(out, user, size < sizeof *out ? size : sizeof *out);
    out->struct_size = sizeof *out;
    if (out->dy_dtype == 0)
        out->dy_dtype = out->y_dtype;
    if (out->dy_row_stride == 0)
        out->dy_row_stride = out->y_row_stride;
    if (out->heads == 0)
        out->heads = 1;
    if (out->queries == 0)
        out->queries = out->rows;
    if (out->mask_batches == 0)
        out->mask_batches = 1;
    if (out->mask_rows == 0)
        out->mask_rows = out->queries < out->rows ? out->queries : out->rows;
    return HSM_CONTINUE;
}

/* Writes `full` (a library struct of `full_size` bytes, first field struct_size) to a caller's struct
 * of caller_size bytes: the fields both know, zeros past ours. INVALID_VALUE for a caller_size below
 * `min_size` or above HSM_MAX_STRUCT_SIZE; nothing is written then. */
hipsoftmax_status hsm_struct_out(void *caller, size_t caller_size, const void *full, size_t full_size, size_t min_size)
{
    HSM_RETURN_IF(caller_size < min_size || caller_size > HSM_MAX_STRUCT_SIZE, HIPSOFTMAX_STATUS_INVALID_VALUE);
    memcpy(caller, full, caller_size < full_size ? caller_size : full_size);
    if (caller_size > full_size)
        memset((char *)caller + full_size, 0, caller_size - full_size);
    memcpy(caller, &caller_size, sizeof caller_size);
    return HIPSOFTMAX_STATUS_SUCCESS;
}
