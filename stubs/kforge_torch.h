/*
 * kforge stub for PyTorch (ATen, c10, THC): the small part of the framework
 * that device code leans on, on the toolkit's own types.  Sliced kernels get
 * this text instead of the framework's headers, which nvcc cannot find
 * without a PyTorch installation.
 */
#ifndef KFORGE_STUB_TORCH_H
#define KFORGE_STUB_TORCH_H

#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

/* complete types, so that the forward declarations of kforge's parsing
 * prelude agree with them */
namespace c10 {
struct Half {
	__half x;
	Half() = default;
	__host__ __device__ Half(float f) : x(__float2half(f)) {}
	__host__ __device__ Half(__half h) : x(h) {}
	__host__ __device__ operator float() const { return __half2float(x); }
};
struct BFloat16 {
	__nv_bfloat16 x;
	BFloat16() = default;
	__host__ __device__ BFloat16(float f) : x(__float2bfloat16(f)) {}
	__host__ __device__ BFloat16(__nv_bfloat16 h) : x(h) {}
	__host__ __device__ operator float() const
	{
		return __bfloat162float(x);
	}
};
template <typename T>
struct complex {
	T real_, imag_;
};
}
namespace at {
using c10::BFloat16;
using c10::Half;
}

/* THC/THCAtomics.cuh: atomicAdd on half-precision values */
static inline __device__ void gpuAtomicAdd(float *p, float v) { atomicAdd(p, v); }
static inline __device__ void gpuAtomicAdd(double *p, double v) { atomicAdd(p, v); }
static inline __device__ void gpuAtomicAdd(int *p, int v) { atomicAdd(p, v); }
static inline __device__ void gpuAtomicAdd(__half *p, __half v) { atomicAdd(p, v); }
static inline __device__ void gpuAtomicAdd(c10::Half *p, c10::Half v)
{
	atomicAdd(&p->x, v.x);
}
static inline __device__ void atomicAdd(c10::Half *p, c10::Half v)
{
	atomicAdd(&p->x, v.x);
}
template <typename T>
static inline __device__ void fastAtomicAdd(T *p, int64_t index, int64_t,
    T v, bool) { gpuAtomicAdd(p + index, v); }

#define C10_DEVICE __device__
#define C10_HOST_DEVICE __host__ __device__
#define C10_LAUNCH_BOUNDS_1(max_threads) __launch_bounds__((max_threads))
#define C10_WARP_SIZE 32
#define TORCH_CHECK(cond, ...) assert(cond)
#define AT_ASSERTM(cond, ...) assert(cond)
#define CUDA_KERNEL_ASSERT(cond) assert(cond)

#endif
