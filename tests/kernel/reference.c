/* reference.c: dtype conversions and the float64 softmax the GPU results are compared with. */
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t test_dtype_size(test_dtype t) { return t == T_F32 ? 4 : 2; }

static float half_to_float(uint16_t h)
{
    const int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    float v;
    if (exp == 0)
        v = ldexpf((float)man, -24);
    else if (exp == 31)
        v = man ? NAN : INFINITY;
    else
        v = ldexpf((float)(man | 0x400), exp - 25);
    return sign ? -v : v;
}

static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u)
        return sign | 0x7e00u;
    if (ax >= 0x477ff000u) /* 65520 and up round to infinity */
        return sign | 0x7c00u;
    if (ax < 0x38800000u) { /* half subnormal (or zero): a multiple of 2^-24, exact scaling, nearest even */
        float a;
        memcpy(&a, &ax, 4);
        return sign | (uint16_t)lrintf(a * 16777216.0f);
    }
    ax += 0xfffu + ((ax >> 13) & 1u); /* round the 13 dropped bits to nearest even */
    return sign | (uint16_t)((ax >> 13) - (112u << 10));
}

static float bf16_to_float(uint16_t b)
{
    const uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

double test_get(const void *buf, size_t i, test_dtype t)
{
    if (t == T_F32)
        return ((const float *)buf)[i];
    const uint16_t h = ((const uint16_t *)buf)[i];
    return t == T_F16 ? half_to_float(h) : bf16_to_float(h);
}

void test_set(void *buf, size_t i, test_dtype t, float v)
{
    if (t == T_F32)
        ((float *)buf)[i] = v;
    else
        ((uint16_t *)buf)[i] = t == T_F16 ? float_to_half(v) : float_to_bf16(v);
}

void test_reference_row(const double *in, double *out, int64_t n)
{
    double m = -INFINITY;
    int nan = 0;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(in[i]))
            nan = 1;
        else if (in[i] > m)
            m = in[i];
    }
    double s = 0.0;
    for (int64_t i = 0; i < n; i++)
        s += exp(in[i] - m); /* -inf - -inf is NaN: a row of only -inf gives NaN, as in torch */
    for (int64_t i = 0; i < n; i++)
        out[i] = nan ? NAN : exp(in[i] - m) / s;
}

hipsoftmax_handle test_open_handle(void)
{
    hipsoftmax_handle h = NULL;
    const hipsoftmax_status st = hipsoftmax_create(&h);
    if (st == HIPSOFTMAX_STATUS_NO_DEVICE) {
        printf("no GPU for this build's vendor: skipped\n");
        exit(HSM_SKIP_CODE);
    }
    if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        fprintf(stderr, "hipsoftmax_create: %s\n", hipsoftmax_status_string(st));
        exit(1);
    }
    return h;
}
