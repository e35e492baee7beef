// Experiment only (issue 14's decode rows: few fp32 rows of 128K-512K columns, SPLIT's held layout):
// a row is held by a group of G co-resident blocks, each holding its chunk in registers and
// exchanging its (max, sum) with the group's other blocks through global memory. The library reads
// every row's chunk, exchanges, then writes: at 8 rows the reads of all rows, then the writes of all
// rows, one after the other (h200-2026-11-29-decode-phases.md). Here the rows are taken in R rounds:
// every block holds a chunk of R rows (round i: row j + i rows / R), loads all of them at once, round
// 0's first, and exchanges and writes round i as soon as its loads are in, while the later rounds'
// loads are still arriving: a round's writes in flight with the next round's reads. R = 1 is the
// library's order. Each block's partial is a pair of 64-bit words, each the float and the launch's
// epoch, written whole and polled until every block of the group has written this launch's (no
// counter to reset, no fence: each word carries its own tag). Built with nvcc -arch=sm_90 -O3
// -shared -Xcompiler -fPIC.
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

// the block's max (OP 0) or sum (OP 1); red: a slot a warp, read after the barrier
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

// Block b of the grid: group member g = b % G of round-row j = b / G; its chunk of row j + i (rows /
// R) in round i is [g chunk, (g + 1) chunk) of the row's columns, pack p T + t of it in thread t.
// pairs: rows x G slots of two 64-bit words.
template <int R, int NPK, int T>
__global__ __launch_bounds__(T) void dec(const float *x, float *y, int rows, int cols, int G, int chunk, unsigned epoch,
                                         uint64_t *pairs)
{
    __shared__ float red[2][T / 32];
    const float L2E = 1.4426950408889634f;
    const int rpr = rows / R, g = (int)blockIdx.x % G, j = (int)blockIdx.x / G, t = (int)threadIdx.x;
    const int c0 = g * chunk, lim = min(chunk, cols - c0); // this block's columns of each row
    float4 v[R][NPK];
#pragma unroll
    for (int i = 0; i < R; i++) {
        const float *xr = x + (int64_t)(j + i * rpr) * cols + c0;
#pragma unroll
        for (int p = 0; p < NPK; p++) {
            const int c = (p * T + t) * 4;
            v[i][p] = c < lim ? *(const float4 *)(xr + c) : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
        }
    }
#pragma unroll
    for (int i = 0; i < R; i++) {
        const int row = j + i * rpr;
        float m = -INFINITY;
#pragma unroll
        for (int p = 0; p < NPK; p++)
            m = fmaxf(m, fmaxf(fmaxf(v[i][p].x, v[i][p].y), fmaxf(v[i][p].z, v[i][p].w)));
        m = block_reduce<0, T>(m, red[0]);
        const float ml = m * L2E;
        float s = 0.0f;
#pragma unroll
        for (int p = 0; p < NPK; p++)
            s += ex2(fmaf(v[i][p].x, L2E, -ml)) + ex2(fmaf(v[i][p].y, L2E, -ml)) + ex2(fmaf(v[i][p].z, L2E, -ml)) +
                 ex2(fmaf(v[i][p].w, L2E, -ml));
        s = block_reduce<1, T>(s, red[1]);
        uint64_t *slots = pairs + (int64_t)row * G * 2;
        if (t == 0)
            put_pair(slots + 2 * g, m, s, epoch);
        // every warp polls the group's slots, a lane every 32nd, until all hold this launch's pairs,
        // and combines them (online: max, then the sum rescaled)
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
        float *yr = y + (int64_t)row * cols + c0;
#pragma unroll
        for (int p = 0; p < NPK; p++) {
            const int c = (p * T + t) * 4;
            if (c < lim)
                __stcs((float4 *)(yr + c), make_float4(ex2(fmaf(v[i][p].x, L2E, -Ml)) * k, ex2(fmaf(v[i][p].y, L2E, -Ml)) * k,
                                                       ex2(fmaf(v[i][p].z, L2E, -Ml)) * k, ex2(fmaf(v[i][p].w, L2E, -Ml)) * k));
        }
    }
}

static uint64_t *pairs_buf = nullptr;
static unsigned epoch_next = 1;
enum { MAX_SLOTS = 1 << 16 }; // rows x G

template <int R, int NPK, int T>
static int go(const float *x, float *y, int rows, int cols, cudaStream_t st, int *grid_out, int *regs)
{
    if (rows % R)
        return 2;
    const int chunk = NPK * T * 4, G = (cols + chunk - 1) / chunk, grid = G * (rows / R);
    if ((int64_t)G * rows > MAX_SLOTS || G < 2)
        return 2;
    int per_sm = 0, sms = 0, dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, dec<R, NPK, T>, T, 0);
    if ((int64_t)per_sm * sms < grid) // every block of a group must be resident: the poll waits on them
        return 2;
    if (pairs_buf == nullptr) {
        if (cudaMalloc(&pairs_buf, (size_t)MAX_SLOTS * 16) != cudaSuccess)
            return 1;
        cudaMemset(pairs_buf, 0, (size_t)MAX_SLOTS * 16);
        cudaDeviceSynchronize();
    }
    cudaFuncAttributes fa;
    cudaFuncGetAttributes(&fa, dec<R, NPK, T>);
    *regs = fa.numRegs;
    *grid_out = grid;
    dec<R, NPK, T><<<grid, T, 0, st>>>(x, y, rows, cols, G, chunk, epoch_next++, pairs_buf);
    return cudaGetLastError() != cudaSuccess;
}

#define V(R, NPK, T)                                                                                           \
    if (r == R && npk == NPK && t == T)                                                                       \
        return go<R, NPK, T>(x, y, rows, cols, (cudaStream_t)stream, grid, regs);

// r rounds, npk packs of 16 bytes a thread a round, t threads a block; 2 where the variant does not
// fit the shape (rows not a multiple of r, a group of one block, more blocks than are resident)
extern "C" int decode_launch(int r, int npk, int t, const float *x, float *y, int rows, int cols, void *stream,
                             int *grid, int *regs)
{
    V(1, 2, 128) V(1, 4, 128) V(1, 6, 128) V(1, 8, 128) V(1, 2, 256) V(1, 4, 256) V(1, 6, 256) V(1, 8, 256)
    V(2, 2, 128) V(2, 3, 128) V(2, 4, 128) V(2, 6, 128) V(2, 2, 256) V(2, 3, 256) V(2, 4, 256) V(2, 6, 256)
    V(4, 1, 128) V(4, 2, 128) V(4, 3, 128) V(4, 1, 256) V(4, 2, 256) V(4, 3, 256)
    V(8, 1, 128) V(8, 1, 256)
    return 2;
}
