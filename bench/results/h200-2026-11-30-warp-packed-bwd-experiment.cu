// Experiment only: a lean warp-a-row backward (softmax / log-softmax) for rows on 16 bytes, dy and dx in
// y's dtype, no alpha/beta or statistics: how much of the 1K-column gap to torch.compile is the
// library's per-row overhead. Built as a small shared library, called through ctypes.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

__device__ __forceinline__ uint4 ld_plain(const void *p) { return *(const uint4 *)p; }
__device__ __forceinline__ uint4 ld_last(const void *p)
{
    uint4 v;
    uint64_t pol;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(pol));
    return v;
}
template <int E> struct Pk;  // elements per 16 bytes
__device__ __forceinline__ float w2f_lo_bf(uint32_t w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float w2f_hi_bf(uint32_t w) { return __uint_as_float(w & 0xffff0000u); }

template <typename T> __device__ __forceinline__ float elem(const uint4 &v, int e);
template <> __device__ __forceinline__ float elem<float>(const uint4 &v, int e)
{
    const uint32_t w = e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
    return __uint_as_float(w);
}
template <> __device__ __forceinline__ float elem<__nv_bfloat16>(const uint4 &v, int e)
{
    const uint32_t w = (e >> 1) == 0 ? v.x : (e >> 1) == 1 ? v.y : (e >> 1) == 2 ? v.z : v.w;
    return (e & 1) ? w2f_hi_bf(w) : w2f_lo_bf(w);
}
template <typename T> __device__ __forceinline__ uint4 pack(const float *f);
template <> __device__ __forceinline__ uint4 pack<float>(const float *f)
{
    return make_uint4(__float_as_uint(f[0]), __float_as_uint(f[1]), __float_as_uint(f[2]), __float_as_uint(f[3]));
}
template <> __device__ __forceinline__ uint4 pack<__nv_bfloat16>(const float *f)
{
    uint32_t w[4];
    for (int i = 0; i < 4; i++) {
        __nv_bfloat162 h = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
        w[i] = *(uint32_t *)&h;
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
}

// NP packs a lane, R rows a block (a warp each), HINT: evict_last loads, CS: st.global.cs stores.
template <typename T, int NP, int R, bool LOG, bool HINT, bool CS>
__global__ void __launch_bounds__(32 * R) lean_bwd(const T *y, const T *dy, T *dx, int rows, int cols, int stride)
{
    constexpr int E = 16 / sizeof(T);
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * R + (threadIdx.x >> 5);
    if (row >= rows)
        return;
    const size_t base = (size_t)row * stride;
    const T *yr = y + base, *dr = dy + base;
    uint4 wy[NP], wd[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int col = (p * 32 + lane) * E;
        if (col < cols) {
            wy[p] = HINT ? ld_last(yr + col) : ld_plain(yr + col);
            wd[p] = HINT ? ld_last(dr + col) : ld_plain(dr + col);
        } else {
            wy[p] = wd[p] = make_uint4(0, 0, 0, 0);
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int p = 0; p < NP; p++)
#pragma unroll
        for (int e = 0; e < E; e++)
            s += LOG ? elem<T>(wd[p], e) : elem<T>(wd[p], e) * elem<T>(wy[p], e);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    T *xr = dx + base;
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int col = (p * 32 + lane) * E;
        if (col < cols) {
            float f[E];
#pragma unroll
            for (int e = 0; e < E; e++) {
                const float yv = elem<T>(wy[p], e), d = elem<T>(wd[p], e);
                f[e] = LOG ? d - __expf(yv) * s : yv * (d - s);
            }
            const uint4 v = pack<T>(f);
            if (CS)
                __stcs((uint4 *)(xr + col), v);
            else
                *(uint4 *)(xr + col) = v;
        }
    }
}

// variant ids: bit0 LOG, bit1 HINT, bit2 CS; R rows a block: 1 or 4.
template <typename T, int NP, int R>
static int launch_t(const void *y, const void *dy, void *dx, int rows, int cols, int stride, int var, void *st)
{
    const dim3 g((rows + R - 1) / R), b(32 * R);
    cudaStream_t s = (cudaStream_t)st;
    const T *Y = (const T *)y, *D = (const T *)dy;
    T *X = (T *)dx;
    switch (var) {
    case 0: lean_bwd<T, NP, R, false, false, false><<<g, b, 0, s>>>(Y, D, X, rows, cols, stride); break;
    case 1: lean_bwd<T, NP, R, true, false, false><<<g, b, 0, s>>>(Y, D, X, rows, cols, stride); break;
    case 2: lean_bwd<T, NP, R, false, true, false><<<g, b, 0, s>>>(Y, D, X, rows, cols, stride); break;
    case 3: lean_bwd<T, NP, R, true, true, false><<<g, b, 0, s>>>(Y, D, X, rows, cols, stride); break;
    case 4: lean_bwd<T, NP, R, false, false, true><<<g, b, 0, s>>>(Y, D, X, rows, cols, stride); break;
    case 5: lean_bwd<T, NP, R, true, false, true><<<g, b, 0, s>>>(Y, D, X, rows, cols, stride); break;
    case 6: lean_bwd<T, NP, R, false, true, true><<<g, b, 0, s>>>(Y, D, X, rows, cols, stride); break;
    case 7: lean_bwd<T, NP, R, true, true, true><<<g, b, 0, s>>>(Y, D, X, rows, cols, stride); break;
    default: return -1;
    }
    return (int)cudaGetLastError();
}

// dt 0 fp32, 2 bf16; np packs a lane (cols <= np * 32 * E).
extern "C" int lean_launch(int dt, int np, int r, const void *y, const void *dy, void *dx, int rows, int cols,
                           int stride, int var, void *st)
{
#define L(T, N, R) if (np == N && r == R) return launch_t<T, N, R>(y, dy, dx, rows, cols, stride, var, st);
    if (dt == 0) { L(float, 4, 1) L(float, 8, 1) L(float, 4, 4) L(float, 8, 4) L(float, 8, 2) }
    if (dt == 2) { L(__nv_bfloat16, 2, 1) L(__nv_bfloat16, 4, 1) L(__nv_bfloat16, 8, 1) L(__nv_bfloat16, 4, 4)
                   L(__nv_bfloat16, 8, 4) L(__nv_bfloat16, 4, 2) L(__nv_bfloat16, 4, 8) }
    return -2;
#undef L
}
