// Experiment only: a lean held backward (softmax), a block a row, rows of B * NP packs of 16 bytes
// exactly (no edges), y and dy in registers as loaded, one sum, dx written; and the two-pass kernel of
// h200-2026-11-30-rotated-two-pass.cu held to full occupancy (__launch_bounds__(512, 4)).
#include <cuda_bf16.h>
#include <stdint.h>

__device__ __forceinline__ uint4 ld_last(const void *p)
{
    uint4 v;
    uint64_t pol;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    asm("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(pol));
    return v;
}
__device__ __forceinline__ float lo(uint32_t w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float hi(uint32_t w) { return __uint_as_float(w & 0xffff0000u); }
__device__ __forceinline__ uint32_t pk(float a, float b)
{
    __nv_bfloat162 o = __floats2bfloat162_rn(a, b);
    return *(uint32_t *)&o;
}

__device__ __forceinline__ float block_sum(float v)
{
    __shared__ float red[32];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    const int nw = blockDim.x >> 5;
    if ((threadIdx.x & 31) == 0)
        red[threadIdx.x >> 5] = v;
    __syncthreads();
    float s = 0.0f;
    for (int i = 0; i < nw; i++)
        s += red[i];
    return s;
}

// T: 0 fp32 (4 a pack), 1 bf16 (8 a pack)
template <int BF, int NP, int H, int S>
__global__ void lean_bwd(const void *y, const void *dy, void *dx, int cols)
{
    const size_t base = (size_t)blockIdx.x * cols * (BF ? 2 : 4);
    const char *yr = (const char *)y + base, *dr = (const char *)dy + base;
    char *xr = (char *)dx + base;
    uint4 py[NP], pd[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const size_t off = ((size_t)p * blockDim.x + threadIdx.x) * 16;
        if constexpr (H) {
            py[p] = ld_last(yr + off);
            pd[p] = ld_last(dr + off);
        } else {
            py[p] = *(const uint4 *)(yr + off);
            pd[p] = *(const uint4 *)(dr + off);
        }
    }
    float acc = 0.0f;
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const uint32_t *wy = (const uint32_t *)&py[p], *wd = (const uint32_t *)&pd[p];
#pragma unroll
        for (int i = 0; i < 4; i++) {
            if constexpr (BF)
                acc += lo(wy[i]) * lo(wd[i]) + hi(wy[i]) * hi(wd[i]);
            else
                acc += __uint_as_float(wy[i]) * __uint_as_float(wd[i]);
        }
    }
    const float s = block_sum(acc);
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const uint32_t *wy = (const uint32_t *)&py[p], *wd = (const uint32_t *)&pd[p];
        uint4 o;
        uint32_t *wo = (uint32_t *)&o;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            if constexpr (BF)
                wo[i] = pk(lo(wy[i]) * (lo(wd[i]) - s), hi(wy[i]) * (hi(wd[i]) - s));
            else
                wo[i] = __float_as_uint(__uint_as_float(wy[i]) * (__uint_as_float(wd[i]) - s));
        }
        uint4 *dst = (uint4 *)(xr + ((size_t)p * blockDim.x + threadIdx.x) * 16);
        if constexpr (S)
            __stcs(dst, o);
        else
            *dst = o;
    }
}

// the two-pass kernel (tp.cu's B512E8H00) at full occupancy
__global__ __launch_bounds__(512, 4) void tp512_bwd(const __nv_bfloat16 *y, const __nv_bfloat16 *dy, __nv_bfloat16 *dx,
                                                   int cols)
{
    const size_t base = (size_t)blockIdx.x * cols;
    const __nv_bfloat16 *yr = y + base, *dr = dy + base;
    __nv_bfloat16 *xr = dx + base;
    float acc = 0.0f;
    for (int c = threadIdx.x * 8; c < cols; c += 512 * 8) {
        uint4 a = *(const uint4 *)(yr + c), b = *(const uint4 *)(dr + c);
        const uint32_t *wy = (const uint32_t *)&a, *wd = (const uint32_t *)&b;
#pragma unroll
        for (int i = 0; i < 4; i++)
            acc += lo(wy[i]) * lo(wd[i]) + hi(wy[i]) * hi(wd[i]);
    }
    const float s = block_sum(acc);
    for (int c = threadIdx.x * 8; c < cols; c += 512 * 8) {
        uint4 a = *(const uint4 *)(yr + c), b = *(const uint4 *)(dr + c), o;
        const uint32_t *wy = (const uint32_t *)&a, *wd = (const uint32_t *)&b;
        uint32_t *wo = (uint32_t *)&o;
#pragma unroll
        for (int i = 0; i < 4; i++)
            wo[i] = pk(lo(wy[i]) * (lo(wd[i]) - s), hi(wy[i]) * (hi(wd[i]) - s));
        *(uint4 *)(xr + c) = o;
    }
}

// bf: 1 bf16, 0 fp32; np: packs a thread (0: the two-pass kernel); h: evict_last loads; s: streaming stores.
// The block is cols / (np * elements a pack) threads (at most 1024, a multiple of 32).
extern "C" int lean_launch(int bf, int np, int h, int s, const void *y, const void *dy, void *dx, int rows, int cols,
                           void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    if (np == 0) {
        if (!bf)
            return 2;
        tp512_bwd<<<rows, 512, 0, st>>>((const __nv_bfloat16 *)y, (const __nv_bfloat16 *)dy, (__nv_bfloat16 *)dx, cols);
        return cudaGetLastError() != cudaSuccess;
    }
    const int epp = bf ? 8 : 4;
    if (cols % (np * epp))
        return 2;
    const int block = cols / (np * epp);
    if (block > 1024 || block % 32)
        return 2;
#define L(B, N, H, S) if (bf == B && np == N && h == H && s == S) { lean_bwd<B, N, H, S><<<rows, block, 0, st>>>(y, dy, dx, cols); return cudaGetLastError() != cudaSuccess; }
#define LN(B, N) L(B, N, 0, 0) L(B, N, 1, 0) L(B, N, 1, 1) L(B, N, 0, 1)
    LN(1, 1) LN(1, 2) LN(1, 4) LN(1, 8) LN(0, 1) LN(0, 2) LN(0, 4) LN(0, 8)
    return 2;
}
