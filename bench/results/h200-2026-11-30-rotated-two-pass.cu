// Experiment only: a two-pass softmax backward for bf16 rows (cols a multiple of E * 2 bytes / 16), a
// block a row, nothing held: pass 1 sums dy * y, pass 2 reads y and dy again (from L2) and writes dx.
#include <cuda_bf16.h>
#include <stdint.h>

__device__ __forceinline__ uint64_t pol_last()
{
    uint64_t p;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
    return p;
}
__device__ __forceinline__ uint64_t pol_first()
{
    uint64_t p;
    asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
    return p;
}
// E bf16 (E = 4: 8 bytes, E = 8: 16 bytes) into words w[E / 2]; MODE 0 plain, 1 evict_last, 2 evict_first
template <int E, int MODE>
__device__ __forceinline__ void ld(uint32_t *w, const void *p)
{
    if constexpr (MODE == 0) {
        if constexpr (E == 8) {
            uint4 v = *(const uint4 *)p;
            w[0] = v.x; w[1] = v.y; w[2] = v.z; w[3] = v.w;
        } else {
            uint2 v = *(const uint2 *)p;
            w[0] = v.x; w[1] = v.y;
        }
    } else {
        const uint64_t pol = MODE == 1 ? pol_last() : pol_first();
        if constexpr (E == 8)
            asm volatile("ld.global.L1::evict_last.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                         : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3]) : "l"(p), "l"(pol));
        else
            asm volatile("ld.global.L1::evict_last.L2::cache_hint.v2.u32 {%0,%1}, [%2], %3;"
                         : "=r"(w[0]), "=r"(w[1]) : "l"(p), "l"(pol));
    }
}
__device__ __forceinline__ float lo(uint32_t w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float hi(uint32_t w) { return __uint_as_float(w & 0xffff0000u); }

template <int B>
__device__ __forceinline__ float block_sum(float v)
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

template <int B, int E, int H1, int H2>
__global__ __launch_bounds__(B) void tp_bwd(const __nv_bfloat16 *y, const __nv_bfloat16 *dy, __nv_bfloat16 *dx, int cols)
{
    const size_t base = (size_t)blockIdx.x * cols;
    const __nv_bfloat16 *yr = y + base, *dr = dy + base;
    __nv_bfloat16 *xr = dx + base;
    float acc = 0.0f;
    for (int c = threadIdx.x * E; c < cols; c += B * E) {
        uint32_t wy[E / 2], wd[E / 2];
        ld<E, H1>(wy, yr + c);
        ld<E, H1>(wd, dr + c);
#pragma unroll
        for (int i = 0; i < E / 2; i++)
            acc += lo(wy[i]) * lo(wd[i]) + hi(wy[i]) * hi(wd[i]);
    }
    const float s = block_sum<B>(acc);
    for (int c = threadIdx.x * E; c < cols; c += B * E) {
        uint32_t wy[E / 2], wd[E / 2], wo[E / 2];
        ld<E, H2>(wy, yr + c);
        ld<E, H2>(wd, dr + c);
#pragma unroll
        for (int i = 0; i < E / 2; i++) {
            __nv_bfloat162 o = __floats2bfloat162_rn(lo(wy[i]) * (lo(wd[i]) - s), hi(wy[i]) * (hi(wd[i]) - s));
            wo[i] = *(uint32_t *)&o;
        }
        if constexpr (E == 8)
            *(uint4 *)(xr + c) = make_uint4(wo[0], wo[1], wo[2], wo[3]);
        else
            *(uint2 *)(xr + c) = make_uint2(wo[0], wo[1]);
    }
}

template <int B, int E, int H1, int H2>
static int go(const void *y, const void *dy, void *dx, int rows, int cols, cudaStream_t st)
{
    tp_bwd<B, E, H1, H2><<<rows, B, 0, st>>>((const __nv_bfloat16 *)y, (const __nv_bfloat16 *)dy, (__nv_bfloat16 *)dx, cols);
    return cudaGetLastError() != cudaSuccess;
}

// variant: block (256/512/1024), e (4/8), h1 (0 plain, 1 evict_last), h2 (0 plain, 2 evict_first)
extern "C" int tp_launch(int block, int e, int h1, int h2, const void *y, const void *dy, void *dx, int rows, int cols,
                         void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
#define V(B, E, A, C) if (block == B && e == E && h1 == A && h2 == C) return go<B, E, A, C>(y, dy, dx, rows, cols, st);
#define VB(B, E) V(B, E, 0, 0) V(B, E, 1, 0) V(B, E, 1, 2)
    VB(256, 4) VB(256, 8) VB(512, 4) VB(512, 8) VB(1024, 4) VB(1024, 8)
    return 2;
}
