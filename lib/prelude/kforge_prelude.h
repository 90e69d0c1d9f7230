/*
 * kforge parsing prelude: just enough of the CUDA and HIP programming
 * model for libclang to build an AST of kernel code when the installed
 * toolkit's headers cannot be parsed (clang's CUDA wrapper headers lag
 * behind new toolkits).  Declarations only; nothing here is compiled.
 * kscan force-includes it and answers the toolkit's own headers with
 * empty files, so project code keeps its #include lines unchanged.
 */
#ifndef KFORGE_PRELUDE_H
#define KFORGE_PRELUDE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>

#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define CUDART_VERSION 13000
#define CUDA_VERSION 13000
#ifdef __HIP__
#ifndef __HIPCC__
#define __HIPCC__ 1
#endif
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#endif

/* the include guards of the toolkit headers this prelude stands for: a
 * real toolkit header reached through the system include path (a
 * /usr/local/include that links the toolkit's headers) includes its
 * siblings by quotes, past the empty stand-ins; these keep the siblings
 * empty instead of redefining char1, dim3 and the rest */
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __DRIVER_TYPES_H__
#define __DEVICE_TYPES_H__
#define __SURFACE_TYPES_H__
#define __TEXTURE_TYPES_H__
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __HOST_DEFINES_H__
#define __CUDA_FP16_H__
#define __CUDA_BF16_H__
#define __DEVICE_FUNCTIONS_H__
#define __MATH_FUNCTIONS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __SM_20_ATOMIC_FUNCTIONS_H__
#define __SM_60_ATOMIC_FUNCTIONS_H__
#define __TEXTURE_FETCH_FUNCTIONS_H__
#define __SURFACE_FUNCTIONS_H__
#define __cudart_builtin__
#define CUDARTAPI
#define __dv(v) = v

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* clang 15 and later know __noinline__ as a keyword; a macro would break
 * libstdc++'s __attribute__((__noinline__)) */
#if !defined(__clang_major__) || __clang_major__ < 15
#define __noinline__ __attribute__((noinline))
#endif
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define __restrict__ __restrict
#define __device_builtin__
#define __builtin_align__(n) __attribute__((aligned(n)))
#define CUDART_CB
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))

struct uint3 { unsigned int x, y, z; };
struct dim3 {
	unsigned int x, y, z;
	__host__ __device__ dim3(unsigned int vx = 1, unsigned int vy = 1,
	    unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
	__host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
	__host__ __device__ operator uint3() const { return uint3{x, y, z}; }
};
extern __device__ const uint3 threadIdx;
extern __device__ const uint3 blockIdx;
extern __device__ const dim3 blockDim;
extern __device__ const dim3 gridDim;
extern __device__ const int warpSize;

#define KFORGE_VEC2(T, N) struct N##2 { T x, y; }; \
	__host__ __device__ N##2 make_##N##2(T, T);
#define KFORGE_VEC3(T, N) struct N##3 { T x, y, z; }; \
	__host__ __device__ N##3 make_##N##3(T, T, T);
#define KFORGE_VEC4(T, N) struct N##4 { T x, y, z, w; }; \
	__host__ __device__ N##4 make_##N##4(T, T, T, T);
#define KFORGE_VEC(T, N) struct N##1 { T x; }; KFORGE_VEC2(T, N) \
	KFORGE_VEC3(T, N) KFORGE_VEC4(T, N)
KFORGE_VEC(float, float) KFORGE_VEC(double, double) KFORGE_VEC(int, int)
struct uint1 { unsigned int x; }; KFORGE_VEC2(unsigned int, uint)
KFORGE_VEC4(unsigned int, uint) KFORGE_VEC(char, char)
KFORGE_VEC(unsigned char, uchar) KFORGE_VEC(short, short)
KFORGE_VEC(unsigned short, ushort) KFORGE_VEC(long, long)
KFORGE_VEC(unsigned long, ulong) KFORGE_VEC(long long, longlong)
KFORGE_VEC(unsigned long long, ulonglong)
__host__ __device__ uint3 make_uint3(unsigned int, unsigned int, unsigned int);

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUstream_st *hipStream_t;
typedef struct CUevent_st *hipEvent_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
typedef unsigned long long hipTextureObject_t;
typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1,
	cudaErrorMemoryAllocation = 2 } cudaError_t;
typedef unsigned long long cudaGraphConditionalHandle;
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
__host__ struct cudaExtent make_cudaExtent(size_t, size_t, size_t);
__host__ struct cudaPos make_cudaPos(size_t, size_t, size_t);
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero, cudaBoundaryModeClamp,
	cudaBoundaryModeTrap };
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
typedef enum hipError_t { hipSuccess = 0 } hipError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice,
	cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
enum hipMemcpyKind { hipMemcpyHostToHost, hipMemcpyHostToDevice,
	hipMemcpyDeviceToHost, hipMemcpyDeviceToDevice, hipMemcpyDefault };
enum cudaTextureReadMode { cudaReadModeElementType,
	cudaReadModeNormalizedFloat };
template <class T, int dim = 1,
    enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture { int normalized; };
template <class T, int dim = 1> struct surface { int unused; };
struct cudaDeviceProp { char name[256]; int multiProcessorCount;
	int maxThreadsPerBlock; int warpSize; size_t sharedMemPerBlock;
	int major, minor; };

extern "C" {
cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
unsigned __cudaPushCallConfiguration(dim3, dim3, size_t = 0, void * = 0);
cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t,
    cudaStream_t);
cudaError_t cudaLaunchCooperativeKernel(const void *, dim3, dim3, void **,
    size_t, cudaStream_t);
__host__ __device__ cudaError_t cudaMalloc(void **, size_t);
cudaError_t cudaMallocManaged(void **, size_t, unsigned = 1);
cudaError_t cudaMallocHost(void **, size_t);
__host__ __device__ cudaError_t cudaFree(void *);
cudaError_t cudaFreeHost(void *);
cudaError_t cudaMemcpy(void *, const void *, size_t, enum cudaMemcpyKind);
cudaError_t cudaMemcpyAsync(void *, const void *, size_t,
    enum cudaMemcpyKind, cudaStream_t = 0);
cudaError_t cudaMemcpyToSymbol(const void *, const void *, size_t,
    size_t = 0, enum cudaMemcpyKind = cudaMemcpyHostToDevice);
cudaError_t cudaMemset(void *, int, size_t);
cudaError_t cudaMemsetAsync(void *, int, size_t, cudaStream_t = 0);
__host__ __device__ cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaStreamSynchronize(cudaStream_t);
cudaError_t cudaStreamCreate(cudaStream_t *);
__host__ __device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *, unsigned);
__host__ __device__ cudaError_t cudaStreamDestroy(cudaStream_t);
cudaError_t cudaEventCreate(cudaEvent_t *);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t);
cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);
cudaError_t cudaEventDestroy(cudaEvent_t);
__host__ __device__ cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t);
cudaError_t cudaGetDevice(int *);
cudaError_t cudaSetDevice(int);
cudaError_t cudaGetDeviceCount(int *);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *, int);
cudaError_t cudaFuncSetAttribute(const void *, int, int);
hipError_t hipMalloc(void **, size_t);
hipError_t hipFree(void *);
hipError_t hipMemcpy(void *, const void *, size_t, enum hipMemcpyKind);
hipError_t hipMemset(void *, int, size_t);
hipError_t hipDeviceSynchronize(void);
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorString(hipError_t);
}

template <class T> cudaError_t cudaMalloc(T **p, size_t n);
template <class T> hipError_t hipMalloc(T **p, size_t n);
template <class F, class... A>
void hipLaunchKernelGGL(F kernel, dim3 grid, dim3 block, unsigned shmem,
    hipStream_t stream, A... args);
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(x) (&(x))
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

/* half and bfloat16: opaque enough for a parse, convertible both ways */
struct __half {
	unsigned short __x;
	__host__ __device__ __half() = default;
	__host__ __device__ __half(float);
	__host__ __device__ __half(double);
	__host__ __device__ __half(int);
	__host__ __device__ operator float() const;
};
/* operators as members: a namespace-scope operator+ would turn every
 * dependent p + n in a template into an unresolved call */
struct __half2 { __half x, y;
	__host__ __device__ __half2() = default;
	__host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
	__device__ __half2 operator+(const __half2 &) const;
	__device__ __half2 operator-(const __half2 &) const;
	__device__ __half2 operator*(const __half2 &) const;
	__device__ __half2 operator/(const __half2 &) const;
	__device__ __half2 &operator+=(const __half2 &);
	__device__ __half2 &operator*=(const __half2 &); };
struct __nv_bfloat16 {
	unsigned short __x;
	__host__ __device__ __nv_bfloat16() = default;
	__host__ __device__ __nv_bfloat16(float);
	__host__ __device__ __nv_bfloat16(double);
	__host__ __device__ operator float() const;
};
struct __nv_bfloat162 { __nv_bfloat16 x, y; };
typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
typedef __nv_bfloat16 hip_bfloat16;
__host__ __device__ __half __float2half(float);
__host__ __device__ float __half2float(__half);
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ __nv_bfloat16 __float2bfloat16(float);
__host__ __device__ float __bfloat162float(__nv_bfloat16);
__device__ __half hadd(__half, __half);
__device__ __half __hadd(__half, __half);
__device__ __half __hmul(__half, __half);
__device__ __half __hsub(__half, __half);
__host__ __device__ __half __int2half_rn(int);
__host__ __device__ int __half2int_rn(__half);
__device__ __half __hdiv(__half, __half);
__device__ __half __hneg(__half);
__device__ __half __hmax(__half, __half);
__device__ __half __hmin(__half, __half);
__device__ bool __hge(__half, __half);
__device__ bool __hgt(__half, __half);
__device__ bool __hle(__half, __half);
__device__ bool __hlt(__half, __half);
__device__ bool __heq(__half, __half);
__device__ bool __hne(__half, __half);
__device__ __half2 __hadd2(__half2, __half2);
__device__ __half2 __hmul2(__half2, __half2);
__device__ __half2 __hfma2(__half2, __half2, __half2);
__device__ __half2 __hsub2(__half2, __half2);
__device__ __half __hfma(__half, __half, __half);
__host__ __device__ __half2 __float2half2_rn(float);
__host__ __device__ __half2 __halves2half2(__half, __half);
__host__ __device__ __half2 __half2half2(__half);
__host__ __device__ float2 __half22float2(__half2);
__host__ __device__ __half2 __float22half2_rn(float2);
__host__ __device__ float __low2float(__half2);
__host__ __device__ float __high2float(__half2);
__host__ __device__ __half __low2half(__half2);
__host__ __device__ __half __high2half(__half2);


/* synchronization, warps, atomics, intrinsics */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ unsigned __activemask(void);
__device__ unsigned __ballot_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
__device__ int __all_sync(unsigned, int);
__device__ unsigned long long __ballot(int);
__device__ int __any(int);
__device__ int __all(int);
template <class T> __device__ T __shfl_sync(unsigned, T, int, int = 32);
template <class T> __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
template <class T> __device__ T __shfl(T, int, int = 32);
template <class T> __device__ T __shfl_up(T, unsigned, int = 32);
template <class T> __device__ T __shfl_down(T, unsigned, int = 32);
template <class T> __device__ T __shfl_xor(T, int, int = 32);
template <class T> __device__ T __ldg(const T *);
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ void __stcg(T *, T);
template <class T> __device__ void __stcs(T *, T);

#define KFORGE_ATOMIC(T) \
	__device__ T atomicAdd(T *, T); __device__ T atomicSub(T *, T); \
	__device__ T atomicExch(T *, T); __device__ T atomicMin(T *, T); \
	__device__ T atomicMax(T *, T); __device__ T atomicCAS(T *, T, T); \
	__device__ T atomicAnd(T *, T); __device__ T atomicOr(T *, T); \
	__device__ T atomicXor(T *, T); __device__ T atomicInc(T *, T); \
	__device__ T atomicDec(T *, T); __device__ T atomicAdd_block(T *, T); \
	__device__ T atomicAdd_system(T *, T); \
	__device__ T atomicSub_system(T *, T); \
	__device__ T atomicExch_system(T *, T); \
	__device__ T atomicMin_system(T *, T); \
	__device__ T atomicMax_system(T *, T); \
	__device__ T atomicCAS_system(T *, T, T); \
	__device__ T atomicAnd_system(T *, T); \
	__device__ T atomicOr_system(T *, T); \
	__device__ T atomicXor_system(T *, T); \
	__device__ T atomicInc_system(T *, T); \
	__device__ T atomicDec_system(T *, T);
KFORGE_ATOMIC(int) KFORGE_ATOMIC(unsigned int)
KFORGE_ATOMIC(unsigned long long) KFORGE_ATOMIC(long long)
KFORGE_ATOMIC(float) KFORGE_ATOMIC(double)
__device__ __half atomicAdd(__half *, __half);
__device__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *, __nv_bfloat16);
__device__ unsigned short atomicCAS(unsigned short *, unsigned short,
    unsigned short);

__device__ int __popc(unsigned);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __clzll(long long);
__device__ int __ffs(int);
__device__ int __ffsll(long long);
__device__ unsigned __brev(unsigned);
__device__ unsigned __byte_perm(unsigned, unsigned, unsigned);
__device__ int __mul24(int, int);
__device__ unsigned __umul24(unsigned, unsigned);
__host__ __device__ unsigned umin(unsigned, unsigned);
__host__ __device__ unsigned umax(unsigned, unsigned);
__host__ __device__ long long llmin(long long, long long);
__host__ __device__ long long llmax(long long, long long);
__host__ __device__ unsigned long long ullmin(unsigned long long,
    unsigned long long);
__host__ __device__ unsigned long long ullmax(unsigned long long,
    unsigned long long);
__device__ int __mulhi(int, int);
__device__ unsigned __umulhi(unsigned, unsigned);
__device__ long long clock64(void);
__device__ int clock(void);
__device__ unsigned __lanemask_lt(void);
__device__ float __int_as_float(int);
__device__ int __float_as_int(float);
__device__ float __uint_as_float(unsigned);
__device__ unsigned __float_as_uint(float);
__device__ double __longlong_as_double(long long);
__device__ long long __double_as_longlong(double);
__device__ int __float2int_rn(float);
__device__ int __float2int_rd(float);
__device__ int __float2int_ru(float);
__device__ int __float2int_rz(float);
__device__ unsigned __float2uint_rn(float);
__device__ float __int2float_rn(int);
__device__ double __int2double_rn(int);
__device__ float __fadd_rn(float, float);
__device__ float __fadd_rd(float, float);
__device__ float __fadd_ru(float, float);
__device__ float __fadd_rz(float, float);
__device__ float __fmul_rn(float, float);
__device__ float __fmul_rd(float, float);
__device__ float __fmul_ru(float, float);
__device__ float __fmul_rz(float, float);
__device__ float __fmaf_rn(float, float, float);
__device__ float __fdividef(float, float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ double __dadd_rn(double, double);

/* device overloads of the C math library: clang resolves calls from
 * device code only to device functions */
#define KFORGE_MATH1(fn) __device__ float fn##f(float); \
	__device__ float fn(float); __device__ double fn(double);
#define KFORGE_MATH2(fn) __device__ float fn##f(float, float); \
	__device__ float fn(float, float); \
	__device__ double fn(double, double);
KFORGE_MATH1(exp) KFORGE_MATH1(exp2) KFORGE_MATH1(expm1) KFORGE_MATH1(log)
KFORGE_MATH1(log2) KFORGE_MATH1(log10) KFORGE_MATH1(log1p)
KFORGE_MATH1(sqrt) KFORGE_MATH1(cbrt) KFORGE_MATH1(fabs) KFORGE_MATH1(ceil)
KFORGE_MATH1(floor) KFORGE_MATH1(round) KFORGE_MATH1(trunc)
KFORGE_MATH1(rint) KFORGE_MATH1(nearbyint) KFORGE_MATH1(sin)
KFORGE_MATH1(cos) KFORGE_MATH1(tan) KFORGE_MATH1(asin) KFORGE_MATH1(acos)
KFORGE_MATH1(atan) KFORGE_MATH1(sinh) KFORGE_MATH1(cosh) KFORGE_MATH1(tanh)
KFORGE_MATH1(asinh) KFORGE_MATH1(acosh) KFORGE_MATH1(atanh)
KFORGE_MATH1(erf) KFORGE_MATH1(erfc) KFORGE_MATH1(lgamma)
KFORGE_MATH1(tgamma)
KFORGE_MATH2(pow) KFORGE_MATH2(fmax) KFORGE_MATH2(fmin) KFORGE_MATH2(atan2)
KFORGE_MATH2(fmod) KFORGE_MATH2(hypot) KFORGE_MATH2(copysign)
KFORGE_MATH2(fdim) KFORGE_MATH2(remainder)
__device__ float fmaf(float, float, float);
__device__ double fma(double, double, double);
__device__ float ldexpf(float, int);
__device__ double ldexp(double, int);
__device__ float frexpf(float, int *);
__device__ float frexp(float, int *);
__device__ double frexp(double, int *);
__device__ long lroundf(float);
__device__ long long llroundf(float);
__device__ int abs(int);
__device__ long long llabs(long long);
__device__ void sincosf(float, float *, float *);
__device__ void sincos(double, double *, double *);
__device__ float exp10f(float);
__device__ bool isnan(float);
__device__ bool isnan(double);
__device__ bool isinf(float);
__device__ bool isinf(double);
__device__ bool isfinite(float);
__device__ bool isfinite(double);
__device__ bool signbit(float);
__device__ bool signbit(double);
__device__ float __expf(float);
__device__ float __exp10f(float);
__device__ float __logf(float);
__device__ float __log2f(float);
__device__ float __log10f(float);
__device__ float __powf(float, float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __tanf(float);
__device__ void __sincosf(float, float *, float *);
__device__ float __saturatef(float);
__host__ __device__ float rsqrtf(float);
__host__ __device__ double rsqrt(double);
__host__ __device__ float rcbrtf(float);
__host__ __device__ float normcdff(float);
__host__ __device__ float erfcinvf(float);
__host__ __device__ float erfinvf(float);
__host__ __device__ int min(int, int);
__host__ __device__ unsigned min(unsigned, unsigned);
__host__ __device__ long long min(long long, long long);
__host__ __device__ float min(float, float);
__host__ __device__ double min(double, double);
__host__ __device__ int max(int, int);
__host__ __device__ unsigned max(unsigned, unsigned);
__host__ __device__ long long max(long long, long long);
__host__ __device__ float max(float, float);
__host__ __device__ double max(double, double);
/* the toolkit's mixed-signedness and mixed-precision overloads */
__host__ __device__ unsigned min(unsigned, int);
__host__ __device__ unsigned min(int, unsigned);
__host__ __device__ long min(long, long);
__host__ __device__ unsigned long min(unsigned long, unsigned long);
__host__ __device__ unsigned long long min(unsigned long long,
    unsigned long long);
__host__ __device__ double min(float, double);
__host__ __device__ double min(double, float);
__host__ __device__ unsigned long min(unsigned long, long);
__host__ __device__ unsigned long min(long, unsigned long);
__host__ __device__ unsigned long long min(unsigned long long, long long);
__host__ __device__ unsigned long long min(long long, unsigned long long);
__host__ __device__ unsigned max(unsigned, int);
__host__ __device__ unsigned max(int, unsigned);
__host__ __device__ long max(long, long);
__host__ __device__ unsigned long max(unsigned long, unsigned long);
__host__ __device__ unsigned long long max(unsigned long long,
    unsigned long long);
__host__ __device__ double max(float, double);
__host__ __device__ double max(double, float);
__host__ __device__ unsigned long max(unsigned long, long);
__host__ __device__ unsigned long max(long, unsigned long);
__host__ __device__ unsigned long long max(unsigned long long, long long);
__host__ __device__ unsigned long long max(long long, unsigned long long);
__device__ unsigned __vabsdiffu4(unsigned, unsigned);

template <class T> __device__ T tex1Dfetch(texture<T, 1>, int);
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t, int);
template <class T> __device__ T tex2D(cudaTextureObject_t, float, float);
template <class T, int d, enum cudaTextureReadMode m>
__device__ T tex2D(texture<T, d, m>, float, float);
template <class T> __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int,
    int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T tex1D(cudaTextureObject_t, float);
template <class T> __device__ T tex3D(cudaTextureObject_t, float, float,
    float);
template <class T> __device__ T tex1DLod(cudaTextureObject_t, float, float);
template <class T> __device__ T tex2DLod(cudaTextureObject_t, float, float,
    float);
template <class T> __device__ T tex3DLod(cudaTextureObject_t, float, float,
    float, float);
template <class T> __device__ T tex1DLayered(cudaTextureObject_t, float,
    int);
template <class T> __device__ T tex2DLayered(cudaTextureObject_t, float,
    float, int);
template <class T> __device__ T texCubemap(cudaTextureObject_t, float, float,
    float);
template <class T> __device__ T tex2Dgather(cudaTextureObject_t, float,
    float, int = 0);
template <class T> __device__ void tex1Dfetch(T *, cudaTextureObject_t, int);
template <class T> __device__ void tex2D(T *, cudaTextureObject_t, float,
    float);
template <class T> __device__ void tex3D(T *, cudaTextureObject_t, float,
    float, float);
template <class T> __device__ T surf1Dread(cudaSurfaceObject_t, int,
    enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t, int, int,
    enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf3Dread(cudaSurfaceObject_t, int, int,
    int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2Dread(T *, cudaSurfaceObject_t, int,
    int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1Dwrite(T, cudaSurfaceObject_t, int,
    enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf3Dwrite(T, cudaSurfaceObject_t, int,
    int, int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2DLayeredwrite(T, cudaSurfaceObject_t,
    int, int, int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf2DLayeredread(cudaSurfaceObject_t, int,
    int, int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
__device__ void cudaGraphSetConditional(cudaGraphConditionalHandle,
    unsigned);

extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);
extern "C" __device__ void __assertfail(const char *, const char *,
    unsigned, const char *, size_t);
/* what assert() and <cstring> become in device code */
extern "C" __device__ void __assert_fail(const char *, const char *,
    unsigned int, const char *);
extern "C" __device__ void *memcpy(void *, const void *, size_t);
extern "C" __device__ void *memset(void *, int, size_t);
__device__ void __trap(void);
__device__ void __brkpt(void);
__device__ void __nanosleep(unsigned);

namespace cooperative_groups {
struct thread_group { __device__ void sync() const;
	__device__ unsigned size() const;
	__device__ unsigned long long num_threads() const;
	__device__ unsigned thread_rank() const;
	__device__ unsigned meta_group_rank() const;
	__device__ unsigned meta_group_size() const; };
struct thread_block : thread_group { __device__ dim3 group_index() const;
	__device__ dim3 thread_index() const;
	__device__ dim3 dim_threads() const;
	__device__ dim3 group_dim() const; };
struct grid_group : thread_group { __device__ bool is_valid() const;
	__device__ unsigned long long block_rank() const;
	__device__ unsigned long long num_blocks() const;
	__device__ dim3 block_index() const;
	__device__ dim3 dim_blocks() const; };
struct coalesced_group : thread_group {
	template <class T> __device__ T shfl(T, int) const;
	template <class T> __device__ T shfl_down(T, unsigned) const;
	template <class T> __device__ T shfl_up(T, unsigned) const;
	template <class T> __device__ T shfl_xor(T, unsigned) const;
	__device__ unsigned ballot(int) const;
	__device__ int any(int) const;
	__device__ int all(int) const;
	template <class T> __device__ unsigned match_any(T) const; };
template <unsigned N, class P = void> struct thread_block_tile :
    coalesced_group {
	template <class Q> __device__ thread_block_tile(
	    const thread_block_tile<N, Q> &);
	__device__ thread_block_tile(); };
template <unsigned N, class P = void> struct block_tile_memory {
	unsigned char storage[N]; };
__device__ thread_block this_thread_block();
template <unsigned N, class P> __device__ thread_block this_thread_block(
    block_tile_memory<N, P> &);
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned N, class P> __device__ thread_block_tile<N, P>
    tiled_partition(const P &);
__device__ thread_group tiled_partition(const thread_group &, unsigned);
template <class G> __device__ coalesced_group labeled_partition(const G &,
    int);
template <class G> __device__ coalesced_group binary_partition(const G &,
    bool);
template <class G> __device__ void sync(const G &);
template <class T = void> struct plus {
	__device__ T operator()(const T &, const T &) const; };
template <class T = void> struct less {
	__device__ T operator()(const T &, const T &) const; };
template <class T = void> struct greater {
	__device__ T operator()(const T &, const T &) const; };
template <class T = void> struct bit_and {
	__device__ T operator()(const T &, const T &) const; };
template <class T = void> struct bit_or {
	__device__ T operator()(const T &, const T &) const; };
template <class T = void> struct bit_xor {
	__device__ T operator()(const T &, const T &) const; };
template <class G, class T, class Op> __device__ T reduce(const G &, T, Op);
template <class G, class T, class Op> __device__ T inclusive_scan(const G &,
    T, Op);
template <class G, class T> __device__ T inclusive_scan(const G &, T);
template <class G, class T, class Op> __device__ T exclusive_scan(const G &,
    T, Op);
template <class G, class T> __device__ T exclusive_scan(const G &, T);
template <class G, class T> __device__ void memcpy_async(const G &, T *,
    const T *, size_t);
template <class G> __device__ void memcpy_async(const G &, void *,
    const void *, size_t);
template <class G> __device__ void wait(const G &);
template <class G> __device__ void wait_prior(const G &);
}

/*
 * PyTorch extensions hold most of the CUDA kernels in the wild: forward
 * declarations of the framework types kernels are specialized for let such
 * code parse when ATen's headers are absent, and agree with them when they
 * are present.
 */
namespace c10 { struct Half; struct BFloat16; }
namespace at { using c10::Half; using c10::BFloat16; class Tensor; }
namespace torch { using namespace at; }

#endif
