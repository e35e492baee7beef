// Experiment: the softmax backward's held layout (every pack of y and dy of a thread loaded before
// the row's sum, as ROW's packed backward does) in blocks of up to 1024 threads, with the blocks a SM
// set by __launch_bounds__: torch.compile's looped kernel runs bf16 4096 x 16384 in blocks of 1024
// threads, 2 a SM (h200-2026-11-30-branchless-packed-bwd.md, command 7), where the library's plan
// (hsm_row_bf16_w32_bwd: 32 values a thread, 60 registers) runs blocks of 512, 2 a SM, and its packed
// kernels stop at 256 threads.
#include <cuda_bf16.h>
#include <stdint.h>

template <typename T> struct pk;
template <> struct pk<__nv_bfloat16> {
    enum { N = 8 };
    static __device__ __forceinline__ void get(uint4 v, float *f)
    {
        const uint32_t *w = (const uint32_t *)&v;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            f[2 * i] = __uint_as_float(w[i] << 16);
            f[2 * i + 1] = __uint_as_float(w[i] & 0xffff0000u);
        }
    }
    static __device__ __forceinline__ uint4 put(const float *f)
    {
        uint4 v;
        uint32_t *w = (uint32_t *)&v;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            __nv_bfloat162 o = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
            w[i] = *(uint32_t *)&o;
        }
        return v;
    }
};
template <> struct pk<float> {
    enum { N = 4 };
    static __device__ __forceinline__ void get(uint4 v, float *f)
    {
        f[0] = __uint_as_float(v.x);
        f[1] = __uint_as_float(v.y);
        f[2] = __uint_as_float(v.z);
        f[3] = __uint_as_float(v.w);
    }
    static __device__ __forceinline__ uint4 put(const float *f)
    {
        return make_uint4(__float_as_uint(f[0]), __float_as_uint(f[1]), __float_as_uint(f[2]), __float_as_uint(f[3]));
    }
};


/* The block sum in one round after the barrier (as the library's hsm_block_sum_few). */
template <int B> __device__ __forceinline__ float block_sum(float v)
{
    __shared__ float red[B / 32];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0)
        red[threadIdx.x >> 5] = v;
    __syncthreads();
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < B / 32; i++)
        s += red[i];
    return s;
}

__device__ __forceinline__ uint4 ld_last(const void *p)
{
    uint4 v;
    uint64_t pol;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(pol));
    return v;
}

/* The held layout: a block of B threads a row, NP packs of y and of dy a thread, all loaded (L2
 * evict_last, as the library's packed backward) before the sum; MINB blocks a SM asked of ptxas
 * (__launch_bounds__), so at most 65536 / (B MINB) registers a thread. */
template <typename T, int NP, int B, int MINB>
__global__ __launch_bounds__(B, MINB) void k_held(const T *y, const T *dy, T *dx, int cols)
{
    constexpr int N = pk<T>::N;
    const size_t row = blockIdx.x;
    const uint4 *yr = (const uint4 *)(y + row * cols), *dr = (const uint4 *)(dy + row * cols);
    uint4 *xr = (uint4 *)(dx + row * cols);
    uint4 py[NP], pd[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        py[p] = ld_last(yr + p * B + threadIdx.x);
        pd[p] = ld_last(dr + p * B + threadIdx.x);
    }
    float acc = 0.0f;
#pragma unroll
    for (int p = 0; p < NP; p++) {
        float a[N], b[N];
        pk<T>::get(py[p], a);
        pk<T>::get(pd[p], b);
#pragma unroll
        for (int i = 0; i < N; i++)
            acc = fmaf(a[i], b[i], acc);
    }
    const float s = block_sum<B>(acc);
    /* Only the packed words live across the barrier: unpacked again after it (a shift or a mask an
     * element), where the optimizer would otherwise keep every element's fp32 value. */
#pragma unroll
    for (int p = 0; p < NP; p++) {
        asm volatile("" : "+r"(py[p].x), "+r"(py[p].y), "+r"(py[p].z), "+r"(py[p].w));
        asm volatile("" : "+r"(pd[p].x), "+r"(pd[p].y), "+r"(pd[p].z), "+r"(pd[p].w));
    }
#pragma unroll
    for (int p = 0; p < NP; p++) {
        float a[N], b[N], o[N];
        pk<T>::get(py[p], a);
        pk<T>::get(pd[p], b);
#pragma unroll
        for (int i = 0; i < N; i++)
            o[i] = a[i] * (b[i] - s);
        xr[p * B + threadIdx.x] = pk<T>::put(o);
    }
}

template <typename T, int NP, int B, int MINB>
static int go(const void *y, const void *dy, void *dx, int rows, int cols, cudaStream_t st)
{
    if (cols != NP * B * pk<T>::N)
        return 2;
    k_held<T, NP, B, MINB><<<rows, B, 0, st>>>((const T *)y, (const T *)dy, (T *)dx, cols);
    return 0;
}

typedef int (*go_fn)(const void *, const void *, void *, int, int, cudaStream_t);
/* The variants, in held_wide_bwd.py's order: "NPxB/MINB". Each serves one row length a dtype. */
template <typename T> struct table {
    static go_fn at(int v)
    {
        static const go_fn t[] = {
            go<T, 1, 1024, 2>, go<T, 2, 1024, 2>, go<T, 2, 1024, 1>, go<T, 4, 512, 3>, go<T, 4, 512, 2>,
            go<T, 8, 256, 4>,  go<T, 4, 1024, 1>, go<T, 1, 512, 4>,  go<T, 2, 512, 4>,  go<T, 2, 512, 3>,
            go<T, 2, 256, 4>,  go<T, 2, 256, 5>,  go<T, 4, 256, 4>,  go<T, 4, 256, 3>,  go<T, 8, 512, 2>,
            go<T, 1, 256, 8>,  go<T, 1, 256, 6>,  go<T, 16, 256, 2>};
        return v >= 0 && v < (int)(sizeof t / sizeof t[0]) ? t[v] : 0;
    }
};

/* dtype 0 fp32, 2 bf16. 0 launched, 2 not served. */
extern "C" int hw_launch(int dtype, int v, const void *y, const void *dy, void *dx, int rows, int cols, void *stream)
{
    go_fn f = dtype ? table<__nv_bfloat16>::at(v) : table<float>::at(v);
    if (!f || f(y, dy, dx, rows, cols, (cudaStream_t)stream))
        return 2;
    return cudaGetLastError() != cudaSuccess;
}
