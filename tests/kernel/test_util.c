/* test_util.c: see test_util.h. */
#include "test_util.h"

#include <math.h>

const double test_rel_tol[3] = {2e-5, 6e-4, 4.5e-3};
const double test_abs_tol[3] = {1e-37, 6e-8, 1e-37};

void *test_xmalloc(size_t n)
{
    void *p = malloc(n > 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "host allocation of %zu bytes failed\n", n);
        exit(1);
    }
    return p;
}

void *test_to_device(const void *host, size_t bytes)
{
    void *d = NULL;
    CHECK_HIP(hipMalloc(&d, bytes));
    CHECK_HIP(hipMemcpy(d, host, bytes, hipMemcpyHostToDevice));
    return d;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;

float test_uniform(float lo, float hi)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * (float)((rng >> 11) * (1.0 / 9007199254740992.0));
}

/* The value a double rounds to in dtype t. */
static double rounded(double v, test_dtype t)
{
    const float f = (float)v;
    uint16_t h[1];
    if (t == T_F32)
        return f;
    test_set(h, 0, t, f);
    return test_get(h, 0, t);
}

int test_matches(double got, double want, double tol, test_dtype t)
{
    if (isnan(want))
        return isnan(got);
    if (isnan(got))
        return 0;
    const double r = rounded(want, t);
    if (isinf(r) || isinf(got))
        return got == r || (isinf(want) && got == want);
    return fabs(got - want) <= tol;
}

double test_forward_tol(test_dtype y_t, double zrel, double alpha, double ref, double beta_old, int log_softmax)
{
    return (test_rel_tol[y_t] + zrel) * (fabs(alpha * ref) + fabs(beta_old)) + test_abs_tol[y_t] +
           (log_softmax ? (2e-5 + zrel) * fabs(alpha) : 0.0);
}

double test_backward_tol(test_dtype dx_t, int log_softmax, double scale, double alpha, double beta_old, double y,
                         double dy, double s, double sum_abs, int64_t cols)
{
    const double rel = dx_t == T_F32 ? 2e-6 : test_rel_tol[dx_t];
    const double seq = 6e-8 * (64.0 + (double)cols / 8192.0);
    const double e = log_softmax ? exp(y) : fabs(y);
    const double terms = log_softmax ? fabs(scale * dy) + fabs(scale * e * s) : fabs(scale * y * dy) + fabs(scale * y * s);
    const double sum_err = fabs(scale) * e * (seq * sum_abs + (log_softmax ? 4e-6 * fabs(s) : 0.0));
    return rel * (fabs(alpha) * terms + fabs(beta_old)) + fabs(alpha) * sum_err + test_abs_tol[dx_t];
}
