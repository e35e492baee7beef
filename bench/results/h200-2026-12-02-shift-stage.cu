// Experiment only (issue 14's target 1: fp32 rows whose x and y lie at different offsets from 16
// bytes, e.g. 4096 x 12344 with x's rows 12345 apart and y dense, at 0.90-0.92 of the dense rows in
// the library). The library's _shift twins load x's 16-byte packs and store y's through lanes'
// shuffles, so each warp's 512-byte store spans five 128-byte lines of y (four on dense rows); laying
// the row out from y's lines instead moved the fifth line to the loads and cost the same. Asked here:
// with both streams on their own lines, x's packs loaded and y's packs stored each from its own
// 16-byte boundary, does the row run at the dense rows' speed? y's values pass through shared memory
// to get there.
// A block a row, NP 16-byte packs a thread held in registers as fp32 values, one exponential an
// element (the values kept between the sum and the store). x's row: its head (the columns before its
// first 16-byte boundary) an element each for the first threads, then packs from that boundary, the
// last pack's tail an element at a time. STAGE 0: y stored from x's packs' columns, in 16-byte packs
// where y's column lies on 16 bytes too (dense rows), else an element at a time. STAGE 1: every
// value into shared memory at its column plus y's offset (so that y's 16-byte packs lie on 16 bytes
// there), a block barrier, then y's head an element each, y's packs from y's own boundary in 16-byte
// loads and stores, the tail an element at a time (the row's bytes in shared memory: at 30001 columns
// 120 KB, a block a SM). STAGE 2: the same through a ring of three of the block's slices of the row
// (48 KB at 1024 threads), a barrier a slice. Stores evict-first (st.global.cs) as the library's.
#include <stdint.h>

__device__ __forceinline__ float ex2(float x)
{
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
// Elements from p to its next 16-byte boundary (0 where p lies on one).
__device__ __forceinline__ int head_of(const float *p) { return (int)((16 - (uintptr_t)p % 16) % 16) / 4; }

__device__ __forceinline__ float block_max(float v, float *red)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    if (threadIdx.x % 32 == 0)
        red[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x % 32 < blockDim.x / 32 ? red[threadIdx.x % 32] : -INFINITY;
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float block_sum(float v, float *red)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0)
        red[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x % 32 < blockDim.x / 32 ? red[threadIdx.x % 32] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

template <int NP, int STAGE>
__global__ void __launch_bounds__(1024) stage_kernel(const float *x, float *y, int cols, int64_t xs, int64_t ys)
{
    extern __shared__ float4 srow4[];
    float *srow = (float *)srow4;
    __shared__ float red_max[32], red_sum[32];
    const int t = threadIdx.x, B = blockDim.x;
    const float *xr = x + (int64_t)blockIdx.x * xs;
    float *yr = y + (int64_t)blockIdx.x * ys;
    const int hx = head_of(xr) < cols ? head_of(xr) : cols;
    float v[4 * NP], h = -INFINITY;
    if (t < hx)
        h = xr[t];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int c = hx + 4 * (p * B + t);
        if (c + 4 <= cols) {
            const float4 u = *(const float4 *)(xr + c);
            v[4 * p] = u.x, v[4 * p + 1] = u.y, v[4 * p + 2] = u.z, v[4 * p + 3] = u.w;
        } else {
#pragma unroll
            for (int i = 0; i < 4; i++)
                v[4 * p + i] = c + i < cols ? xr[c + i] : -INFINITY;
        }
    }
    float m = h;
#pragma unroll
    for (int i = 0; i < 4 * NP; i++)
        m = fmaxf(m, v[i]);
    m = block_max(m, red_max);
    const float k = 1.4426950408889634f, mk = m * k;
    float s = 0.0f;
    h = ex2(fmaf(h, k, -mk));
    if (t < hx)
        s = h;
#pragma unroll
    for (int i = 0; i < 4 * NP; i++) {
        v[i] = ex2(fmaf(v[i], k, -mk));
        s += v[i];
    }
    const float inv = 1.0f / block_sum(s, red_sum);
    if constexpr (STAGE == 0) {
        if (t < hx)
            __stcs(yr + t, h * inv);
        const bool vec = head_of(yr + hx) == 0;
#pragma unroll
        for (int p = 0; p < NP; p++) {
            const int c = hx + 4 * (p * B + t);
            if (vec && c + 4 <= cols) {
                __stcs((float4 *)(yr + c), make_float4(v[4 * p] * inv, v[4 * p + 1] * inv, v[4 * p + 2] * inv,
                                                       v[4 * p + 3] * inv));
            } else {
#pragma unroll
                for (int i = 0; i < 4; i++)
                    if (c + i < cols)
                        __stcs(yr + c + i, v[4 * p + i] * inv);
            }
        }
    } else if constexpr (STAGE == 2) {
        // Slice p of the row: columns [lo, hi), lo = hx + 4 p B (slice 0 from column 0, x's head with
        // it), a ring of three slices in shared memory at column + o (mod R), so that y's 16-byte packs
        // lie on 16 bytes there. Each y pack goes out in the turn its last column arrives; its first ones
        // may lie in the slice before. A turn's writes land where the slice three before lay, last read
        // two turns back: one barrier a turn.
        const int hy = head_of(yr) < cols ? head_of(yr) : cols, o = (4 - hy) % 4, R = 12 * B;
        const int whole = (cols - hy) / 4, tail0 = hy + 4 * whole;
#pragma unroll
        for (int p = 0; p < NP; p++) {
            const int lo = p == 0 ? 0 : hx + 4 * p * B, hi = hx + 4 * (p + 1) * B;
            if (lo >= cols)
                break;
            if (p == 0 && t < hx)
                srow[(t + o) % R] = h * inv;
            const int c = hx + 4 * (p * B + t), r = (c + o) % R; /* one division a pack */
#pragma unroll
            for (int i = 0; i < 4; i++)
                if (c + i < cols)
                    srow[r + i < R ? r + i : r + i - R] = v[4 * p + i] * inv;
            __syncthreads();
            if (p == 0 && t < hy)
                __stcs(yr + t, srow[t + o]);
            const int qlo = max(0, (lo - hy) >> 2), qhi = min((hi - hy) >> 2, whole); // last column cy + 3 in [lo, hi)
            for (int q = qlo + t; q < qhi; q += B)
                __stcs((float4 *)(yr + hy + 4 * q), srow4[((hy + 4 * q + o) % R) / 4]);
            if (cols - 1 >= lo && cols - 1 < hi && tail0 + t < cols)
                __stcs(yr + tail0 + t, srow[(tail0 + t + o) % R]);
        }
    } else {
        // Shared memory index of column c: c + o, o = (4 - hy) % 4, so y's pack at hy + 4q lies at 4 (q + (hy > 0)).
        const int hy = head_of(yr) < cols ? head_of(yr) : cols, o = (4 - hy) % 4;
#pragma unroll
        for (int p = 0; p < NP; p++) {
            const int c = hx + 4 * (p * B + t);
#pragma unroll
            for (int i = 0; i < 4; i++)
                if (c + i < cols)
                    srow[c + i + o] = v[4 * p + i] * inv;
        }
        if (t < hx)
            srow[t + o] = h * inv;
        __syncthreads();
        if (t < hy)
            __stcs(yr + t, srow[t + o]);
        const int packs = (cols - hy) / 4;
        for (int q = t; q < packs; q += B)
            __stcs((float4 *)(yr + hy + 4 * q), srow4[q + (hy > 0)]);
        const int tail = hy + 4 * packs + t;
        if (t < 4 && tail < cols)
            __stcs(yr + tail, srow[tail + o]);
    }
}

template <int NP, int STAGE> static int launch_one(const float *x, float *y, int rows, int cols, int64_t xs, int64_t ys,
                                                   int B, cudaStream_t st)
{
    const size_t smem = STAGE == 1 ? ((size_t)cols + 8) * sizeof(float) : STAGE == 2 ? (size_t)12 * B * sizeof(float) : 0;
    if (STAGE && cudaFuncSetAttribute(stage_kernel<NP, STAGE>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem))
        return 2;
    stage_kernel<NP, STAGE><<<rows, B, smem, st>>>(x, y, cols, xs, ys);
    return cudaGetLastError() != cudaSuccess;
}

// np: 2, 3, 4, 6 or 8 packs a thread; stage 0, 1 or 2; B threads (a multiple of 32, B np 4 >= cols + 3).
extern "C" int stage_launch(int np, int stage, int B, const float *x, float *y, int rows, int cols, int64_t xs,
                            int64_t ys, void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    if (B % 32 || B > 1024 || (int64_t)B * np * 4 < cols + 3)
        return 1;
#define ONE(N)                                                                                          \
    if (np == N)                                                                                        \
        return stage == 2 ? launch_one<N, 2>(x, y, rows, cols, xs, ys, B, st)                          \
               : stage    ? launch_one<N, 1>(x, y, rows, cols, xs, ys, B, st)                          \
                          : launch_one<N, 0>(x, y, rows, cols, xs, ys, B, st);
    ONE(2) ONE(3) ONE(4) ONE(6) ONE(8)
#undef ONE
    return 1;
}
