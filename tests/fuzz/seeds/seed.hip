// Two small kernels (static LDS, scratch) whose code objects seed the fuzz corpus.
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define TID __builtin_amdgcn_workitem_id_x()
struct dim3 { unsigned x, y, z; };
typedef struct ihipStream_t *hipStream_t;
extern "C" int hipLaunchKernel(const void *f, dim3 g, dim3 b, void **args, __SIZE_TYPE__ shm, hipStream_t s);

extern "C" __global__ void __attribute__((amdgpu_flat_work_group_size(1, 256))) seed_lds(float *a)
{
    __shared__ float s[256];
    s[TID] = a[TID];
    __builtin_amdgcn_s_barrier();
    a[TID] = s[255 - TID];
}

extern "C" __global__ void seed_scratch(float *a, int n)
{
    float p[64];
    for (int j = 0; j < 64; j++)
        p[j] = a[j * n];
    a[TID] = p[n & 63];
}
