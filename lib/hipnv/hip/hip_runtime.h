/*
 * kforge's HIP-on-NVIDIA mapping: HIP's names onto CUDA's, so that HIP
 * kernel sources and kforge's HIP harness compile with nvcc and run on an
 * NVIDIA GPU.  Not AMD's HIP: only what kernels and the harness use.
 *
 * Two modes, chosen by how nvcc compiles the file:
 *   - a kernel source (nvcc -x cu, __CUDACC__ defined): device names and
 *     the runtime API, over <cuda_runtime.h>; hipError_t is cudaError_t;
 *   - host code compiled as plain C++ (nvcc -x c++ -cudart none, as
 *     kforge's harness is): the module, memory and event API over the
 *     driver API <cuda.h>; hipError_t is CUresult.
 *
 * HIP's warp functions take no mask and act on the lanes that are active;
 * they map onto the _sync forms with __activemask(), which names exactly
 * those lanes (a full mask would hang or be undefined in divergent code).
 * Code that depends on the width (64 on AMD, 32 here) is not made right by
 * any mapping: kbuild reports it (build.<role>.wavefront).
 */
#ifndef KFORGE_HIPNV_HIP_RUNTIME_H
#define KFORGE_HIPNV_HIP_RUNTIME_H

#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif
#ifndef __HIP_PLATFORM_NVCC__
#define __HIP_PLATFORM_NVCC__ 1
#endif
#define KFORGE_HIPNV 1

#include <stddef.h>

#if defined(__CUDACC__)
/* ------------------------------------------------ kernel sources (nvcc) */
#include <cuda_runtime.h>
/* the half and bfloat16 headers first: their own deprecated mask-less
 * shuffles must be declared before the macros below rename ours */
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#if defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define __HIP_DEVICE_COMPILE__ 1
#endif

#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z

#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(x) x
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
	do { (kernel)<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__); } while (0)

/* warp functions without masks: the active lanes */
template <typename T> __device__ inline T
__hipnv_shfl(T v, int src, int width = warpSize)
{ return __shfl_sync(__activemask(), v, src, width); }
template <typename T> __device__ inline T
__hipnv_shfl_up(T v, unsigned int d, int width = warpSize)
{ return __shfl_up_sync(__activemask(), v, d, width); }
template <typename T> __device__ inline T
__hipnv_shfl_down(T v, unsigned int d, int width = warpSize)
{ return __shfl_down_sync(__activemask(), v, d, width); }
template <typename T> __device__ inline T
__hipnv_shfl_xor(T v, int m, int width = warpSize)
{ return __shfl_xor_sync(__activemask(), v, m, width); }
/* HIP's ballot is 64 bits wide; here the upper 32 are always zero */
__device__ inline unsigned long long
__hipnv_ballot(int p) { return (unsigned long long)__ballot_sync(__activemask(), p); }
__device__ inline int __hipnv_any(int p) { return __any_sync(__activemask(), p); }
__device__ inline int __hipnv_all(int p) { return __all_sync(__activemask(), p); }
/* object-like, so that a library's own entity of the same name (CCCL
 * has a struct __any) is renamed whole rather than half */
#define __shfl __hipnv_shfl
#define __shfl_up __hipnv_shfl_up
#define __shfl_down __hipnv_shfl_down
#define __shfl_xor __hipnv_shfl_xor
#define __ballot __hipnv_ballot
#define __any __hipnv_any
#define __all __hipnv_all

__device__ inline unsigned int
__lane_id(void) { unsigned int r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ inline unsigned long long __lanemask_lt(void)
{ unsigned int r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }
__device__ inline unsigned long long __lanemask_gt(void)
{ unsigned int r; asm("mov.u32 %0, %%lanemask_gt;" : "=r"(r)); return r; }
__device__ inline unsigned long long __lanemask_eq(void)
{ unsigned int r; asm("mov.u32 %0, %%lanemask_eq;" : "=r"(r)); return r; }
__device__ inline unsigned int __smid(void)
{ unsigned int r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
#define __syncwarp_hip() __syncwarp()
#define __threadfence_system_hip() __threadfence_system()

/* the runtime API: the same signatures under CUDA's names */
typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaDeviceProp hipDeviceProp_t;
typedef cudaMemcpyKind hipMemcpyKind;
typedef cudaFuncAttributes hipFuncAttributes;
typedef void *hipDeviceptr_t;
/* a kernel's texture object parameter; tex2D<T> and the other fetches
 * have the same names */
typedef cudaTextureObject_t hipTextureObject_t;
#define hipSuccess cudaSuccess
#define hipErrorOutOfMemory cudaErrorMemoryAllocation
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorNotReady cudaErrorNotReady
#define hipErrorLaunchFailure cudaErrorLaunchFailure
#define hipErrorInvalidDevice cudaErrorInvalidDevice
#define hipErrorNoDevice cudaErrorNoDevice
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyHostToHost cudaMemcpyHostToHost
#define hipMemcpyDefault cudaMemcpyDefault
#define hipStreamDefault cudaStreamDefault
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipStreamPerThread cudaStreamPerThread
#define hipMalloc cudaMalloc
#define hipMallocManaged cudaMallocManaged
#define hipHostMalloc cudaMallocHost
#define hipHostFree cudaFreeHost
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemcpy2D cudaMemcpy2D
#define hipMemcpyToSymbol cudaMemcpyToSymbol
#define hipMemcpyToSymbolAsync cudaMemcpyToSymbolAsync
#define hipMemcpyFromSymbol cudaMemcpyFromSymbol
#define hipMemset cudaMemset
#define hipMemsetAsync cudaMemsetAsync
#define hipGetLastError cudaGetLastError
#define hipPeekAtLastError cudaPeekAtLastError
#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipStreamCreate cudaStreamCreate
#define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipStreamWaitEvent cudaStreamWaitEvent
#define hipEventCreate cudaEventCreate
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime
#define hipGetDevice cudaGetDevice
#define hipSetDevice cudaSetDevice
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDeviceGetAttribute cudaDeviceGetAttribute
static inline hipError_t
hipDeviceTotalMem(size_t *n, int ordinal)
{
	cudaDeviceProp p;
	hipError_t s = cudaGetDeviceProperties(&p, ordinal);
	if (s == cudaSuccess)
		*n = p.totalGlobalMem;
	return s;
}
#define hipFuncGetAttributes cudaFuncGetAttributes
#define hipFuncSetAttribute cudaFuncSetAttribute
#define hipLaunchKernel cudaLaunchKernel
#define hipOccupancyMaxActiveBlocksPerMultiprocessor \
	cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define hipDeviceAttributeMaxThreadsPerBlock cudaDevAttrMaxThreadsPerBlock
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeWarpSize cudaDevAttrWarpSize
#define hipDeviceAttributeL2CacheSize cudaDevAttrL2CacheSize
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlock

#else
/* --------------------------- host code as plain C++ (kforge's harness) */
#include <cuda.h>

typedef CUresult hipError_t;
typedef CUmodule hipModule_t;
typedef CUfunction hipFunction_t;
typedef CUevent hipEvent_t;
typedef CUstream hipStream_t;
typedef CUdevice_attribute hipDeviceAttribute_t;
typedef void *hipDeviceptr_t;
#define hipSuccess CUDA_SUCCESS
#define hipErrorOutOfMemory CUDA_ERROR_OUT_OF_MEMORY
#define hipErrorInvalidValue CUDA_ERROR_INVALID_VALUE
#define hipErrorNotFound CUDA_ERROR_NOT_FOUND
#define hipErrorNotReady CUDA_ERROR_NOT_READY
#define hipErrorLaunchFailure CUDA_ERROR_LAUNCH_FAILED
#define hipErrorInvalidDevice CUDA_ERROR_INVALID_DEVICE
#define hipErrorNoDevice CUDA_ERROR_NO_DEVICE
#define hipDeviceAttributeMaxThreadsPerBlock CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK
#define hipDeviceAttributeMultiprocessorCount CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
#define hipDeviceAttributeWarpSize CU_DEVICE_ATTRIBUTE_WARP_SIZE
#define hipDeviceAttributeL2CacheSize CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE
#define hipDeviceAttributeMaxSharedMemoryPerBlock \
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK

/* HIP's runtime has one current device and makes its context itself:
 * the device's primary context, as cudart does */
static inline hipError_t
hipSetDevice(int ordinal)
{
	CUdevice d;
	CUcontext c;
	CUresult s = cuDeviceGet(&d, ordinal);
	if (s == CUDA_SUCCESS)
		s = cuDevicePrimaryCtxRetain(&c, d);
	return s != CUDA_SUCCESS ? s : cuCtxSetCurrent(c);
}
static inline hipError_t hipInit(unsigned int flags) { return cuInit(flags); }
static inline hipError_t
hipGetDevice(int *ordinal)
{
	CUdevice d;
	CUresult s = cuCtxGetDevice(&d);
	if (s == CUDA_SUCCESS)
		*ordinal = (int)d;
	return s;
}
static inline hipError_t hipGetDeviceCount(int *n) { return cuDeviceGetCount(n); }
static inline hipError_t
hipDeviceGetAttribute(int *v, hipDeviceAttribute_t a, int ordinal)
{
	CUdevice d;
	CUresult s = cuDeviceGet(&d, ordinal);
	return s != CUDA_SUCCESS ? s : cuDeviceGetAttribute(v, a, d);
}
static inline hipError_t
hipDeviceTotalMem(size_t *n, int ordinal)
{
	CUdevice d;
	CUresult s = cuDeviceGet(&d, ordinal);
	return s != CUDA_SUCCESS ? s : cuDeviceTotalMem(n, d);
}
static inline const char *
hipGetErrorName(hipError_t e)
{
	const char *p = 0;
	return cuGetErrorName(e, &p) == CUDA_SUCCESS && p ? p : "hipErrorUnknown";
}
static inline const char *
hipGetErrorString(hipError_t e)
{
	const char *p = 0;
	return cuGetErrorString(e, &p) == CUDA_SUCCESS && p ? p : "unknown error";
}
static inline hipError_t hipModuleLoad(hipModule_t *m, const char *path) { return cuModuleLoad(m, path); }
static inline hipError_t hipModuleLoadData(hipModule_t *m, const void *image) { return cuModuleLoadData(m, image); }
static inline hipError_t hipModuleUnload(hipModule_t m) { return cuModuleUnload(m); }
static inline hipError_t
hipModuleGetFunction(hipFunction_t *f, hipModule_t m, const char *name)
{ return cuModuleGetFunction(f, m, name); }
static inline hipError_t
hipModuleGetGlobal(hipDeviceptr_t *p, size_t *n, hipModule_t m, const char *name)
{
	CUdeviceptr d = 0;
	CUresult s = cuModuleGetGlobal(&d, n, m, name);
	*p = (void *)d;
	return s;
}
static inline hipError_t
hipModuleLaunchKernel(hipFunction_t f, unsigned gx, unsigned gy, unsigned gz,
    unsigned bx, unsigned by, unsigned bz, unsigned shared, hipStream_t stream,
    void **args, void **extra)
{ return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, stream, args, extra); }
#ifdef __cplusplus
template <typename T> static inline hipError_t
hipMalloc(T **p, size_t n)
{
	CUdeviceptr d = 0;
	CUresult s = cuMemAlloc(&d, n);
	*p = (T *)d;
	return s;
}
#endif
static inline hipError_t hipFree(void *p) { return cuMemFree((CUdeviceptr)p); }
static inline hipError_t
hipMemcpyHtoD(hipDeviceptr_t d, void *h, size_t n) { return cuMemcpyHtoD((CUdeviceptr)d, h, n); }
static inline hipError_t
hipMemcpyDtoH(void *h, hipDeviceptr_t d, size_t n) { return cuMemcpyDtoH(h, (CUdeviceptr)d, n); }
static inline hipError_t
hipMemcpyDtoD(hipDeviceptr_t d, hipDeviceptr_t s, size_t n)
{ return cuMemcpyDtoD((CUdeviceptr)d, (CUdeviceptr)s, n); }
static inline hipError_t
hipMemsetD8(hipDeviceptr_t d, unsigned char c, size_t n) { return cuMemsetD8((CUdeviceptr)d, c, n); }
static inline hipError_t
hipMemsetD32(hipDeviceptr_t d, int v, size_t n) { return cuMemsetD32((CUdeviceptr)d, (unsigned)v, n); }
static inline hipError_t hipDeviceSynchronize(void) { return cuCtxSynchronize(); }
static inline hipError_t hipStreamCreate(hipStream_t *s) { return cuStreamCreate(s, CU_STREAM_DEFAULT); }
static inline hipError_t hipStreamDestroy(hipStream_t s) { return cuStreamDestroy(s); }
static inline hipError_t hipStreamSynchronize(hipStream_t s) { return cuStreamSynchronize(s); }
static inline hipError_t hipEventCreate(hipEvent_t *e) { return cuEventCreate(e, CU_EVENT_DEFAULT); }
static inline hipError_t hipEventDestroy(hipEvent_t e) { return cuEventDestroy(e); }
static inline hipError_t hipEventRecord(hipEvent_t e, hipStream_t s) { return cuEventRecord(e, s); }
static inline hipError_t hipEventSynchronize(hipEvent_t e) { return cuEventSynchronize(e); }
static inline hipError_t
hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b) { return cuEventElapsedTime(ms, a, b); }

/* texture objects through the driver API's forms, which HIP mirrors
 * field for field (the harness's kw_tex_make) */
typedef CUtexObject hipTextureObject_t;
typedef CUarray hipArray_t;
typedef CUDA_RESOURCE_DESC HIP_RESOURCE_DESC;
typedef CUDA_TEXTURE_DESC HIP_TEXTURE_DESC;
typedef CUDA_ARRAY3D_DESCRIPTOR HIP_ARRAY3D_DESCRIPTOR;
typedef CUDA_MEMCPY3D HIP_MEMCPY3D;
#define HIP_AD_FORMAT_UNSIGNED_INT8 CU_AD_FORMAT_UNSIGNED_INT8
#define HIP_AD_FORMAT_UNSIGNED_INT16 CU_AD_FORMAT_UNSIGNED_INT16
#define HIP_AD_FORMAT_UNSIGNED_INT32 CU_AD_FORMAT_UNSIGNED_INT32
#define HIP_AD_FORMAT_SIGNED_INT8 CU_AD_FORMAT_SIGNED_INT8
#define HIP_AD_FORMAT_SIGNED_INT16 CU_AD_FORMAT_SIGNED_INT16
#define HIP_AD_FORMAT_SIGNED_INT32 CU_AD_FORMAT_SIGNED_INT32
#define HIP_AD_FORMAT_HALF CU_AD_FORMAT_HALF
#define HIP_AD_FORMAT_FLOAT CU_AD_FORMAT_FLOAT
#define HIP_RESOURCE_TYPE_ARRAY CU_RESOURCE_TYPE_ARRAY
#define HIP_RESOURCE_TYPE_LINEAR CU_RESOURCE_TYPE_LINEAR
#define HIP_TR_ADDRESS_MODE_CLAMP CU_TR_ADDRESS_MODE_CLAMP
#define HIP_TR_FILTER_MODE_POINT CU_TR_FILTER_MODE_POINT
#define HIP_TRSF_READ_AS_INTEGER CU_TRSF_READ_AS_INTEGER
#define HIP_TRSF_NORMALIZED_COORDINATES CU_TRSF_NORMALIZED_COORDINATES
#define hipMemoryTypeDevice CU_MEMORYTYPE_DEVICE
#define hipMemoryTypeArray CU_MEMORYTYPE_ARRAY
#define hipArrayLayered CUDA_ARRAY3D_LAYERED
static inline hipError_t
hipArray3DCreate(hipArray_t *a, const HIP_ARRAY3D_DESCRIPTOR *d) { return cuArray3DCreate(a, d); }
static inline hipError_t hipArrayDestroy(hipArray_t a) { return cuArrayDestroy(a); }
static inline hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D *c) { return cuMemcpy3D(c); }
static inline hipError_t
hipTexObjectCreate(hipTextureObject_t *t, const HIP_RESOURCE_DESC *r,
    const HIP_TEXTURE_DESC *d, const CUDA_RESOURCE_VIEW_DESC *v)
{ return cuTexObjectCreate(t, r, d, v); }
static inline hipError_t hipTexObjectDestroy(hipTextureObject_t t) { return cuTexObjectDestroy(t); }
#endif

#endif
