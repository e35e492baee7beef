/* reference_ops.h: float64 references of the forward with options and of the backward. */
#ifndef HSM_TEST_REFERENCE_OPS_H
#define HSM_TEST_REFERENCE_OPS_H

#include <stdint.h>

/* Softmax or log-softmax of one row of z (scale and masks already applied, masked columns -inf), as
 * torch defines it: a NaN or +inf in the row gives NaN; a row with no column above -inf gives NaN, or
 * with `safe` zeros (log-softmax: -inf). *mx: the max of the values that are not NaN; *lse: the
 * log-sum-exp, -inf where the max is -inf, NaN where the row has a NaN or +inf otherwise (the
 * statistics hipsoftmax writes). */
void test_ref_forward(const double *z, int64_t n, int log_softmax, int safe, double *out, double *mx, double *lse);

/* The gradient with respect to the forward's input of one row: scale * y * (dy - sum(dy * y)) or
 * scale * (dy - exp(y) * sum(dy)). *sum_abs: the sum of the summed terms' magnitudes (their rounding
 * bound). */
void test_ref_backward(const double *y, const double *dy, int64_t n, int log_softmax, double scale, double *out,
                       double *sum_abs);

#endif
