// Experiment only (issue 14's dense 16-bit short rows at any length, e.g. 65536 x 77): a plain fp16 /
// bf16 softmax forward that reads and writes a block's rows as one span in 16-byte packs held in
// registers, with no staging of the data in shared memory. A block serves R rows (R a multiple of 8,
// so R cols 2 bytes is a multiple of 16 and every span starts on 16 bytes where x and y do); thread
// t holds packs t + p B (NP packs). A pack of 8 elements lies in at most two rows (cols >= 8): its
// part in row ra (the row of its first element) and the rest in row ra + 1. Each part's max and sum
// reach the row through shared memory, by MODE:
//   0: atomics on the row's slot (max as an ordered integer, sum as a float add: the sum's order, so
//      its last bit, varies from run to run);
//   1: each part into a slot of its own, then a thread a row folds its row's slots in column order
//      (deterministic; two barriers more).
// A second kernel, flatw, asks whether the block barriers were the cost (they were the difference
// found in the first run: 0.84-0.91 of the library's staged kernels): each warp its own span of R rows
// (a multiple of 8) in NP packs a lane, its parts folded through the warp's own slots in shared
// memory, a lane a row, at __syncwarp only (no block barrier).
// One exponential per element (the values stay in registers between the sum and the store), y
// stored in 16-byte packs, elements past the tensor's last one neither read nor written (the last
// span's last pack, where the tensor ends inside it, goes an element at a time).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

__device__ __forceinline__ float ex2(float x)
{
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
__device__ __forceinline__ float to_f(__half h) { return __half2float(h); }
__device__ __forceinline__ float to_f(__nv_bfloat16 h) { return __bfloat162float(h); }
template <typename T> __device__ __forceinline__ T from_f(float f);
template <> __device__ __forceinline__ __half from_f<__half>(float f) { return __float2half_rn(f); }
template <> __device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float f) { return __float2bfloat16_rn(f); }

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
__device__ __forceinline__ uint4 pack8(const float *f, __half)
{
    uint4 u;
    __half2 *h = (__half2 *)&u;
#pragma unroll
    for (int i = 0; i < 4; i++)
        h[i] = __floats2half2_rn(f[2 * i], f[2 * i + 1]);
    return u;
}
__device__ __forceinline__ uint4 pack8(const float *f, __nv_bfloat16)
{
    uint4 u;
    __nv_bfloat162 *h = (__nv_bfloat162 *)&u;
#pragma unroll
    for (int i = 0; i < 4; i++)
        h[i] = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
    return u;
}

// a float as an integer of the same order (NaN above +inf, so a NaN row max stays NaN)
__device__ __forceinline__ int key_of(float f)
{
    const int i = f != f ? 0x7fffffff : __float_as_int(f);
    return i >= 0 ? i : i ^ 0x7fffffff;
}
__device__ __forceinline__ float key_val(int k) { return __int_as_float(k >= 0 ? k : k ^ 0x7fffffff); }

// thread r of the block folds row r's slots: packs qs..qe of the span, pack qs's second part where it
// starts in the row before
__device__ __forceinline__ float fold_row(const float *pa, const float *pb, int r, int L, bool sum)
{
    const int qs = r * L / 8, qe = ((r + 1) * L - 1) / 8;
    float v = 8 * qs < r * L ? pb[qs] : pa[qs];
    for (int q = qs + 1; q <= qe; q++)
        v = sum ? v + pa[q] : fmaxf(v, pa[q]);
    return v;
}

template <typename T, int NP, int B, int MODE>
__global__ __launch_bounds__(B) void flat(const T *x, T *y, int64_t rows, int L, int R, unsigned magic)
{
    constexpr float L2E = 1.4426950408889634f;
    constexpr int RMAX = B * NP; // R L <= B NP 8 and L >= 8
    __shared__ int smax[MODE == 0 ? RMAX : 1];
    __shared__ float srow[RMAX];
    __shared__ float pa[MODE == 1 ? B * NP : 1], pb[MODE == 1 ? B * NP : 1];
    const int64_t r0 = (int64_t)blockIdx.x * R;
    const int nr = rows - r0 < R ? (int)(rows - r0) : R;
    const int n = nr * L;
    const T *xs = x + r0 * L;
    T *ys = y + r0 * L;
    float v[NP][8];
    int ra[NP], bnd[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int e0 = (threadIdx.x + p * B) * 8;
        if (e0 + 8 <= n) {
            unpack8(*(const uint4 *)(xs + e0), v[p], T());
        } else {
#pragma unroll
            for (int k = 0; k < 8; k++)
                v[p][k] = e0 + k < n ? to_f(xs[e0 + k]) : -INFINITY;
        }
        ra[p] = (int)__umulhi((unsigned)e0, magic);
        bnd[p] = (ra[p] + 1) * L - e0; // the pack's elements [0, bnd) are row ra's
    }
    // each part's max
    float ma[NP], mb[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        ma[p] = -INFINITY;
        mb[p] = -INFINITY;
#pragma unroll
        for (int k = 0; k < 8; k++) {
            if (k < bnd[p])
                ma[p] = fmaxf(ma[p], v[p][k]);
            else
                mb[p] = fmaxf(mb[p], v[p][k]);
        }
    }
    if constexpr (MODE == 0) {
        for (int r = threadIdx.x; r < nr; r += B) {
            smax[r] = key_of(-INFINITY);
            srow[r] = 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < NP; p++) {
            if (ra[p] < nr)
                atomicMax(&smax[ra[p]], key_of(ma[p]));
            if (bnd[p] < 8 && ra[p] + 1 < nr)
                atomicMax(&smax[ra[p] + 1], key_of(mb[p]));
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < NP; p++) {
            ma[p] = ra[p] < nr ? key_val(smax[ra[p]]) : 0.0f;
            mb[p] = bnd[p] < 8 && ra[p] + 1 < nr ? key_val(smax[ra[p] + 1]) : 0.0f;
        }
    } else {
#pragma unroll
        for (int p = 0; p < NP; p++) {
            pa[threadIdx.x + p * B] = ma[p];
            pb[threadIdx.x + p * B] = mb[p];
        }
        __syncthreads();
        for (int r = threadIdx.x; r < nr; r += B)
            srow[r] = fold_row(pa, pb, r, L, false);
        __syncthreads();
#pragma unroll
        for (int p = 0; p < NP; p++) {
            ma[p] = ra[p] < nr ? srow[ra[p]] : 0.0f;
            mb[p] = bnd[p] < 8 && ra[p] + 1 < nr ? srow[ra[p] + 1] : 0.0f;
        }
    }
    // exponentials, held, and each part's sum
    float sa[NP], sb[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        sa[p] = 0.0f;
        sb[p] = 0.0f;
        const float la = ma[p] * L2E, lb = mb[p] * L2E;
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const bool in_a = k < bnd[p];
            v[p][k] = ex2(fmaf(v[p][k], L2E, -(in_a ? la : lb)));
            if (in_a)
                sa[p] += v[p][k];
            else
                sb[p] += v[p][k];
        }
    }
    if constexpr (MODE == 0) {
        __syncthreads(); // srow was zeroed before the first barrier; the max's reads are done
#pragma unroll
        for (int p = 0; p < NP; p++) {
            if (ra[p] < nr)
                atomicAdd(&srow[ra[p]], sa[p]);
            if (bnd[p] < 8 && ra[p] + 1 < nr)
                atomicAdd(&srow[ra[p] + 1], sb[p]);
        }
        __syncthreads();
    } else {
#pragma unroll
        for (int p = 0; p < NP; p++) {
            pa[threadIdx.x + p * B] = sa[p];
            pb[threadIdx.x + p * B] = sb[p];
        }
        __syncthreads(); // also: every srow read of the max is done
        for (int r = threadIdx.x; r < nr; r += B)
            srow[r] = fold_row(pa, pb, r, L, true);
        __syncthreads();
    }
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const float ka = ra[p] < nr ? 1.0f / srow[ra[p]] : 0.0f;
        const float kb = bnd[p] < 8 && ra[p] + 1 < nr ? 1.0f / srow[ra[p] + 1] : 0.0f;
#pragma unroll
        for (int k = 0; k < 8; k++)
            v[p][k] *= k < bnd[p] ? ka : kb;
        const int e0 = (threadIdx.x + p * B) * 8;
        if (e0 + 8 <= n) {
            *(uint4 *)(ys + e0) = pack8(v[p], T());
        } else {
#pragma unroll
            for (int k = 0; k < 8; k++)
                if (e0 + k < n)
                    ys[e0 + k] = from_f<T>(v[p][k]);
        }
    }
}

template <typename T, int NP, int B, int MODE>
static int go(const void *x, void *y, int64_t rows, int cols, cudaStream_t st)
{
    int R = B * NP * 8 / cols / 8 * 8; // rows a span: a multiple of 8
    if (R < 8)
        return 2;
    const unsigned magic = (unsigned)((((uint64_t)1 << 32) + cols - 1) / cols); // e0 / cols for e0 < B NP 8
    const int64_t grid = (rows + R - 1) / R;
    flat<T, NP, B, MODE><<<(unsigned)grid, B, 0, st>>>((const T *)x, (T *)y, rows, cols, R, magic);
    return cudaGetLastError() != cudaSuccess;
}


// flatw: a warp's span, NP packs a lane (lane + 32 p), its slots folded as MODE 1's at warp syncs
template <typename T, int NP, int B>
__global__ __launch_bounds__(B) void flatw(const T *x, T *y, int64_t rows, int L, int R, unsigned magic)
{
    constexpr float L2E = 1.4426950408889634f;
    constexpr int W = B / 32;
    __shared__ float pa_[W][32 * NP], pb_[W][32 * NP], srow_[W][4 * NP]; // R <= 32 NP 8 / L <= 4 NP
    const int lane = threadIdx.x % 32, wi = threadIdx.x / 32;
    float *pa = pa_[wi], *pb = pb_[wi], *srow = srow_[wi];
    const int64_t r0 = ((int64_t)blockIdx.x * W + wi) * R;
    if (r0 >= rows)
        return;
    const int nr = rows - r0 < R ? (int)(rows - r0) : R;
    const int n = nr * L;
    const T *xs = x + r0 * L;
    T *ys = y + r0 * L;
    float v[NP][8];
    int ra[NP], bnd[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int e0 = (lane + 32 * p) * 8;
        if (e0 + 8 <= n) {
            unpack8(*(const uint4 *)(xs + e0), v[p], T());
        } else {
#pragma unroll
            for (int k = 0; k < 8; k++)
                v[p][k] = e0 + k < n ? to_f(xs[e0 + k]) : -INFINITY;
        }
        ra[p] = (int)__umulhi((unsigned)e0, magic);
        bnd[p] = (ra[p] + 1) * L - e0;
    }
    float ma[NP], mb[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        ma[p] = -INFINITY;
        mb[p] = -INFINITY;
#pragma unroll
        for (int k = 0; k < 8; k++) {
            if (k < bnd[p])
                ma[p] = fmaxf(ma[p], v[p][k]);
            else
                mb[p] = fmaxf(mb[p], v[p][k]);
        }
        pa[lane + 32 * p] = ma[p];
        pb[lane + 32 * p] = mb[p];
    }
    __syncwarp();
    for (int r = lane; r < nr; r += 32)
        srow[r] = fold_row(pa, pb, r, L, false);
    __syncwarp();
#pragma unroll
    for (int p = 0; p < NP; p++) {
        ma[p] = ra[p] < nr ? srow[ra[p]] : 0.0f;
        mb[p] = bnd[p] < 8 && ra[p] + 1 < nr ? srow[ra[p] + 1] : 0.0f;
    }
    float sa[NP], sb[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        sa[p] = 0.0f;
        sb[p] = 0.0f;
        const float la = ma[p] * L2E, lb = mb[p] * L2E;
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const bool in_a = k < bnd[p];
            v[p][k] = ex2(fmaf(v[p][k], L2E, -(in_a ? la : lb)));
            if (in_a)
                sa[p] += v[p][k];
            else
                sb[p] += v[p][k];
        }
    }
    __syncwarp(); // every lane's reads of the max are done
#pragma unroll
    for (int p = 0; p < NP; p++) {
        pa[lane + 32 * p] = sa[p];
        pb[lane + 32 * p] = sb[p];
    }
    __syncwarp();
    for (int r = lane; r < nr; r += 32)
        srow[r] = fold_row(pa, pb, r, L, true);
    __syncwarp();
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const float ka = ra[p] < nr ? 1.0f / srow[ra[p]] : 0.0f;
        const float kb = bnd[p] < 8 && ra[p] + 1 < nr ? 1.0f / srow[ra[p] + 1] : 0.0f;
#pragma unroll
        for (int k = 0; k < 8; k++)
            v[p][k] *= k < bnd[p] ? ka : kb;
        const int e0 = (lane + 32 * p) * 8;
        if (e0 + 8 <= n) {
            *(uint4 *)(ys + e0) = pack8(v[p], T());
        } else {
#pragma unroll
            for (int k = 0; k < 8; k++)
                if (e0 + k < n)
                    ys[e0 + k] = from_f<T>(v[p][k]);
        }
    }
}

template <typename T, int NP, int B>
static int gow(const void *x, void *y, int64_t rows, int cols, cudaStream_t st)
{
    const int R = 32 * NP * 8 / cols / 8 * 8;
    if (R < 8)
        return 2;
    const unsigned magic = (unsigned)((((uint64_t)1 << 32) + cols - 1) / cols);
    const int64_t spans = (rows + R - 1) / R, grid = (spans + B / 32 - 1) / (B / 32);
    flatw<T, NP, B><<<(unsigned)grid, B, 0, st>>>((const T *)x, (T *)y, rows, cols, R, magic);
    return cudaGetLastError() != cudaSuccess;
}

#define E1(T, NP, B)                                                                                           \
    if (np == NP && b == B && mode < 2)                                                                        \
        return mode ? go<T, NP, B, 1>(x, y, rows, cols, s) : go<T, NP, B, 0>(x, y, rows, cols, s);
#define EW(T, NP, B)                                                                                           \
    if (np == NP && b == B && mode == 2)                                                                       \
        return gow<T, NP, B>(x, y, rows, cols, s);
#define ALL(T)                                                                                                 \
    EW(T, 3, 128) EW(T, 4, 128) EW(T, 5, 128) EW(T, 6, 128) EW(T, 8, 128)                                      \
    EW(T, 3, 256) EW(T, 4, 256) EW(T, 5, 256) EW(T, 6, 256) EW(T, 8, 256)                                      \
    E1(T, 1, 128) E1(T, 1, 256) E1(T, 1, 512) E1(T, 2, 128) E1(T, 2, 256) E1(T, 2, 512)

// dtype 0 fp16, 1 bf16; np packs a thread, blocks of b, mode 0 atomics / 1 folded slots / 2 flatw; 2
// where the shape is not built or does not serve cols (8 <= cols, 8 rows a span); x and y on 16 bytes,
// dense
extern "C" int flat_launch(int dtype, int np, int b, int mode, const void *x, void *y, int64_t rows, int cols,
                           void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (cols < 8 || ((uintptr_t)x | (uintptr_t)y) % 16)
        return 2;
    if (dtype == 0) {
        ALL(__half)
    } else {
        ALL(__nv_bfloat16)
    }
    return 2;
}
