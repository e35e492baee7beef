// Stress kernels for the cubin and fatbin reader tests: register pressure and spills, static and
// dynamic shared memory, a stack frame, launch bounds, several kernels per object.
extern "C" __global__ void __launch_bounds__(256) stress_static_smem(float *out, const float *in)
{
    __shared__ float tile[3000];
    for (unsigned i = threadIdx.x; i < 3000; i += 256)
        tile[i] = in[blockIdx.x * 3000 + i];
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = tile[(threadIdx.x * 7) % 3000] + tile[2999 - threadIdx.x];
}

extern "C" __global__ void stress_dynamic_smem(float *out, const float *in, int n)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = dyn[(threadIdx.x + 1) % n];
}

extern "C" __global__ void stress_stack(float *out, const int *idx, int n)
{
    float priv[512];
    for (int i = 0; i < 512; i++)
        priv[i] = out[i * n + threadIdx.x];
    out[threadIdx.x] = priv[idx[threadIdx.x] & 511] + priv[idx[threadIdx.x + 1] & 511];
}

// 1024 threads and 2 blocks per SM leave 32 registers per thread: the 96 live values spill.
extern "C" __global__ void __launch_bounds__(1024, 2) stress_spill(float *out, const float *in)
{
    float acc[96];
#pragma unroll
    for (int i = 0; i < 96; i++)
        acc[i] = in[i * 1024 + threadIdx.x];
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
        for (int i = 0; i < 96; i++)
            acc[i] = acc[i] * acc[(i + r + 1) % 96] + in[threadIdx.x + r];
    float s = 0;
#pragma unroll
    for (int i = 0; i < 96; i++)
        s += acc[i] * (float)i;
    out[threadIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(64) stress_high_regs(float *out, const float *in)
{
    float acc[160];
#pragma unroll
    for (int i = 0; i < 160; i++)
        acc[i] = in[i * 64 + threadIdx.x];
#pragma unroll
    for (int r = 0; r < 3; r++)
#pragma unroll
        for (int i = 0; i < 160; i++)
            acc[i] = acc[i] * acc[(i + 7 * r + 1) % 160] + 1.0f;
    float s = 0;
#pragma unroll
    for (int i = 0; i < 160; i++)
        s += acc[i];
    out[threadIdx.x] = s;
}
