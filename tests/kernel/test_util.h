/* test_util.h: what the GPU tests share beyond the reference: runtime error checks, exact-size
 * device copies, the random inputs, and the tolerances results are checked with. Uses the vendor
 * runtime through hsm_vendor.h (the test's target gets it from hsm_use_vendor_runtime). */
#ifndef HSM_TEST_UTIL_H
#define HSM_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hsm_vendor.h"
#include "reference.h"

/* A runtime call that must succeed: the test exits with 1 (a failure, never the skip code) if not. */
#define CHECK_HIP(call)                                                                               \
    do {                                                                                              \
        hipError_t e_ = (call);                                                                       \
        if (e_ != hipSuccess) {                                                                       \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_));     \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

/* A library call that must succeed (configuration, not the call under test). */
#define CHECK_HSM(call)                                                                               \
    do {                                                                                              \
        hipsoftmax_status s_ = (call);                                                                \
        if (s_ != HIPSOFTMAX_STATUS_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipsoftmax_status_string(s_)); \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

/* malloc that exits on failure; n == 0 gives a valid 1-byte block. */
void *test_xmalloc(size_t n);

/* A device copy of `bytes` of host memory, allocated to exactly that size, so that under
 * compute-sanitizer a read one byte past the tensor is reported. */
void *test_to_device(const void *host, size_t bytes);

/* A uniform value in [lo, hi) from one xorshift sequence per process (the same inputs every run). */
float test_uniform(float lo, float hi);

/* Relative and absolute tolerances per output dtype (indexed by test_dtype), the error the kernels'
 * fp32 arithmetic may add to the float64 reference of the same rounded inputs:
 *   f32 2e-5 / 1e-37: exp2 of (u - m) * sigma * log2 e, where the rounding of the difference and of
 *     the product is an absolute error of up to 2 * 104 * 2^-24 = 1.2e-5 in the exponent of any result
 *     that does not underflow, i.e. that relative error in the result; a few ulp of exp2, the sum and
 *     the reciprocal; the abs term covers results below 2^-126 that exp2 flushes to 0.
 *   f16 6e-4 / 6e-8: the fp32 error plus the rounding to f16 (2^-11 relative, half its smallest
 *     subnormal absolute).
 *   bf16 4.5e-3 / 1e-37: the rounding to bf16 (2^-8 relative); fp32's range. */
extern const double test_rel_tol[3];
extern const double test_abs_tol[3];

/* Whether got matches want within tol: NaN for NaN; infinities exactly, also where want rounds to
 * one in dtype t. */
int test_matches(double got, double want, double tol, test_dtype t);

/* The tolerance of one forward output in dtype y_t whose expected value is alpha * ref + beta_old:
 * (rel + zrel) * (|alpha * ref| + |beta_old|) + abs, and for log-softmax (2e-5 + zrel) * |alpha| more
 * (log of the sum inherits the sum's 1.2e-5 relative error as an absolute one). zrel: 4 * 2^-24 *
 * max|z| of the row where z = scale * x + mask is rounded to fp32 before the exponent, else 0. */
double test_forward_tol(test_dtype y_t, double zrel, double alpha, double ref, double beta_old, int log_softmax);

/* The tolerance of one backward output in dtype dx_t, for y (as stored), dy and the row's sum s (of
 * dy * y, or of dy for log-softmax) with sum_abs the sum of its terms' magnitudes (test_ref_backward),
 * over a row of `cols`: the relative error of a product and a difference (f32 2e-6; 16-bit outputs
 * their rounding) on the terms, plus the sum's rounding, 6e-8 * (64 + cols / 8192) * sum_abs (each
 * thread adds at most cols / 8192 partial terms in sequence, then at most 64 levels of tree and
 * group combine), times scale * |y| (softmax) or scale * exp(y) (log-softmax, whose exp adds
 * 4e-6 * |s|); beta_old = beta * the old dx. */
double test_backward_tol(test_dtype dx_t, int log_softmax, double scale, double alpha, double beta_old, double y,
                         double dy, double s, double sum_abs, int64_t cols);

#endif
