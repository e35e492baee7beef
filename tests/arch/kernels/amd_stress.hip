// Stress kernels for the AMDGPU reader tests: high register counts, spills, static and dynamic
// LDS, scratch, AGPRs through MFMA, several kernels per object. Built with -nogpulib -nogpuinc,
// so the few HIP spellings used are defined here.
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define LAUNCH_BOUNDS(n) __attribute__((amdgpu_flat_work_group_size(1, n)))
#define TID __builtin_amdgcn_workitem_id_x()
#define BID __builtin_amdgcn_workgroup_id_x()

struct dim3 { unsigned x, y, z; };
typedef struct ihipStream_t *hipStream_t;
extern "C" int hipLaunchKernel(const void *f, dim3 g, dim3 b, void **args, __SIZE_TYPE__ shm, hipStream_t s);

typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v32f __attribute__((ext_vector_type(32)));

extern "C" __global__ void LAUNCH_BOUNDS(256) stress_static_lds(float *out, const float *in)
{
    __shared__ float tile[2048];
    for (unsigned i = TID; i < 2048; i += 256)
        tile[i] = in[BID * 2048 + i];
    __builtin_amdgcn_s_barrier();
    out[BID * 256 + TID] = tile[(TID * 7) % 2048] + tile[2047 - TID];
}

extern "C" __global__ void stress_dynamic_lds(float *out, const float *in, int n)
{
    extern __shared__ float dyn[];
    dyn[TID] = in[TID];
    __builtin_amdgcn_s_barrier();
    out[TID] = dyn[(TID + 1) % n];
}

extern "C" __global__ void stress_scratch(float *out, const int *idx, int n)
{
    float priv[512];
    for (int i = 0; i < 512; i++)
        priv[i] = out[i * n + TID];
    out[TID] = priv[idx[TID] & 511] + priv[idx[TID + 1] & 511];
}

// Many values live at once: with 1024-thread workgroups the VGPR budget is small, so it spills.
extern "C" __global__ void LAUNCH_BOUNDS(1024) stress_spill(float *out, const float *in)
{
    float acc[256];
#pragma unroll
    for (int i = 0; i < 256; i++)
        acc[i] = in[i * 1024 + TID];
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
        for (int i = 0; i < 256; i++)
            acc[i] = acc[i] * acc[(i + r + 1) % 256] + in[TID + r];
    float s = 0;
#pragma unroll
    for (int i = 0; i < 256; i++)
        s += acc[i] * (float)i;
    out[TID] = s;
}

extern "C" __global__ void LAUNCH_BOUNDS(64) stress_high_vgpr(float *out, const float *in)
{
    float acc[160];
#pragma unroll
    for (int i = 0; i < 160; i++)
        acc[i] = in[i * 64 + TID];
#pragma unroll
    for (int r = 0; r < 3; r++)
#pragma unroll
        for (int i = 0; i < 160; i++)
            acc[i] = acc[i] * acc[(i + 7 * r + 1) % 160] + 1.0f;
    float s = 0;
#pragma unroll
    for (int i = 0; i < 160; i++)
        s += acc[i];
    out[TID] = s;
}

extern "C" __global__ void LAUNCH_BOUNDS(64) stress_mfma(float *out, const float *a, const float *b)
{
    v32f c0 = {0}, c1 = {0};
    for (int k = 0; k < 64; k++) {
        c0 = __builtin_amdgcn_mfma_f32_32x32x1f32(a[k * 64 + TID], b[k * 64 + TID], c0, 0, 0, 0);
        c1 = __builtin_amdgcn_mfma_f32_32x32x1f32(b[k * 64 + TID], a[k * 64 + TID], c1, 0, 0, 0);
    }
#pragma unroll
    for (int i = 0; i < 32; i++)
        out[i * 64 + TID] = c0[i] - c1[i];
}
