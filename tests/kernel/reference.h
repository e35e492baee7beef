/* reference.h: host-side helpers of the GPU tests: dtype conversions, the float64 reference, and
 * opening a handle or skipping. */
#ifndef HSM_TEST_REFERENCE_H
#define HSM_TEST_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

typedef enum { T_F32, T_F16, T_BF16 } test_dtype;

size_t test_dtype_size(test_dtype t);
/* Element i of a buffer of dtype t, as a double, and storing a float (round to nearest even). */
double test_get(const void *buf, size_t i, test_dtype t);
void test_set(void *buf, size_t i, test_dtype t, float v);
/* Softmax of one row of n values in float64, the way torch.softmax defines it (NaN rules included). */
void test_reference_row(const double *in, double *out, int64_t n);

/* A handle on the current GPU; with no GPU of the library's vendor, exits with HSM_SKIP_CODE so
 * ctest reports the test as skipped (never as passed); on any other failure, exits with 1. */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>
hipsoftmax_handle test_open_handle(void);

#endif
