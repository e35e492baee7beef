// Experiment: the L2 and L1 policies of the softmax backward's loads (y, dy) and stores (dx), in the
// library's held layout (every pack of y and dy of a thread loaded before the row's sum, as ROW's
// packed backward does; h200-2026-12-01-held-wide-bwd.cu). The library reads y and dy L2 evict_last
// and writes dx with plain stores; only the loads' policies were swept before
// (h200-2026-11-30-l2-priority.md). Timed after a flush that leaves L2 full of written lines, as a
// training step's dy producer does.
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

/* Loads: 0 L2 evict_last (the library), 1 plain, 2 L2 evict_first, 3 L1 no_allocate + L2 evict_last. */
template <int LP> __device__ __forceinline__ uint4 ld(const void *p)
{
    uint4 v;
    uint64_t pol;
    if constexpr (LP == 1) {
        asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    } else if constexpr (LP == 2) {
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(pol));
    } else if constexpr (LP == 3) {
        asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("ld.global.L1::no_allocate.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(pol));
    } else {
        asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(pol));
    }
    return v;
}
/* Stores: 0 plain (the library), 1 .cs (streaming), 2 L2 evict_last, 3 L2 evict_first, 4 L1
 * no_allocate. */
template <int SP> __device__ __forceinline__ void st(void *p, uint4 v)
{
    uint64_t pol;
    if constexpr (SP == 1) {
        asm volatile("st.global.cs.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
    } else if constexpr (SP == 2) {
        asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("st.global.L2::cache_hint.v4.u32 [%0], {%1,%2,%3,%4}, %5;" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
                     "r"(v.w), "l"(pol)
                     : "memory");
    } else if constexpr (SP == 3) {
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("st.global.L2::cache_hint.v4.u32 [%0], {%1,%2,%3,%4}, %5;" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
                     "r"(v.w), "l"(pol)
                     : "memory");
    } else if constexpr (SP == 4) {
        asm volatile("st.global.L1::no_allocate.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
                     "r"(v.w)
                     : "memory");
    } else {
        asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
    }
}

template <typename T, int NP, int B, int MINB, int LP, int SP>
__global__ __launch_bounds__(B, MINB) void k_pol(const T *y, const T *dy, T *dx, int cols)
{
    constexpr int N = pk<T>::N;
    const size_t row = blockIdx.x;
    const uint4 *yr = (const uint4 *)(y + row * cols), *dr = (const uint4 *)(dy + row * cols);
    uint4 *xr = (uint4 *)(dx + row * cols);
    uint4 py[NP], pd[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        py[p] = ld<LP>(yr + p * B + threadIdx.x);
        pd[p] = ld<LP>(dr + p * B + threadIdx.x);
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
        st<SP>(xr + p * B + threadIdx.x, pk<T>::put(o));
    }
}

typedef int (*go_fn)(const void *, const void *, void *, int, int, cudaStream_t);
template <typename T, int NP, int B, int MINB, int LP, int SP>
static int go(const void *y, const void *dy, void *dx, int rows, int cols, cudaStream_t st)
{
    if (cols != NP * B * pk<T>::N)
        return 2;
    k_pol<T, NP, B, MINB, LP, SP><<<rows, B, 0, st>>>((const T *)y, (const T *)dy, (T *)dx, cols);
    return 0;
}
/* Variant v = 5 LP + SP of one layout. */
template <typename T, int NP, int B, int MINB> static go_fn of(int v)
{
    static const go_fn t[] = {
        go<T, NP, B, MINB, 0, 0>, go<T, NP, B, MINB, 0, 1>, go<T, NP, B, MINB, 0, 2>, go<T, NP, B, MINB, 0, 3>,
        go<T, NP, B, MINB, 0, 4>, go<T, NP, B, MINB, 1, 0>, go<T, NP, B, MINB, 1, 1>, go<T, NP, B, MINB, 1, 2>,
        go<T, NP, B, MINB, 1, 3>, go<T, NP, B, MINB, 1, 4>, go<T, NP, B, MINB, 2, 0>, go<T, NP, B, MINB, 2, 1>,
        go<T, NP, B, MINB, 2, 2>, go<T, NP, B, MINB, 2, 3>, go<T, NP, B, MINB, 2, 4>, go<T, NP, B, MINB, 3, 0>,
        go<T, NP, B, MINB, 3, 1>, go<T, NP, B, MINB, 3, 2>, go<T, NP, B, MINB, 3, 3>, go<T, NP, B, MINB, 3, 4>};
    return v >= 0 && v < 20 ? t[v] : 0;
}

/* dtype 0 fp32, 2 bf16; the layout from the row: bf16 2048 1x256/6, 4096 2x256/4, 8192 4x256/3,
 * 16384 4x512/2; fp32 4096 4x256/3 (the fastest of h200-2026-12-01-held-wide-bwd.md). 0 launched,
 * 2 not served. */
extern "C" int cp_launch(int dtype, int v, const void *y, const void *dy, void *dx, int rows, int cols, void *stream)
{
    go_fn f = 0;
    if (dtype == 0)
        f = cols == 4096 ? of<float, 4, 256, 3>(v) : 0;
    else
        f = cols == 2048    ? of<__nv_bfloat16, 1, 256, 6>(v)
            : cols == 4096  ? of<__nv_bfloat16, 2, 256, 4>(v)
            : cols == 8192  ? of<__nv_bfloat16, 4, 256, 3>(v)
            : cols == 16384 ? of<__nv_bfloat16, 4, 512, 2>(v)
                            : 0;
    if (!f || f(y, dy, dx, rows, cols, (cudaStream_t)stream))
        return 2;
    return cudaGetLastError() != cudaSuccess;
}
