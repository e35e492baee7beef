/* hsm_vendor.h: the one place that knows the GPU vendor. Private to hipsoftmax, do not expose.
 *
 * The kernels in hip/ and the host code in src/ are written against the HIP subset named here. On AMD
 * this is the ROCm HIP runtime itself; on NVIDIA the names are mapped to the CUDA runtime, because
 * HIP's own NVIDIA headers do not build against CUDA 13 and the NVIDIA build must need nothing from
 * ROCm. Usable from C11 host code (runtime part only) and from HIP/CUDA C++ (runtime and device part).
 * Everything else in the tree tests the feature macros defined below, never a vendor macro.
 */
#ifndef HSM_VENDOR_H_2B8E47
#define HSM_VENDOR_H_2B8E47

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
#  define HSM_PLATFORM_AMD 1
#elif defined(__HIP_PLATFORM_NVIDIA__) || defined(__CUDACC__)
#  define HSM_PLATFORM_NVIDIA 1
#else
#  error "hipsoftmax: define __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__ (the build does this)"
#endif

/* ------------------------------------------------------------------------------------------------ */
#if defined(HSM_PLATFORM_AMD)

#  if defined(__cplusplus) && defined(__HIP__)
#    include <hip/hip_runtime.h>
#  else
#    include <hip/hip_runtime_api.h>
#  endif

#  define HSM_VENDOR_NAME "AMD (HIP runtime)"
/* Every target this project builds for AMD is CDNA (gfx908, gfx90a, gfx942): wave64 only. */
#  define HSM_WARP_SIZE 64
/* A kernel of blocks up to BLOCK threads held to REGS registers a thread (HSM_KERNEL_REG_CAP): on
 * CDNA only the block bound; the register file per lane is larger there, and the plan reads what the
 * compiler chose. */
#  define HSM_KERNEL_REG_CAP(BLOCK, REGS) __launch_bounds__(BLOCK)
/* HIP 5.2's device properties have no reserved per-block LDS and no block-slot count. */
static inline size_t hsm_prop_reserved_smem(const hipDeviceProp_t *p) { (void)p; return 0; }
static inline int hsm_prop_max_blocks_per_cu(const hipDeviceProp_t *p) { (void)p; return 0; }
static inline size_t hsm_prop_smem_optin(const hipDeviceProp_t *p) { return p->sharedMemPerBlock; }
static inline int hsm_prop_regs_per_cu(const hipDeviceProp_t *p) { return p->regsPerBlock; }
static inline size_t hsm_prop_smem_per_cu(const hipDeviceProp_t *p) { return p->maxSharedMemoryPerMultiProcessor; }
/* The device's target name as the code objects spell it: "gfx942:sramecc+:xnack-". */
static inline void hsm_prop_target(const hipDeviceProp_t *p, char *buf, size_t n)
{
    snprintf(buf, n, "%s", p->gcnArchName);
}
/* Opts a kernel into `bytes` of dynamic shared memory (hsm_device_allow_smem). */
static inline hipError_t hsm_func_allow_dyn_smem(const void *func, int bytes)
{
    return hipFuncSetAttribute(func, hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

/* ------------------------------------------------------------------------------------------------ */
#elif defined(HSM_PLATFORM_NVIDIA)

#  if defined(__CUDACC__)
#    include <cuda_runtime.h>
#  else
#    include <cuda_runtime_api.h>
#  endif

#  define HSM_VENDOR_NAME "NVIDIA (CUDA runtime)"
#  define HSM_WARP_SIZE 32
/* A kernel held to REGS registers a thread, below what __launch_bounds__ would allow (it cannot be
 * combined with __maxnreg__; 1024 threads, the default bound, times REGS must fit the SM's file).
 * For kernels whose residency, not their code, bounds the speed (softmax_row.hip says where). */
#  define HSM_KERNEL_REG_CAP(BLOCK, REGS) __maxnreg__(REGS)

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef struct cudaDeviceProp hipDeviceProp_t;
typedef struct cudaFuncAttributes hipFuncAttributes;
typedef cudaGraph_t hipGraph_t;         /* the tests' graph capture */
typedef cudaGraphExec_t hipGraphExec_t;

#  define hipSuccess cudaSuccess
#  define hipErrorNoDevice cudaErrorNoDevice
#  define hipErrorInvalidDevice cudaErrorInvalidDevice
#  define hipErrorInsufficientDriver cudaErrorInsufficientDriver
#  define hipErrorOutOfMemory cudaErrorMemoryAllocation
#  define hipErrorInvalidValue cudaErrorInvalidValue
#  define hipErrorCooperativeLaunchTooLarge cudaErrorCooperativeLaunchTooLarge
#  define hipErrorNotSupported cudaErrorNotSupported
#  define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#  define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#  define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#  define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#  define hipDeviceAttributeCooperativeLaunch cudaDevAttrCooperativeLaunch

#  define hipGetErrorString cudaGetErrorString
#  define hipGetErrorName cudaGetErrorName
#  define hipGetLastError cudaGetLastError
#  define hipGetDeviceCount cudaGetDeviceCount
#  define hipGetDevice cudaGetDevice
#  define hipSetDevice cudaSetDevice
#  define hipGetDeviceProperties cudaGetDeviceProperties
#  define hipDeviceGetAttribute cudaDeviceGetAttribute
#  define hipDeviceSynchronize cudaDeviceSynchronize
#  define hipMalloc cudaMalloc
#  define hipFree cudaFree
#  define hipMemcpy cudaMemcpy
#  define hipMemcpyAsync cudaMemcpyAsync
#  define hipMemset cudaMemset
#  define hipMemsetAsync cudaMemsetAsync
#  define hipStreamCreate cudaStreamCreate
#  define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#  define hipStreamNonBlocking cudaStreamNonBlocking
#  define hipStreamDestroy cudaStreamDestroy
#  define hipStreamSynchronize cudaStreamSynchronize
#  define hipStreamIsCapturing cudaStreamIsCapturing
#  define hipStreamCaptureStatus enum cudaStreamCaptureStatus /* a C enum, no typedef */
#  define hipStreamCaptureStatusNone cudaStreamCaptureStatusNone
#  define hipStreamBeginCapture cudaStreamBeginCapture
#  define hipStreamEndCapture cudaStreamEndCapture
#  define hipStreamCaptureModeThreadLocal cudaStreamCaptureModeThreadLocal
#  define hipGraphInstantiateWithFlags cudaGraphInstantiateWithFlags
#  define hipGraphLaunch cudaGraphLaunch
#  define hipGraphExecDestroy cudaGraphExecDestroy
#  define hipGraphDestroy cudaGraphDestroy
#  define hipEventCreate cudaEventCreate
#  define hipEventDestroy cudaEventDestroy
#  define hipEventRecord cudaEventRecord
#  define hipEventSynchronize cudaEventSynchronize
#  define hipEventElapsedTime cudaEventElapsedTime
#  define hipFuncGetAttributes cudaFuncGetAttributes
#  define hipFuncSetAttribute cudaFuncSetAttribute
#  define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#  define hipLaunchCooperativeKernel cudaLaunchCooperativeKernel
#  define hipLaunchKernel cudaLaunchKernel

static inline size_t hsm_prop_reserved_smem(const hipDeviceProp_t *p) { return p->reservedSharedMemPerBlock; }
static inline int hsm_prop_max_blocks_per_cu(const hipDeviceProp_t *p) { return p->maxBlocksPerMultiProcessor; }
static inline size_t hsm_prop_smem_optin(const hipDeviceProp_t *p) { return p->sharedMemPerBlockOptin; }
static inline int hsm_prop_regs_per_cu(const hipDeviceProp_t *p) { return p->regsPerMultiprocessor; }
static inline size_t hsm_prop_smem_per_cu(const hipDeviceProp_t *p) { return p->sharedMemPerMultiprocessor; }
static inline void hsm_prop_target(const hipDeviceProp_t *p, char *buf, size_t n)
{
    snprintf(buf, n, "sm_%d%d", p->major, p->minor);
}
/* Opts a kernel into `bytes` of dynamic shared memory (hsm_device_allow_smem) through the driver's
 * cuFuncSetAttribute, not the runtime's cudaFuncSetAttribute: measured on CUDA 13 (H200), the runtime
 * call resets the thread's last error, so a handle created while the application had an error
 * unread lost that error. The driver entry point is looked up through the runtime, so the library
 * links nothing more; where the lookup fails, the runtime call serves. */
typedef int (*hsm_cu_func_set_attribute_fn)(cudaFunction_t f, int attrib, int value);
static inline hipError_t hsm_func_allow_dyn_smem(const void *func, int bytes)
{
#  if CUDART_VERSION >= 12050 /* cudaGetDriverEntryPointByVersion */
    enum { CU_FUNC_ATTR_MAX_DYNAMIC_SHARED = 8 }; /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
    void *fp = NULL;
    enum cudaDriverEntryPointQueryResult q;
    cudaFunction_t f = NULL;
    if (cudaGetDriverEntryPointByVersion("cuFuncSetAttribute", &fp, 12000, cudaEnableDefault, &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess && fp != NULL && cudaGetFuncBySymbol(&f, func) == cudaSuccess) {
        hsm_cu_func_set_attribute_fn set;
        memcpy(&set, &fp, sizeof set); /* an object pointer to a function pointer, without a cast C forbids */
        return set(f, CU_FUNC_ATTR_MAX_DYNAMIC_SHARED, bytes) == 0 ? cudaSuccess : cudaErrorInvalidValue;
    }
#  endif
    return cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

#endif /* HSM_PLATFORM_AMD / HSM_PLATFORM_NVIDIA */

/* ---- device part: warp primitives and conversions ---------------------------------------------- */
#if defined(__cplusplus) && (defined(__HIP__) || defined(__CUDACC__))

#  if defined(HSM_PLATFORM_AMD)
__device__ __forceinline__ float hsm_shfl_xor(float v, int lane_mask, int width)
{
    return __shfl_xor(v, lane_mask, width);
}
/* v of lane (this lane + delta) of the wavefront, or this lane's own v past its end (CHANNEL's
 * reductions over lanes a stride apart, which a xor pattern cannot pair for strides like 3 or 7). */
__device__ __forceinline__ float hsm_shfl_down(float v, int delta) { return __shfl_down(v, (unsigned)delta, HSM_WARP_SIZE); }
/* v of lane `src` of the wavefront. */
__device__ __forceinline__ float hsm_shfl_idx(float v, int src) { return __shfl(v, src, HSM_WARP_SIZE); }
/* Whether pred holds on every lane of the wavefront (all lanes must be active). */
__device__ __forceinline__ bool hsm_warp_all(bool pred) { return __all(pred) != 0; }
__device__ __forceinline__ float hsm_half_to_float(uint16_t h)
{
    _Float16 f;
    __builtin_memcpy(&f, &h, 2);
    return (float)f;
}
__device__ __forceinline__ uint16_t hsm_float_to_half(float x)
{
    _Float16 f = (_Float16)x; /* round to nearest even, overflow to inf */
    uint16_t h;
    __builtin_memcpy(&h, &f, 2);
    return h;
}
/* Two floats to two fp16 (low, high), round to nearest even. */
__device__ __forceinline__ uint32_t hsm_float2_to_half2(float lo, float hi)
{
    return (uint32_t)hsm_float_to_half(lo) | (uint32_t)hsm_float_to_half(hi) << 16;
}
/* Two floats to two bf16, round to nearest even, NaN stays NaN. No bf16 conversion instruction on
 * CDNA before gfx950: integer rounding. */
__device__ __forceinline__ uint32_t hsm_float_to_bf16_bits(float v)
{
    const uint32_t u = __float_as_uint(v);
    return (u & 0x7fffffffu) > 0x7f800000u ? (u >> 16) | 0x40u : (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}
__device__ __forceinline__ uint32_t hsm_float2_to_bf162(float lo, float hi)
{
    return hsm_float_to_bf16_bits(lo) | hsm_float_to_bf16_bits(hi) << 16;
}
/* v, with its value hidden from the optimizer (no instruction): what is computed from the result is
 * not taken from what was computed from v before. See hsm_row_packed_body. */
__device__ __forceinline__ uint32_t hsm_opaque(uint32_t v)
{
    asm volatile("" : "+v"(v));
    return v;
}
/* HSM_PACKED_MAX_16 stays undefined: CDNA before gfx950 has no packed bf16 max (v_pk_max_f16 covers
 * fp16 only), so the kernels take 16-bit maxima in fp32. */
/* 2^x. A denormal result may come back as 0 (the kernels' accuracy contract allows it: such a term is
 * below every tolerance); here it does not. */
__device__ __forceinline__ float hsm_exp2(float x) { return exp2f(x); }
/* log2 x, once a row or column (hsm_norm_of). */
__device__ __forceinline__ float hsm_log2(float x) { return log2f(x); }
/* Pause in a spin-wait so that waiting wavefronts leave issue slots and memory to the others. */
__device__ __forceinline__ void hsm_spin_pause(void) { __builtin_amdgcn_s_sleep(1); }
/* A 16-byte store of data nothing reads back soon: marked non-temporal so it does not push rows
 * still to be re-read out of the cache. */
__device__ __forceinline__ void hsm_store16_streaming(void *p, const void *src)
{
    typedef unsigned int u4 __attribute__((ext_vector_type(4)));
    u4 v;
    __builtin_memcpy(&v, src, 16);
    __builtin_nontemporal_store(v, (u4 *)p);
}
/* 16 bytes read at p (16-byte aligned) into dst: on NVIDIA with an L2 priority that keeps the line
 * ahead of others (hsm_load16_l2_last there); a plain load here, as no AMD GPU was at hand to measure a
 * cache policy. */
__device__ __forceinline__ void hsm_load16_l2_last(void *dst, const void *p)
{
    typedef unsigned int u4 __attribute__((ext_vector_type(4)));
    const u4 v = *(const u4 *)p;
    __builtin_memcpy(dst, &v, 16);
}
/* SPLIT's tagged pairs (softmax_split.hip): two 64-bit words at p (16-byte aligned), each written and
 * read whole (single-copy atomic at device/agent scope, at the coherent level: past L1/vL1D, which
 * other CUs' writes do not update), in no order between them and with no fence: each word carries
 * its own tag. */
__device__ __forceinline__ void hsm_store_words2(uint64_t *p, uint64_t w0, uint64_t w1)
{
    __hip_atomic_store(p, w0, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    __hip_atomic_store(p + 1, w1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ void hsm_load_words2(const uint64_t *p, uint64_t *w0, uint64_t *w1)
{
    *w0 = __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    *w1 = __hip_atomic_load(p + 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
/* Asks for the cache line holding p in L2, no register written. No-op here: CDNA's loads that fill
 * the cache without a destination were not measured (no AMD GPU here). */
__device__ __forceinline__ void hsm_prefetch_l2(const void *p) { (void)p; }
/* 16 bytes from global to shared memory (both 16-byte aligned). No asynchronous global-to-LDS copy
 * of 16 bytes per lane is reachable through HIP on gfx908/gfx90a/gfx942: an ordinary copy through
 * registers, complete on return, so the commit and wait below have nothing to do. */
__device__ __forceinline__ void hsm_copy16_async(void *smem, const void *gmem)
{
    typedef unsigned int u4 __attribute__((ext_vector_type(4)));
    *(u4 *)smem = *(const u4 *)gmem;
}
/* 16 bytes to shared memory (16-byte aligned) in one store. */
__device__ __forceinline__ void hsm_store16_shared(void *smem, uint4 v) { *(uint4 *)smem = v; }
/* Keeps the loads issued before it ahead of the shared-memory stores after it (the NVIDIA side's
 * reason). No-op here: not measured on AMD. */
__device__ __forceinline__ void hsm_loads_before_stores(void) {}
/* Closes a group of this thread's hsm_copy16_async copies; see hsm_copy_async_wait_pending. */
__device__ __forceinline__ void hsm_copy_async_commit(void) {}
/* Waits until at most `n` of this thread's committed groups are still in flight; the thread may then
 * read what the completed groups copied. */
__device__ __forceinline__ void hsm_copy_async_wait_pending(int n) { (void)n; }
#  else /* NVIDIA */
#    include <cuda_bf16.h>
#    include <cuda_fp16.h>
__device__ __forceinline__ float hsm_shfl_xor(float v, int lane_mask, int width)
{
    return __shfl_xor_sync(0xffffffffu, v, lane_mask, width);
}
__device__ __forceinline__ float hsm_shfl_down(float v, int delta)
{
    return __shfl_down_sync(0xffffffffu, v, (unsigned)delta, HSM_WARP_SIZE);
}
__device__ __forceinline__ float hsm_shfl_idx(float v, int src) { return __shfl_sync(0xffffffffu, v, src, HSM_WARP_SIZE); }
/* Whether pred holds on every lane of the warp (all lanes must be active). */
__device__ __forceinline__ bool hsm_warp_all(bool pred) { return __all_sync(0xffffffffu, pred) != 0; }
__device__ __forceinline__ float hsm_half_to_float(uint16_t h)
{
    return __half2float(__ushort_as_half(h));
}
__device__ __forceinline__ uint16_t hsm_float_to_half(float x)
{
    return __half_as_ushort(__float2half_rn(x));
}
/* One cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32 converts a pair (sm_80 and newer). */
__device__ __forceinline__ uint32_t hsm_float2_to_half2(float lo, float hi)
{
    const __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const uint32_t *>(&h);
}
__device__ __forceinline__ uint32_t hsm_float2_to_bf162(float lo, float hi)
{
    const __nv_bfloat162 b = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const uint32_t *>(&b);
}
/* v, with its value hidden from the optimizer (no instruction); see the AMD definition. */
__device__ __forceinline__ uint32_t hsm_opaque(uint32_t v)
{
    asm volatile("" : "+r"(v));
    return v;
}
/* Max of two pairs of 16-bit values, pair by pair, as stored: one max.f16x2 / max.bf16x2 (sm_80 and
 * newer). A max only selects, so it is exact; like fmaxf, a NaN loses to a number. */
#    define HSM_PACKED_MAX_16 1
__device__ __forceinline__ uint32_t hsm_max_half2(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm("max.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t hsm_max_bf162(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm("max.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
/* 2^x in one MUFU.EX2 (ex2.approx.ftz): a denormal result comes back as 0, which the kernels'
 * accuracy contract allows (such a term is below every tolerance); exp2f adds a denormal range fix-up
 * around it, instructions that 16-bit rows, which are issue-bound, pay for on every element. */
__device__ __forceinline__ float hsm_exp2(float x)
{
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
/* log2 x in one MUFU.LG2 (lg2.approx.ftz, relative error about 2^-22), once a row or column
 * (hsm_norm_of): log2f's accurate path is some 20 instructions more. */
__device__ __forceinline__ float hsm_log2(float x)
{
    float r;
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
__device__ __forceinline__ void hsm_spin_pause(void) { __nanosleep(64); }
/* A 16-byte store of data nothing reads back soon: st.global.cs (evict first), so it does not push
 * rows still to be re-read out of L2. */
__device__ __forceinline__ void hsm_store16_streaming(void *p, const void *src)
{
    uint4 v;
    __builtin_memcpy(&v, src, 16);
    __stcs(reinterpret_cast<uint4 *>(p), v);
}
/* 16 bytes read at p (16-byte aligned) into dst with an L2 eviction priority of evict_last, as
 * torch.compile's backward reads its rows (its first pass). ROW's backward reads y and dy so: after a
 * kernel that left L2 full of written lines (a benchmark's flush, or dy's producer), it ran 1.02-1.08x
 * faster (H200, bench/results/h200-2026-11-30-l2-priority.md); from a clean L2 (Nsight Compute) no
 * faster and no slower. The lines then stay in L2 ahead of others, as torch.compile's do: a 32-40 MB
 * working set read next ran 1.05-1.25x slower than after the plain loads (after torch.compile's
 * kernel 1.04-1.11x); 16-24 MB ones as fast. */
__device__ __forceinline__ void hsm_load16_l2_last(void *dst, const void *p)
{
    uint4 v;
    uint64_t pol;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    asm("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(p), "l"(pol));
    __builtin_memcpy(dst, &v, 16);
}
/* SPLIT's tagged pairs, as the AMD twins say: one 16-byte access of two 64-bit words, relaxed at GPU
 * scope (each word single-copy atomic; the load from L2, past L1). */
__device__ __forceinline__ void hsm_store_words2(uint64_t *p, uint64_t w0, uint64_t w1)
{
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(w0), "l"(w1) : "memory");
}
__device__ __forceinline__ void hsm_load_words2(const uint64_t *p, uint64_t *w0, uint64_t *w1)
{
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(*w0), "=l"(*w1) : "l"(p) : "memory");
}
/* Asks for the 128-byte line holding p in L2 (prefetch.global.L2, sm_20 and newer): no register
 * written, nothing waits for it. */
__device__ __forceinline__ void hsm_prefetch_l2(const void *p) { asm volatile("prefetch.global.L2 [%0];\n" ::"l"(p)); }
/* 16 bytes from global to shared memory (both 16-byte aligned), cached in L2 only, asynchronously:
 * cp.async (sm_80 and newer, every NVIDIA target this project builds) needs no register, and the
 * thread goes on at once and waits only in hsm_copy_async_wait_pending. */
__device__ __forceinline__ void hsm_copy16_async(void *smem, const void *gmem)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}
/* 16 bytes to shared memory (16-byte aligned) in one st.shared.v4: a uint4 loaded under a condition
 * reached the store as four 32-bit values, and the compiler stored them one by one (PTX of CHANNEL's
 * tile staging, hsm_ch_stage_store). */
__device__ __forceinline__ void hsm_store16_shared(void *smem, uint4 v)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(s), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}
/* Keeps the loads issued before it ahead of the shared-memory stores after it: no memory access moves
 * across a warp barrier (every thread of the warp must call it). Without it, ptxas put each 16-byte
 * store right after its load when the stores were predicated (CHANNEL's tile staging), so a thread's
 * later loads waited for its earlier ones (bf16 forward 0.88x, bench/results/
 * h100-2026-11-28-channel-staging-words.md). */
__device__ __forceinline__ void hsm_loads_before_stores(void) { __syncwarp(); }
/* Closes a group of this thread's hsm_copy16_async copies; see hsm_copy_async_wait_pending. */
__device__ __forceinline__ void hsm_copy_async_commit(void) { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
/* Waits until at most `n` of this thread's committed groups are still in flight; the thread may then
 * read what the completed groups copied (only what it copied itself: other threads' copies need a
 * block barrier as well). The count is an immediate in PTX: above 7 this waits for 7. */
__device__ __forceinline__ void hsm_copy_async_wait_pending(int n)
{
    switch (n) {
    case 0: asm volatile("cp.async.wait_group 0;\n" ::: "memory"); break;
    case 1: asm volatile("cp.async.wait_group 1;\n" ::: "memory"); break;
    case 2: asm volatile("cp.async.wait_group 2;\n" ::: "memory"); break;
    case 3: asm volatile("cp.async.wait_group 3;\n" ::: "memory"); break;
    case 4: asm volatile("cp.async.wait_group 4;\n" ::: "memory"); break;
    case 5: asm volatile("cp.async.wait_group 5;\n" ::: "memory"); break;
    case 6: asm volatile("cp.async.wait_group 6;\n" ::: "memory"); break;
    default: asm volatile("cp.async.wait_group 7;\n" ::: "memory"); break;
    }
}
#  endif /* HSM_PLATFORM_AMD */

#endif /* device part */

#endif /* HSM_VENDOR_H_2B8E47 */
