// Experiment only (issue 14's small fp32 rows): a plain fp32 softmax forward of dense rows whose
// length is a multiple of 4, in shapes the library's WARP and ROW kernels fix and this leaves free:
// G threads a row (4 to 256: a warp's part, a warp, or several warps and a shared-memory round), NP
// packs of 16 bytes a thread, blocks of B threads (B / G rows), y stored plain or streaming (ST),
// and PF: a resident grid whose blocks loop over their rows, each issuing the next row's loads
// before its reductions of the current one (PF 0: a block for every B / G rows, no loop).
#include <stdint.h>

__device__ __forceinline__ float ex2(float x)
{
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
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

template <int NP>
__device__ __forceinline__ void load_row(float4 *v, const float *x, int64_t row, int64_t rows, int cols, int t,
                                         int G)
{
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int c = (p * G + t) * 4;
        if (row < rows && c < cols)
            v[p] = *(const float4 *)(x + row * cols + c);
        else
            v[p] = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    }
}

template <int G, int NP, int ST>
__device__ __forceinline__ void finish_row(float4 *v, float *y, int64_t row, int64_t rows, int cols, int t,
                                           float *red_m, float *red_s)
{
    const float L2E = 1.4426950408889634f;
    float m = -INFINITY;
#pragma unroll
    for (int p = 0; p < NP; p++)
        m = fmaxf(m, fmaxf(fmaxf(v[p].x, v[p].y), fmaxf(v[p].z, v[p].w)));
    m = group_reduce<G, 0>(m, red_m);
    const float ml = m * L2E;
    float s = 0.0f;
#pragma unroll
    for (int p = 0; p < NP; p++) {
        v[p].x = ex2(fmaf(v[p].x, L2E, -ml));
        v[p].y = ex2(fmaf(v[p].y, L2E, -ml));
        v[p].z = ex2(fmaf(v[p].z, L2E, -ml));
        v[p].w = ex2(fmaf(v[p].w, L2E, -ml));
        s += (v[p].x + v[p].y) + (v[p].z + v[p].w);
    }
    s = group_reduce<G, 1>(s, red_s);
    const float k = 1.0f / s;
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int c = (p * G + t) * 4;
        if (row < rows && c < cols) {
            const float4 o = make_float4(v[p].x * k, v[p].y * k, v[p].z * k, v[p].w * k);
            float4 *d = (float4 *)(y + row * cols + c);
            if constexpr (ST)
                __stcs(d, o);
            else
                *d = o;
        }
    }
}

template <int G, int NP, int B, int ST, int PF>
__global__ __launch_bounds__(B) void fwd(const float *x, float *y, int64_t rows, int cols)
{
    __shared__ float red_m[B / 32 + 1], red_s[B / 32 + 1];
    constexpr int R = B / G;
    const int t = threadIdx.x % G;
    int64_t row = (int64_t)blockIdx.x * R + threadIdx.x / G;
    float4 v[NP];
    load_row<NP>(v, x, row, rows, cols, t, G);
    if constexpr (!PF) {
        finish_row<G, NP, ST>(v, y, row, rows, cols, t, red_m, red_s);
    } else {
        const int64_t step = (int64_t)gridDim.x * R;
        // every thread of a block loops alike (the block's rows run out together but for the last
        // round, whose rows past the end load nothing and store nothing)
        for (int64_t r0 = (int64_t)blockIdx.x * R; r0 < rows; r0 += step, row += step) {
            float4 nv[NP];
            load_row<NP>(nv, x, row + step, rows, cols, t, G);
            finish_row<G, NP, ST>(v, y, row, rows, cols, t, red_m, red_s);
#pragma unroll
            for (int p = 0; p < NP; p++)
                v[p] = nv[p];
            if constexpr (G > 32)
                __syncthreads(); // red_m / red_s are read by the round before
        }
    }
}

template <int G, int NP, int B, int ST, int PF>
static int go(const float *x, float *y, int64_t rows, int cols, cudaStream_t st)
{
    constexpr int R = B / G;
    int64_t grid = (rows + R - 1) / R;
    if (PF) {
        int per_sm = 0, sms = 0, dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fwd<G, NP, B, ST, PF>, B, 0);
        if ((int64_t)per_sm * sms < grid)
            grid = (int64_t)per_sm * sms;
    }
    fwd<G, NP, B, ST, PF><<<(unsigned)grid, B, 0, st>>>(x, y, rows, cols);
    return cudaGetLastError() != cudaSuccess;
}

#define E4(G, NP, B)                                                                                             \
    if (g == G && np == NP && b == B) {                                                                       \
        if (st && pf) return go<G, NP, B, 1, 1>(x, y, rows, cols, s);                                         \
        if (st) return go<G, NP, B, 1, 0>(x, y, rows, cols, s);                                               \
        if (pf) return go<G, NP, B, 0, 1>(x, y, rows, cols, s);                                               \
        return go<G, NP, B, 0, 0>(x, y, rows, cols, s);                                                       \
    }
#define EB(G, NP) E4(G, NP, 64) E4(G, NP, 128) E4(G, NP, 256)
#define EBB(G, NP) E4(G, NP, 128) E4(G, NP, 256) E4(G, NP, 512)

// g threads a row with np packs each, blocks of b, st streaming stores, pf the looping grid; 2 where
// the shape is not built or does not cover the row
extern "C" int fwd_launch(int g, int np, int b, int st, int pf, const float *x, float *y, int64_t rows, int cols,
                          void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (cols % 4 || g * np * 4 < cols)
        return 2;
    EB(4, 8) EB(8, 4) EB(16, 2) EB(32, 1)
    EB(8, 8) EB(16, 4) EB(32, 2) EB(64, 1)
    EB(16, 8) EB(32, 4) EB(64, 2) EBB(128, 1)
    EB(32, 8) EB(64, 4) EBB(128, 2) E4(256, 1, 256) E4(256, 1, 512)
    E4(32, 8, 32) E4(16, 8, 32) E4(8, 8, 32)
    return 2;
}
