// Two small kernels (static shared memory and launch bounds, a stack frame) whose cubins and
// fatbins seed the fuzz corpus.
extern "C" __global__ void __launch_bounds__(256) seed_smem(float *a)
{
    __shared__ float s[256];
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = s[255 - threadIdx.x];
}

extern "C" __global__ void seed_stack(float *a, int n)
{
    float p[64];
    for (int j = 0; j < 64; j++)
        p[j] = a[j * n];
    a[threadIdx.x] = p[n & 63];
}
