// Experiment only (issue 14's small 16-bit rows): a plain fp16 / bf16 softmax forward of dense rows
// whose length is a multiple of 8, in shapes the library's WARP kernels fix and this leaves free:
// G threads a row (1 to 64: one thread, a warp's part, a warp, or two warps and a shared-memory
// round), NP packs of 16 bytes (8 values) a thread, any count (10 columns' packs on 2 threads of 5:
// no idle pack), blocks of B threads (B / G rows), and PF: a resident grid whose blocks loop over their
// rows, each issuing the next row's loads before its reductions of the current one (PF 0: a block for
// every B / G rows, no loop). Arithmetic in fp32; y stored with plain stores.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

__device__ __forceinline__ float ex2(float x)
{
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}

// 8 values of a 16-byte pack to fp32 and back (round to nearest even)
__device__ __forceinline__ void unpack8(const uint4 u, float *f, __half)
{
    const __half2 *h = (const __half2 *)&u;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const float2 t = __half22float2(h[i]);
        f[2 * i] = t.x;
        f[2 * i + 1] = t.y;
    }
}
__device__ __forceinline__ void unpack8(const uint4 u, float *f, __nv_bfloat16)
{
    const __nv_bfloat162 *h = (const __nv_bfloat162 *)&u;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const float2 t = __bfloat1622float2(h[i]);
        f[2 * i] = t.x;
        f[2 * i + 1] = t.y;
    }
}
__device__ __forceinline__ uint4 pack8(const float *f, float k, __half)
{
    uint4 u;
    __half2 *h = (__half2 *)&u;
#pragma unroll
    for (int i = 0; i < 4; i++)
        h[i] = __floats2half2_rn(f[2 * i] * k, f[2 * i + 1] * k);
    return u;
}
__device__ __forceinline__ uint4 pack8(const float *f, float k, __nv_bfloat16)
{
    uint4 u;
    __nv_bfloat162 *h = (__nv_bfloat162 *)&u;
#pragma unroll
    for (int i = 0; i < 4; i++)
        h[i] = __floats2bfloat162_rn(f[2 * i] * k, f[2 * i + 1] * k);
    return u;
}

// the group's max or sum (OP 0 / 1) of v: shuffles within G <= 32 lanes; past a warp, each warp's
// result through shared memory (red: a slot a warp of the block)
template <int G, int OP>
__device__ __forceinline__ float group_reduce(float v, float *red)
{
    constexpr int L = G < 32 ? G : 32;
#pragma unroll
    for (int o = L / 2; o > 0; o >>= 1) {
        const float u = __shfl_xor_sync(0xffffffffu, v, o);
        v = OP ? v + u : fmaxf(v, u);
    }
    if constexpr (G > 32) {
        constexpr int WG = G / 32;
        if ((threadIdx.x & 31) == 0)
            red[threadIdx.x >> 5] = v;
        __syncthreads();
        const float *r = red + (threadIdx.x / G) * WG;
        v = r[0];
#pragma unroll
        for (int i = 1; i < WG; i++)
            v = OP ? v + r[i] : fmaxf(v, r[i]);
    }
    return v;
}

// raw packs: a pack past the row (or a row past the last) is marked by c >= cols at use
template <int G, int NP>
__device__ __forceinline__ void load_row(uint4 *u, const uint4 *x, int64_t row, int64_t rows, int cols, int t)
{
    const int64_t pr = (int64_t)cols / 8; // packs a row
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int c = (p * G + t) * 8;
        if (row < rows && c < cols)
            u[p] = x[row * pr + p * G + t];
    }
}

template <typename T, int G, int NP>
__device__ __forceinline__ void finish_row(const uint4 *u, uint4 *y, int64_t row, int64_t rows, int cols, int t,
                                           float *red_m, float *red_s)
{
    const float L2E = 1.4426950408889634f;
    float v[NP * 8];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int c = (p * G + t) * 8;
        if (row < rows && c < cols) {
            unpack8(u[p], v + 8 * p, T());
        } else {
#pragma unroll
            for (int i = 0; i < 8; i++)
                v[8 * p + i] = -INFINITY;
        }
    }
    float m = -INFINITY;
#pragma unroll
    for (int i = 0; i < NP * 8; i++)
        m = fmaxf(m, v[i]);
    m = group_reduce<G, 0>(m, red_m);
    const float ml = m * L2E;
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < NP * 8; i++) {
        v[i] = ex2(fmaf(v[i], L2E, -ml));
        s += v[i];
    }
    s = group_reduce<G, 1>(s, red_s);
    const float k = 1.0f / s;
    const int64_t pr = (int64_t)cols / 8;
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int c = (p * G + t) * 8;
        if (row < rows && c < cols)
            y[row * pr + p * G + t] = pack8(v + 8 * p, k, T());
    }
}

template <typename T, int G, int NP, int B, int PF>
__global__ __launch_bounds__(B) void fwd(const uint4 *x, uint4 *y, int64_t rows, int cols)
{
    __shared__ float red_m[B / 32 + 1], red_s[B / 32 + 1];
    constexpr int R = B / G;
    const int t = threadIdx.x % G;
    int64_t row = (int64_t)blockIdx.x * R + threadIdx.x / G;
    uint4 u[NP];
    load_row<G, NP>(u, x, row, rows, cols, t);
    if constexpr (!PF) {
        finish_row<T, G, NP>(u, y, row, rows, cols, t, red_m, red_s);
    } else {
        const int64_t step = (int64_t)gridDim.x * R;
        // every thread of a block loops alike (the block's rows run out together but for the last
        // round, whose rows past the end load nothing and store nothing)
        for (int64_t r0 = (int64_t)blockIdx.x * R; r0 < rows; r0 += step, row += step) {
            uint4 nu[NP];
            load_row<G, NP>(nu, x, row + step, rows, cols, t);
            finish_row<T, G, NP>(u, y, row, rows, cols, t, red_m, red_s);
#pragma unroll
            for (int p = 0; p < NP; p++)
                u[p] = nu[p];
            if constexpr (G > 32)
                __syncthreads(); // red_m / red_s are read by the round before
        }
    }
}

template <typename T, int G, int NP, int B, int PF>
static int go(const void *x, void *y, int64_t rows, int cols, cudaStream_t st)
{
    constexpr int R = B / G;
    int64_t grid = (rows + R - 1) / R;
    if (PF) {
        int per_sm = 0, sms = 0, dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fwd<T, G, NP, B, PF>, B, 0);
        if ((int64_t)per_sm * sms < grid)
            grid = (int64_t)per_sm * sms;
    }
    fwd<T, G, NP, B, PF><<<(unsigned)grid, B, 0, st>>>((const uint4 *)x, (uint4 *)y, rows, cols);
    return cudaGetLastError() != cudaSuccess;
}

#define E2(T, G, NP, B)                                                                                        \
    if (g == G && np == NP && b == B)                                                                          \
        return pf ? go<T, G, NP, B, 1>(x, y, rows, cols, s) : go<T, G, NP, B, 0>(x, y, rows, cols, s);
#define EB(T, G, NP) E2(T, G, NP, 32) E2(T, G, NP, 64) E2(T, G, NP, 128) E2(T, G, NP, 256)
#define EBW(T, G, NP) E2(T, G, NP, 64) E2(T, G, NP, 128) E2(T, G, NP, 256)
#define ALL(T)                                                                                                 \
    EB(T, 1, 10) EB(T, 2, 5) EB(T, 4, 3) EB(T, 8, 2) EB(T, 16, 1)                                              \
    EB(T, 1, 16) EB(T, 2, 8) EB(T, 4, 4)                                                                       \
    EB(T, 4, 8) EB(T, 8, 4) EB(T, 16, 2) EB(T, 32, 1)                                                          \
    EB(T, 8, 8) EB(T, 16, 4) EB(T, 32, 2) EBW(T, 64, 1)

// dtype 0 fp16, 1 bf16; g threads a row with np packs each, blocks of b, pf the looping grid; 2 where
// the shape is not built or does not cover the row
extern "C" int fwd_launch(int dtype, int g, int np, int b, int pf, const void *x, void *y, int64_t rows, int cols,
                          void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (cols % 8 || g * np * 8 < cols)
        return 2;
    if (dtype == 0) {
        ALL(__half)
    } else {
        ALL(__nv_bfloat16)
    }
    return 2;
}
