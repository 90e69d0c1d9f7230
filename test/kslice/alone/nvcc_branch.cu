// kslice: a macro whose definition depends on which compiler reads it
// (__NVCC__ is nvcc's alone; the parse takes the other branch).  The
// slice must carry the whole conditional, so that nvcc picks its own
// branch: with only the parsed branch's "inline" the helper is a host
// function the kernel cannot call.
#if defined(__NVCC__)
#define HD_INLINE __forceinline__ __host__ __device__
#define ON_DEVICE 1
#elif defined(__CUDACC_RTC__)
#define HD_INLINE __forceinline__ __device__
#define ON_DEVICE 1
#else
#include <cmath>
#define HD_INLINE inline
#define ON_DEVICE 0
#endif

HD_INLINE float twice(float x) { return 2.0f * x; }

__global__ void branch_kernel(float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = twice(y[i]) + ON_DEVICE;
}
