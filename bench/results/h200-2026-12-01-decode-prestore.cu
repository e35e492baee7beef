// Experiment only (issue 14's decode rows: few fp32 rows of 128K-512K columns, SPLIT's held layout,
// h200-2026-12-01-decode-rounds.cu's R1): a row is held by a group of G co-resident blocks, each
// holding its chunk in registers and exchanging its (max, sum) with the group's other blocks through
// global memory; then each block writes its chunk of y. Every block reads, then waits, then writes,
// so the launch's writes start only after its reads and the exchange. Timed after a flush that
// leaves L2 full of written lines (as a decode step's logits producer does), a line of y written
// first must push one of those out (a DRAM write) before it lands. PRE says whether each block first
// writes its chunk of y with something, so those lines are taken in L2 while the reads are in flight
// and the final values land on lines L2 already holds:
//   0 no (the library's order; final stores streaming, .cs)
//   1 zeros, right after the chunk's loads are issued (each thread its own packs: a load and a later
//     store of the same thread to the same address keep their order, so y may be x)
//   2 exp(x - the block's max) (unnormalized), after the block's sum, before the exchange
//   3 zeros, after the block's max (the loads arrived), before the exchange
//   4 no, final stores plain
// Final stores of 1-3 plain. Built with nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC.
#include <stdint.h>

__device__ __forceinline__ float ex2(float x)
{
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
__device__ __forceinline__ void put_pair(uint64_t *p, float m, float s, unsigned epoch)
{
    const uint64_t w0 = (uint64_t)epoch << 32 | __float_as_uint(m), w1 = (uint64_t)epoch << 32 | __float_as_uint(s);
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(w0), "l"(w1) : "memory");
}
__device__ __forceinline__ void get_pair(const uint64_t *p, uint64_t *w0, uint64_t *w1)
{
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(*w0), "=l"(*w1) : "l"(p) : "memory");
}
template <int OP, int T> __device__ __forceinline__ float block_reduce(float v, float *red)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float u = __shfl_xor_sync(0xffffffffu, v, o);
        v = OP ? v + u : fmaxf(v, u);
    }
    if ((threadIdx.x & 31) == 0)
        red[threadIdx.x >> 5] = v;
    __syncthreads();
    float r = red[0];
#pragma unroll
    for (int i = 1; i < T / 32; i++)
        r = OP ? r + red[i] : fmaxf(r, red[i]);
    return r;
}

template <int NPK, int T, int PRE>
__global__ __launch_bounds__(T) void dec(const float *x, float *y, int rows, int cols, int G, int chunk, unsigned epoch,
                                         uint64_t *pairs)
{
    __shared__ float red[2][T / 32];
    const float L2E = 1.4426950408889634f;
    const int g = (int)blockIdx.x % G, row = (int)blockIdx.x / G, t = (int)threadIdx.x;
    const int c0 = g * chunk, lim = min(chunk, cols - c0);
    const float *xr = x + (int64_t)row * cols + c0;
    float *yr = y + (int64_t)row * cols + c0;
    float4 v[NPK];
#pragma unroll
    for (int p = 0; p < NPK; p++) {
        const int c = (p * T + t) * 4;
        v[p] = c < lim ? *(const float4 *)(xr + c) : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    }
    if constexpr (PRE == 1) {
#pragma unroll
        for (int p = 0; p < NPK; p++) {
            const int c = (p * T + t) * 4;
            if (c < lim)
                *(float4 *)(yr + c) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
    }
    float m = -INFINITY;
#pragma unroll
    for (int p = 0; p < NPK; p++)
        m = fmaxf(m, fmaxf(fmaxf(v[p].x, v[p].y), fmaxf(v[p].z, v[p].w)));
    m = block_reduce<0, T>(m, red[0]);
    if constexpr (PRE == 3) {
#pragma unroll
        for (int p = 0; p < NPK; p++) {
            const int c = (p * T + t) * 4;
            if (c < lim)
                *(float4 *)(yr + c) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
    }
    const float ml = m * L2E;
    float s = 0.0f;
#pragma unroll
    for (int p = 0; p < NPK; p++)
        s += ex2(fmaf(v[p].x, L2E, -ml)) + ex2(fmaf(v[p].y, L2E, -ml)) + ex2(fmaf(v[p].z, L2E, -ml)) +
             ex2(fmaf(v[p].w, L2E, -ml));
    s = block_reduce<1, T>(s, red[1]);
    if constexpr (PRE == 2) {
#pragma unroll
        for (int p = 0; p < NPK; p++) {
            const int c = (p * T + t) * 4;
            if (c < lim)
                *(float4 *)(yr + c) = make_float4(ex2(fmaf(v[p].x, L2E, -ml)), ex2(fmaf(v[p].y, L2E, -ml)),
                                                  ex2(fmaf(v[p].z, L2E, -ml)), ex2(fmaf(v[p].w, L2E, -ml)));
        }
    }
    uint64_t *slots = pairs + (int64_t)row * G * 2;
    if (t == 0)
        put_pair(slots + 2 * g, m, s, epoch);
    float M = -INFINITY, S = 0.0f;
    for (int k = t & 31; k < G; k += 32) {
        uint64_t w0, w1;
        do
            get_pair(slots + 2 * k, &w0, &w1);
        while ((unsigned)(w0 >> 32) != epoch || (unsigned)(w1 >> 32) != epoch);
        const float mk = __uint_as_float((unsigned)w0), sk = __uint_as_float((unsigned)w1);
        const float nm = fmaxf(M, mk);
        S = S * ex2((M - nm) * L2E) + sk * ex2((mk - nm) * L2E);
        M = nm;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float om = __shfl_xor_sync(0xffffffffu, M, o), os = __shfl_xor_sync(0xffffffffu, S, o);
        const float nm = fmaxf(M, om);
        S = (M == -INFINITY ? 0.0f : S * ex2((M - nm) * L2E)) + (om == -INFINITY ? 0.0f : os * ex2((om - nm) * L2E));
        M = nm;
    }
    const float Ml = M * L2E, k = 1.0f / S;
#pragma unroll
    for (int p = 0; p < NPK; p++) {
        const int c = (p * T + t) * 4;
        if (c < lim) {
            const float4 o = make_float4(ex2(fmaf(v[p].x, L2E, -Ml)) * k, ex2(fmaf(v[p].y, L2E, -Ml)) * k,
                                         ex2(fmaf(v[p].z, L2E, -Ml)) * k, ex2(fmaf(v[p].w, L2E, -Ml)) * k);
            if (PRE == 0)
                __stcs((float4 *)(yr + c), o);
            else
                *(float4 *)(yr + c) = o;
        }
    }
}

static uint64_t *pairs_buf = nullptr;
static unsigned epoch_next = 1;
enum { MAX_SLOTS = 1 << 16 }; // rows x G

template <int NPK, int T, int PRE>
static int go(const float *x, float *y, int rows, int cols, cudaStream_t st, int *grid_out, int *regs)
{
    const int chunk = NPK * T * 4, G = (cols + chunk - 1) / chunk, grid = G * rows;
    if ((int64_t)G * rows > MAX_SLOTS || G < 2)
        return 2;
    int per_sm = 0, sms = 0, dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, dec<NPK, T, PRE>, T, 0);
    if ((int64_t)per_sm * sms < grid) // every block of a group must be resident: the poll waits on them
        return 2;
    if (pairs_buf == nullptr) {
        if (cudaMalloc(&pairs_buf, (size_t)MAX_SLOTS * 16) != cudaSuccess)
            return 1;
        cudaMemset(pairs_buf, 0, (size_t)MAX_SLOTS * 16);
        cudaDeviceSynchronize();
    }
    cudaFuncAttributes fa;
    cudaFuncGetAttributes(&fa, dec<NPK, T, PRE>);
    *regs = fa.numRegs;
    *grid_out = grid;
    dec<NPK, T, PRE><<<grid, T, 0, st>>>(x, y, rows, cols, G, chunk, epoch_next++, pairs_buf);
    return cudaGetLastError() != cudaSuccess;
}

#define V(NPK, T, PRE)                                                                                        \
    if (npk == NPK && t == T && pre == PRE)                                                                   \
        return go<NPK, T, PRE>(x, y, rows, cols, (cudaStream_t)stream, grid, regs);
#define VP(NPK, T) V(NPK, T, 0) V(NPK, T, 1) V(NPK, T, 2) V(NPK, T, 3) V(NPK, T, 4)

// npk packs of 16 bytes a thread, t threads a block, pre as above; 2 where the variant does not fit
// the shape (a group of one block, more blocks than are resident)
extern "C" int decode_launch(int npk, int t, int pre, const float *x, float *y, int rows, int cols, void *stream,
                             int *grid, int *regs)
{
    VP(8, 128) VP(4, 256)
    return 2;
}
