/* reference_ops.c: the float64 references of the forward with options and of the backward. */
#include "reference_ops.h"

#include <math.h>

void test_ref_forward(const double *z, int64_t n, int log_softmax, int safe, double *out, double *mx, double *lse)
{
    double m = -INFINITY;
    int nan = 0;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(z[i]))
            nan = 1;
        else if (z[i] > m)
            m = z[i];
    }
    *mx = m; /* the max of the values that are not NaN */
    if (m == -INFINITY) { /* every column masked or -inf: NaN as torch, or the safe result */
        for (int64_t i = 0; i < n; i++)
            out[i] = nan || !safe ? NAN : log_softmax ? -INFINITY : 0.0;
        *lse = -INFINITY;
        return;
    }
    double s = 0.0;
    for (int64_t i = 0; i < n; i++)
        s += exp(z[i] - m); /* +inf - +inf is NaN: a row with +inf gives NaN */
    const double ls = log(s);
    for (int64_t i = 0; i < n; i++)
        out[i] = nan ? NAN : log_softmax ? z[i] - m - ls : exp(z[i] - m) / s;
    *lse = nan ? NAN : m + ls; /* NaN with a NaN or +inf in the row */
}

void test_ref_backward(const double *y, const double *dy, int64_t n, int log_softmax, double scale, double *out,
                       double *sum_abs)
{
    double s = 0.0, sa = 0.0;
    for (int64_t i = 0; i < n; i++) {
        const double t = log_softmax ? dy[i] : dy[i] * y[i];
        s += t;
        sa += fabs(t);
    }
    for (int64_t i = 0; i < n; i++)
        out[i] = log_softmax ? scale * (dy[i] - exp(y[i]) * s) : scale * y[i] * (dy[i] - s);
    *sum_abs = sa;
}
