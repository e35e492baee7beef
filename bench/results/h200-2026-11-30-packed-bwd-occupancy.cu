// Experiment (occupancy and L1), command 4 of h200-2026-11-30-branchless-packed-bwd.md: the
// bisection's kernels (h200-2026-11-30-packed-bwd-bisect.cu) with the blocks a SM capped by a
// persistent grid (SMs x cap blocks, each taking rows in turn; cap 0: a block a row) and the shared
// memory carveout set or not (-1: the driver's choice). The lean held bf16 backward (a block a row,
// NP packs of 16 bytes a thread held as loaded) with the library's per-row generality added by F
// bits: 1 BC: a bounds check per pack on loads and stores; 2 ST: row strides from parameters;
// 4 BR: log-softmax and scale chosen at run time (the share's branch, four store bodies);
// 8 RS: the block sum's second level as shuffles.
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
template <int RS>
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
    if (RS) {
        float s = (threadIdx.x & 31) < nw ? red[threadIdx.x & 31] : 0.0f;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1)
            s += __shfl_xor_sync(0xffffffffu, s, o);
        return s;
    }
    float s = 0.0f;
    for (int i = 0; i < nw; i++)
        s += red[i];
    return s;
}
template <int NP, int F, int LOG, int SC>
__device__ __forceinline__ void store(char *xr, const uint4 *py, const uint4 *pd, float s, float scale, int cols)
{
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int col = (p * blockDim.x + threadIdx.x) * 8;
        if ((F & 1) && col >= cols)
            continue;
        const uint32_t *wy = (const uint32_t *)&py[p], *wd = (const uint32_t *)&pd[p];
        uint4 o;
        uint32_t *wo = (uint32_t *)&o;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            float a, b;
            if (LOG) {
                a = lo(wd[i]) - __expf(lo(wy[i])) * s;
                b = hi(wd[i]) - __expf(hi(wy[i])) * s;
            } else {
                a = lo(wy[i]) * (lo(wd[i]) - s);
                b = hi(wy[i]) * (hi(wd[i]) - s);
            }
            if (SC) {
                a *= scale;
                b *= scale;
            }
            wo[i] = pk(a, b);
        }
        *(uint4 *)(xr + (size_t)col * 2) = o;
    }
}
template <int NP, int F>
__device__ __forceinline__ void body(long long row, const void *y, const void *dy, void *dx, int cols, long long ys, long long ds,
                                     long long xs, int log, float scale)
{
    const char *yr = (const char *)y + ((F & 2) ? row * ys : row * cols) * 2;
    const char *dr = (const char *)dy + ((F & 2) ? row * ds : row * cols) * 2;
    char *xr = (char *)dx + ((F & 2) ? row * xs : row * cols) * 2;
    uint4 py[NP], pd[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int col = (p * blockDim.x + threadIdx.x) * 8;
        if ((F & 1) && col >= cols) {
            py[p] = pd[p] = make_uint4(0, 0, 0, 0);
            continue;
        }
        py[p] = ld_last(yr + (size_t)col * 2);
        pd[p] = ld_last(dr + (size_t)col * 2);
    }
    float acc = 0.0f;
    const bool lg = (F & 4) && log;
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const uint32_t *wy = (const uint32_t *)&py[p], *wd = (const uint32_t *)&pd[p];
#pragma unroll
        for (int i = 0; i < 4; i++)
            acc += lg ? lo(wd[i]) + hi(wd[i]) : lo(wy[i]) * lo(wd[i]) + hi(wy[i]) * hi(wd[i]);
    }
    const float s = block_sum<(F & 8) ? 1 : 0>(acc);
    if (F & 4) {
        const int sc = scale != 1.0f;
        if (log) {
            if (sc) store<NP, F, 1, 1>(xr, py, pd, s, scale, cols); else store<NP, F, 1, 0>(xr, py, pd, s, scale, cols);
        } else {
            if (sc) store<NP, F, 0, 1>(xr, py, pd, s, scale, cols); else store<NP, F, 0, 0>(xr, py, pd, s, scale, cols);
        }
    } else {
        store<NP, F, 0, 0>(xr, py, pd, s, scale, cols);
    }
}
/* The bisection's own kernel (a block a row), as it was built there: f = 100. */
template <int NP, int F>
__global__ __launch_bounds__(256) void k_small(const void *y, const void *dy, void *dx, int cols, long long ys,
                                               long long ds, long long xs, int log, float scale)
{
    body<NP, F>(blockIdx.x, y, dy, dx, cols, ys, ds, xs, log, scale);
}

/* CV only makes a kernel of its own for each carveout setting (the attribute stays with the function). */
template <int NP, int F, int PERSIST, int CV>
__global__ __launch_bounds__(256) void k_occ(const void *y, const void *dy, void *dx, int rows, int cols, long long ys,
                                             long long ds, long long xs, int log, float scale)
{
    const long long step = PERSIST ? gridDim.x : rows;
    for (long long row = blockIdx.x; row < rows; row += step) {
        body<NP, F>(row, y, dy, dx, cols, ys, ds, xs, log, scale);
        if (PERSIST)
            __syncthreads(); /* the block sum's scratch is reused by the next row */
    }
}

template <typename K>
static void prep(K k, int carveout, int block, int *occ)
{
    if (carveout >= 0)
        cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, carveout);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(occ, k, block, 0);
}

extern "C" int occ_launch(int f, int cap, int carveout, const void *y, const void *dy, void *dx, int rows, int cols,
                          void *stream, int *occ)
{
    cudaStream_t st = (cudaStream_t)stream;
    const int block = cols / 16; /* NP = 2: 16 bf16 a thread */
    if (cols % 16 || block > 256 || block % 32 || (cap && carveout >= 0) || (carveout > 0 && carveout != 100))
        return 2;
    int sms = 0, o = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const int grid = cap ? (sms * cap < rows ? sms * cap : rows) : rows;
#define K(F, P, CV)                                                                                  \
    {                                                                                                \
        prep(k_occ<2, F, P, CV>, carveout, block, &o);                                               \
        k_occ<2, F, P, CV><<<grid, block, 0, st>>>(y, dy, dx, rows, cols, cols, cols, cols, 0, 1.0f); \
    }
#define KF(F)                                                                                        \
    case F:                                                                                          \
        if (cap)                                                                                     \
            K(F, 1, 0)                                                                               \
        else if (carveout < 0)                                                                       \
            K(F, 0, 0)                                                                               \
        else if (carveout == 0)                                                                      \
            K(F, 0, 1)                                                                               \
        else                                                                                         \
            K(F, 0, 2)                                                                               \
        break;
    switch (f) {
    KF(0)
    KF(15)
    case 100:
        if (cap || carveout >= 0)
            return 2;
        prep(k_small<2, 0>, -1, block, &o);
        k_small<2, 0><<<grid, block, 0, st>>>(y, dy, dx, cols, cols, cols, cols, 0, 1.0f);
        break;
    default:
        return 2;
    }
    if (occ)
        *occ = o;
    return cudaGetLastError() != cudaSuccess;
}
