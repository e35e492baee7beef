/* sharded_gpu.h: the GPU runtime and collective names examples/sharded_softmax.c uses, for both
 * vendors. Part of the examples, not of the library.
 *
 * One source for NCCL and RCCL: the two libraries share their API (ncclCommInitAll, ncclAllGather,
 * ncclAllReduce, ncclGroupStart/End, ...), and the runtime calls the example needs have the same
 * shape in HIP and CUDA, so a gpu* name maps to hip* on AMD and cuda* on NVIDIA. The vendor is the
 * one the hipsoftmax build was made for: the build defines __HIP_PLATFORM_AMD__ (AMD) or
 * __HIP_PLATFORM_NVIDIA__ (NVIDIA), as it does for the library's own host code.
 */
#ifndef SHARDED_GPU_H_5E19C4
#define SHARDED_GPU_H_5E19C4

#if defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)

#  include <hip/hip_runtime_api.h>
#  include <rccl/rccl.h>
#  define GPU_VENDOR "AMD (HIP runtime, RCCL)"
typedef hipError_t gpuError_t;
typedef hipStream_t gpuStream_t;
typedef hipEvent_t gpuEvent_t;
#  define gpuSuccess hipSuccess
#  define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#  define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#  define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#  define gpuGetErrorString hipGetErrorString
#  define gpuGetDeviceCount hipGetDeviceCount
#  define gpuSetDevice hipSetDevice
#  define gpuDeviceSynchronize hipDeviceSynchronize
#  define gpuMalloc hipMalloc
#  define gpuFree hipFree
#  define gpuMemcpy hipMemcpy
#  define gpuMemcpy2D hipMemcpy2D
#  define gpuMemcpyAsync hipMemcpyAsync
#  define gpuMemset hipMemset
#  define gpuStreamCreate hipStreamCreate
#  define gpuStreamDestroy hipStreamDestroy
#  define gpuStreamSynchronize hipStreamSynchronize
#  define gpuEventCreate hipEventCreate
#  define gpuEventDestroy hipEventDestroy
#  define gpuEventRecord hipEventRecord
#  define gpuEventSynchronize hipEventSynchronize
#  define gpuEventElapsedTime hipEventElapsedTime

#elif defined(__HIP_PLATFORM_NVIDIA__)

#  include <cuda_runtime_api.h>
#  include <nccl.h>
#  define GPU_VENDOR "NVIDIA (CUDA runtime, NCCL)"
typedef cudaError_t gpuError_t;
typedef cudaStream_t gpuStream_t;
typedef cudaEvent_t gpuEvent_t;
#  define gpuSuccess cudaSuccess
#  define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#  define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#  define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#  define gpuGetErrorString cudaGetErrorString
#  define gpuGetDeviceCount cudaGetDeviceCount
#  define gpuSetDevice cudaSetDevice
#  define gpuDeviceSynchronize cudaDeviceSynchronize
#  define gpuMalloc cudaMalloc
#  define gpuFree cudaFree
#  define gpuMemcpy cudaMemcpy
#  define gpuMemcpy2D cudaMemcpy2D
#  define gpuMemcpyAsync cudaMemcpyAsync
#  define gpuMemset cudaMemset
#  define gpuStreamCreate cudaStreamCreate
#  define gpuStreamDestroy cudaStreamDestroy
#  define gpuStreamSynchronize cudaStreamSynchronize
#  define gpuEventCreate cudaEventCreate
#  define gpuEventDestroy cudaEventDestroy
#  define gpuEventRecord cudaEventRecord
#  define gpuEventSynchronize cudaEventSynchronize
#  define gpuEventElapsedTime cudaEventElapsedTime

#else
#  error "sharded_gpu.h: define __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__ (the build does this)"
#endif /* __HIP_PLATFORM_AMD__ / __HIP_PLATFORM_NVIDIA__ */

#endif /* SHARDED_GPU_H_5E19C4 */
