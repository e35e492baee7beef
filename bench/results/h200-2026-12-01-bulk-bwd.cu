// Experiment: the softmax backward (dx = y (dy - sum(y dy))) with each row's y and dy brought into
// shared memory by the bulk copy engine (cp.async.bulk, sm_90: one instruction a tensor row, done on
// an mbarrier) instead of by every thread's 16-byte loads into registers. Issue 11's last rows (bf16
// 4096 x 4096 and 4096 x 16384) run at 95-101% of the copy bandwidth, within 0.5% of torch.compile;
// every register layout the library tried since lands there (h200-2026-11-30-branchless-packed-bwd.md).
// The bulk copy keeps a row's loads in flight without registers or L1 lines (which command 4 there
// found the in-flight loads live in), so more bytes can be in flight a SM.
// Variants (B threads a block):
//   one<B>:   a block a row; one mbarrier; the sum and dx read from shared memory; dx 16-byte stores.
//   ring<B,S>: a persistent grid (blocks a SM x SMs), each block's rows in turn through S stages: the
//             rows S-1 ahead are in flight while one is reduced and written.
//   oneS<B>:  one<B> with dx written back into y's buffer and stored by one bulk copy (smem -> global).
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

__device__ __forceinline__ uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void bar_init(uint64_t *b)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(b)));
}
__device__ __forceinline__ void bar_fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void bar_expect(uint64_t *b, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulk_load(void *dst, const void *src, uint32_t bytes, uint64_t *b)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(sa(dst)), "l"(src), "r"(bytes), "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void bar_wait(uint64_t *b, uint32_t parity)
{
    asm volatile("{\n .reg .pred p;\n"
                 "W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 " @!p bra W;\n}" ::"r"(sa(b)), "r"(parity) : "memory");
}
__device__ __forceinline__ void bulk_store(void *dst, const void *src, uint32_t bytes)
{
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(sa(src)), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
__device__ __forceinline__ void bulk_store_drain() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void fence_async_smem() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

template <int B> __device__ __forceinline__ float block_sum(float v, float *red)
{
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

/* sum(y dy) over one row held in shared memory (packs of 16 bytes), then dx: stored to global memory
 * (ST = 0) or written back over ys (ST = 1). */
template <typename T, int B, int ST>
__device__ __forceinline__ void row_bwd(const uint4 *ys, const uint4 *ds, uint4 *dxr, int packs, float *red)
{
    constexpr int N = pk<T>::N;
    float acc = 0.0f;
    for (int p = threadIdx.x; p < packs; p += B) {
        float a[N], b[N];
        pk<T>::get(ys[p], a);
        pk<T>::get(ds[p], b);
#pragma unroll
        for (int i = 0; i < N; i++)
            acc = fmaf(a[i], b[i], acc);
    }
    const float s = block_sum<B>(acc, red);
    for (int p = threadIdx.x; p < packs; p += B) {
        float a[N], b[N], o[N];
        pk<T>::get(ys[p], a);
        pk<T>::get(ds[p], b);
#pragma unroll
        for (int i = 0; i < N; i++)
            o[i] = a[i] * (b[i] - s);
        if (ST)
            ((uint4 *)ys)[p] = pk<T>::put(o);
        else
            dxr[p] = pk<T>::put(o);
    }
}

template <typename T, int B, int ST>
__global__ __launch_bounds__(B) void k_one(const T *y, const T *dy, T *dx, int cols)
{
    extern __shared__ __align__(128) uint4 sm[];
    __shared__ uint64_t bar;
    __shared__ float red[B / 32];
    const int packs = cols / pk<T>::N;
    const uint32_t bytes = (uint32_t)cols * sizeof(T);
    const size_t row = blockIdx.x;
    uint4 *ys = sm, *ds = sm + packs;
    if (threadIdx.x == 0) {
        bar_init(&bar);
        bar_fence_init();
        bar_expect(&bar, 2 * bytes);
        bulk_load(ys, y + row * cols, bytes, &bar);
        bulk_load(ds, dy + row * cols, bytes, &bar);
    }
    __syncthreads();
    bar_wait(&bar, 0);
    row_bwd<T, B, ST>(ys, ds, (uint4 *)(dx + row * cols), packs, red);
    if (ST) {
        fence_async_smem();
        __syncthreads();
        if (threadIdx.x == 0) {
            bulk_store(dx + row * cols, ys, bytes);
            bulk_store_drain();
        }
    }
}

/* A persistent block: rows blockIdx.x, + gridDim.x, ... through S stages of y and dy. */
template <typename T, int B, int S>
__global__ __launch_bounds__(B) void k_ring(const T *y, const T *dy, T *dx, int rows, int cols)
{
    extern __shared__ __align__(128) uint4 sm[];
    __shared__ uint64_t bar[S];
    __shared__ float red[2][B / 32];
    const int packs = cols / pk<T>::N;
    const uint32_t bytes = (uint32_t)cols * sizeof(T);
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; s++)
            bar_init(&bar[s]);
        bar_fence_init();
        for (int s = 0; s < S - 1; s++) {
            const size_t r = blockIdx.x + (size_t)s * gridDim.x;
            if (r < (size_t)rows) {
                bar_expect(&bar[s], 2 * bytes);
                bulk_load(sm + (2 * s) * packs, y + r * cols, bytes, &bar[s]);
                bulk_load(sm + (2 * s + 1) * packs, dy + r * cols, bytes, &bar[s]);
            }
        }
    }
    __syncthreads();
    int k = 0;
    for (size_t r = blockIdx.x; r < (size_t)rows; r += gridDim.x, k++) {
        const int s = k % S;
        /* The row S-1 ahead goes into the stage the previous row used, once every thread has read
         * that row's dx values out of it (the barrier). */
        __syncthreads();
        if (threadIdx.x == 0) {
            const size_t rn = r + (size_t)(S - 1) * gridDim.x;
            const int sn = (k + S - 1) % S;
            if (rn < (size_t)rows) {
                bar_expect(&bar[sn], 2 * bytes);
                bulk_load(sm + (2 * sn) * packs, y + rn * cols, bytes, &bar[sn]);
                bulk_load(sm + (2 * sn + 1) * packs, dy + rn * cols, bytes, &bar[sn]);
            }
        }
        bar_wait(&bar[s], (k / S) & 1);
        row_bwd<T, B, 0>(sm + 2 * s * packs, sm + (2 * s + 1) * packs, (uint4 *)(dx + r * cols), packs, red[k & 1]);
    }
}

static int sms()
{
    static int n;
    if (!n)
        cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0);
    return n;
}

template <typename T, int B, int ST> static int go_one(const void *y, const void *dy, void *dx, int rows, int cols, cudaStream_t st)
{
    const size_t smem = 2 * (size_t)cols * sizeof(T);
    if (smem > 227 * 1024)
        return 2;
    auto k = k_one<T, B, ST>;
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    k<<<rows, B, smem, st>>>((const T *)y, (const T *)dy, (T *)dx, cols);
    return 0;
}

template <typename T, int B, int S> static int go_ring(const void *y, const void *dy, void *dx, int rows, int cols, cudaStream_t st)
{
    const size_t smem = 2 * (size_t)S * cols * sizeof(T);
    if (smem > 227 * 1024)
        return 2;
    auto k = k_ring<T, B, S>;
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    int per = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, B, smem);
    if (per < 1)
        return 2;
    int grid = per * sms();
    if (grid > rows)
        grid = rows;
    k<<<grid, B, smem, st>>>((const T *)y, (const T *)dy, (T *)dx, rows, cols);
    return 0;
}

typedef int (*go_fn)(const void *, const void *, void *, int, int, cudaStream_t);
template <typename T> struct table {
    static go_fn at(int v)
    {
        static const go_fn t[] = {go_one<T, 128, 0>,  go_one<T, 256, 0>,    go_one<T, 512, 0>,    go_one<T, 1024, 0>,
                                  go_one<T, 256, 1>,  go_one<T, 512, 1>,    go_ring<T, 256, 2>,   go_ring<T, 256, 3>,
                                  go_ring<T, 512, 2>, go_ring<T, 512, 3>,   go_ring<T, 1024, 2>, go_ring<T, 128, 3>};
        return v >= 0 && v < (int)(sizeof t / sizeof t[0]) ? t[v] : 0;
    }
};

/* dtype 0 fp32, 2 bf16; v: the variant (bulk_bwd.py names them). 0 launched, 2 not served. */
extern "C" int bb_launch(int dtype, int v, const void *y, const void *dy, void *dx, int rows, int cols, void *stream)
{
    const int esz = dtype ? 2 : 4;
    if (((size_t)cols * esz) % 16)
        return 2;
    go_fn f = dtype ? table<__nv_bfloat16>::at(v) : table<float>::at(v);
    if (!f)
        return 2;
    if (f(y, dy, dx, rows, cols, (cudaStream_t)stream))
        return 2;
    return cudaGetLastError() != cudaSuccess;
}
