// Experiment only (issue 14's 16-bit rows of M = 4096 past what one block holds at two blocks a SM:
// 36872-50256 columns, 65536-262144): a plain 16-bit softmax forward whose row is held by a thread
// block cluster of K blocks (sm_90), each holding its K-th of the row as loaded (NP packs of 16 bytes
// a thread, as ROW's packed kernels hold theirs), the blocks combining their (max, sum) pairs through
// distributed shared memory. Each block's share is the size at which ROW runs two blocks a SM at
// 96-98% of a same-size copy (16K-32K columns), where ROW itself, holding the whole row in one block,
// runs one block a SM at 85-88% (50256) and SPLIT's global-memory exchange 84-88% (131072, 262144).
// The body takes two of ROW's packed kernels' ways (hip/softmax_row.hip): the max on the 16-bit words
// two halves at a time, the normaliser in the stores' exponent (no product an element); without them
// (the session's commands 1-3) its one-block control ran 0.88 of ROW's kernel at 32768 columns.
// Two grids: a cluster per row (the GPU starts a cluster wherever one ends), or the resident clusters
// looping over rows with ROW's L2 prefetch of a later row. Dense rows whose length is a multiple of 8. Built with nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

template <typename T> struct pk;
template <> struct pk<__nv_bfloat16> {
    // the larger of each pair's halves, two at a time (HMNMX2), and of a word's two
    static __device__ __forceinline__ uint32_t max2(uint32_t a, uint32_t b)
    {
        __nv_bfloat162 r = __hmax2(*(__nv_bfloat162 *)&a, *(__nv_bfloat162 *)&b);
        return *(uint32_t *)&r;
    }
    static __device__ __forceinline__ float hmax(uint32_t w)
    {
        return fmaxf(__uint_as_float(w << 16), __uint_as_float(w & 0xffff0000u));
    }
    static __device__ __forceinline__ void get(uint4 v, float *f)
    {
        const uint32_t *w = (const uint32_t *)&v;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            f[2 * i] = __uint_as_float(w[i] << 16);
            f[2 * i + 1] = __uint_as_float(w[i] & 0xffff0000u);
        }
    }
    static __device__ __forceinline__ uint32_t put2(float a, float b)
    {
        __nv_bfloat162 o = __floats2bfloat162_rn(a, b);
        return *(uint32_t *)&o;
    }
};
template <> struct pk<__half> {
    static __device__ __forceinline__ uint32_t max2(uint32_t a, uint32_t b)
    {
        __half2 r = __hmax2(*(__half2 *)&a, *(__half2 *)&b);
        return *(uint32_t *)&r;
    }
    static __device__ __forceinline__ float hmax(uint32_t w)
    {
        const float2 t = __half22float2(*(__half2 *)&w);
        return fmaxf(t.x, t.y);
    }
    static __device__ __forceinline__ void get(uint4 v, float *f)
    {
        const __half2 *h = (const __half2 *)&v;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            const float2 t = __half22float2(h[i]);
            f[2 * i] = t.x;
            f[2 * i + 1] = t.y;
        }
    }
    static __device__ __forceinline__ uint32_t put2(float a, float b)
    {
        __half2 o = __floats2half2_rn(a, b);
        return *(uint32_t *)&o;
    }
};

__device__ __forceinline__ float ex2(float x)
{
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}

// the block's max (OP 0) or sum (OP 1): shuffles, then one slot a warp in shared memory
template <int OP> __device__ __forceinline__ float block_reduce(float v, float *red)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float u = __shfl_xor_sync(0xffffffffu, v, o);
        v = OP ? v + u : fmaxf(v, u);
    }
    if ((threadIdx.x & 31) == 0)
        red[threadIdx.x >> 5] = v;
    __syncthreads();
    const int nw = blockDim.x >> 5;
    float r = red[0];
    for (int i = 1; i < nw; i++)
        r = OP ? r + red[i] : fmaxf(r, red[i]);
    return r;
}

__device__ __forceinline__ unsigned cluster_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ unsigned cluster_size()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }
// the float at the same shared-memory address in block `rank` of the cluster
__device__ __forceinline__ float2 remote_pair(const float2 *p, unsigned rank)
{
    uint32_t local = (uint32_t)__cvta_generic_to_shared(p), remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
    float2 v;
    asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "r"(remote) : "memory");
    return v;
}

__device__ __forceinline__ void prefetch_l2(const void *p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

// Rows per cluster of K blocks (K a launch attribute); block `rank` holds packs [rank * share,
// (rank + 1) * share) of the row, pack p * blockDim.x + t of its share in thread t, p < NP. PF 0: a
// cluster per row (grid rows x K); PF 1: the resident clusters loop over the rows, each block asking L2
// for its share of the row `ahead` visits on before loading its own (as ROW's plain forward asks for
// the row resident / 8 visits on, plan.c's HSM_ROW_AHEAD_DIV).
template <typename T, int NP, int MAXB, int MINB, int PF, int ST>
__global__ __launch_bounds__(MAXB, MINB) void cfwd(const T *x, T *y, int64_t rows, int cols, int share, int ahead)
{
    __shared__ float red[MAXB / 32];
    __shared__ float2 pair[2]; // by the row's visit parity: a block writes one while the others may read the other
    const float L2E = 1.4426950408889634f;
    const unsigned K = cluster_size(), rank = cluster_rank();
    const int64_t clusters = gridDim.x / K;
    const int packs = cols / 8;
    const int first = (int)rank * share, end = min(first + share, packs);
    int par = 0;
    for (int64_t row = blockIdx.x / K; row < rows; row += PF ? clusters : rows, par ^= 1) {
        if (PF && ahead > 0 && row + ahead < rows) {
            const char *b = (const char *)(x + (row + ahead) * cols + (int64_t)first * 8);
            const int bytes = (end - first) * 16;
            for (int o = (int)threadIdx.x * 128; o < bytes; o += (int)blockDim.x * 128)
                prefetch_l2(b + o);
        }
        const uint4 *xr = (const uint4 *)(x + row * cols);
        uint4 *yr = (uint4 *)(y + row * cols);
        uint4 h[NP];
#pragma unroll
        for (int p = 0; p < NP; p++) {
            const int q = first + p * (int)blockDim.x + (int)threadIdx.x;
            if (q < end)
                h[p] = __ldg(xr + q);
        }
        // the max on the words as loaded, two halves an instruction, as ROW's hsm_words_max (the
        // packs past the share are left out, so no -inf word is needed)
        float m = -INFINITY;
#pragma unroll
        for (int p = 0; p < NP; p++) {
            const int q = first + p * (int)blockDim.x + (int)threadIdx.x;
            if (q < end)
                m = fmaxf(m, pk<T>::hmax(pk<T>::max2(pk<T>::max2(h[p].x, h[p].y), pk<T>::max2(h[p].z, h[p].w))));
        }
        m = block_reduce<0>(m, red);
        const float ml = m * L2E;
        float s = 0.0f;
#pragma unroll
        for (int p = 0; p < NP; p++) {
            const int q = first + p * (int)blockDim.x + (int)threadIdx.x;
            if (q < end) {
                float f[8];
                pk<T>::get(h[p], f);
#pragma unroll
                for (int i = 0; i < 8; i++)
                    s += ex2(fmaf(f[i], L2E, -ml));
            }
        }
        __syncthreads(); // red is read by every thread before it is reused
        s = block_reduce<1>(s, red);
        if (threadIdx.x == 0)
            pair[par] = make_float2(m, s);
        // the pair is written (release), and every block's is (acquire); a block arrives here only
        // after it read the pairs of its visit before, so pair[par] of two visits back is free
        cluster_arrive();
        cluster_wait();
        float M = -INFINITY;
        for (unsigned r = 0; r < K; r++)
            M = fmaxf(M, remote_pair(&pair[par], r).x);
        float S = 0.0f;
        for (unsigned r = 0; r < K; r++) {
            const float2 v = remote_pair(&pair[par], r);
            S += v.y * ex2((v.x - M) * L2E);
        }
        // the normaliser in the exponent, as ROW's 16-bit stores (hsm_expo_norm): no product an element
        const float Ml = M * L2E + __log2f(S);
#pragma unroll
        for (int p = 0; p < NP; p++) {
            const int q = first + p * (int)blockDim.x + (int)threadIdx.x;
            if (q < end) {
                float f[8];
                pk<T>::get(h[p], f);
                uint4 o;
                o.x = pk<T>::put2(ex2(fmaf(f[0], L2E, -Ml)), ex2(fmaf(f[1], L2E, -Ml)));
                o.y = pk<T>::put2(ex2(fmaf(f[2], L2E, -Ml)), ex2(fmaf(f[3], L2E, -Ml)));
                o.z = pk<T>::put2(ex2(fmaf(f[4], L2E, -Ml)), ex2(fmaf(f[5], L2E, -Ml)));
                o.w = pk<T>::put2(ex2(fmaf(f[6], L2E, -Ml)), ex2(fmaf(f[7], L2E, -Ml)));
                if (ST)
                    __stcs(yr + q, o); // st.global.cs, as ROW's stores of y
                else
                    yr[q] = o;
            }
        }
    } // red: the sum's reads of it precede every thread's cluster arrive, the next max's writes follow
    cluster_arrive(); // no block leaves while another may still read its pairs
    cluster_wait();
}

template <typename T, int NP, int MAXB, int MINB, int PF, int ST>
static int go(const void *x, void *y, int64_t rows, int cols, int K, cudaStream_t st, int *regs)
{
    const int packs = cols / 8, share = (packs + K - 1) / K;
    const int block = ((share + NP - 1) / NP + 31) / 32 * 32;
    if (block > MAXB || (MAXB > 32 && block <= MAXB / 2 && MINB == 1))
        return 2; // not this variant's block (a half-filled 1024 is the 512 variant's)
    cudaFuncAttributes fa;
    cudaFuncGetAttributes(&fa, cfwd<T, NP, MAXB, MINB, PF, ST>);
    *regs = fa.numRegs;
    cudaLaunchConfig_t c = {};
    c.blockDim = dim3((unsigned)block);
    c.stream = st;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = (unsigned)K;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    c.attrs = at;
    c.numAttrs = 1;
    int64_t clusters = rows;
    int ahead = 0;
    if (PF) {
        c.gridDim = dim3((unsigned)K);
        int n = 0;
        if (cudaOccupancyMaxActiveClusters(&n, cfwd<T, NP, MAXB, MINB, PF, ST>, &c) != cudaSuccess || n < 1)
            return 1;
        clusters = n < rows ? n : rows;
        ahead = (int)(clusters / 8);
    }
    c.gridDim = dim3((unsigned)(clusters * K));
    const cudaError_t e =
        cudaLaunchKernelEx(&c, cfwd<T, NP, MAXB, MINB, PF, ST>, (const T *)x, (T *)y, rows, cols, share, ahead);
    return e != cudaSuccess;
}

#define G(T, NP, MAXB, MINB)                                                                                   \
    (pf ? (st ? go<T, NP, MAXB, MINB, 1, 1>(x, y, rows, cols, k, s, regs)                                     \
              : go<T, NP, MAXB, MINB, 1, 0>(x, y, rows, cols, k, s, regs))                                    \
        : (st ? go<T, NP, MAXB, MINB, 0, 1>(x, y, rows, cols, k, s, regs)                                     \
              : go<T, NP, MAXB, MINB, 0, 0>(x, y, rows, cols, k, s, regs)))
#define V(NP, MAXB, MINB)                                                                                      \
    if (np == NP && maxb == MAXB)                                                                            \
        return bf ? G(__nv_bfloat16, NP, MAXB, MINB) : G(__half, NP, MAXB, MINB);

// bf: bf16 (else fp16); k blocks a cluster; np packs a thread; maxb the block bound (1024: one block a
// SM, 512: two, 256: four); pf the resident clusters looping with the L2 prefetch; st y's stores
// streaming (st.global.cs), else plain. 2 where the variant
// does not fit the row; regs: the kernel's registers.
extern "C" int cluster_launch(int bf, int k, int np, int maxb, int pf, int st, const void *x, void *y, int64_t rows, int cols,
                              void *stream, int *regs)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (cols % 8)
        return 2;
    V(4, 256, 4) V(4, 512, 2) V(4, 1024, 1) V(8, 256, 4) V(8, 512, 2) V(8, 1024, 1) V(6, 512, 2) V(6, 1024, 1)
    return 2;
}
