// kslice: a macro the project's build defines when the toolkit has a
// feature (HAVE_BF16: the toolkit's <cuda_bf16.h> is included only under
// #ifdef HAVE_BF16), and a fallback for toolkits without it under the
// #else (__nv_bfloat162 spelled as __half2).  Parsed without the macro,
// the slice takes the fallback, which clashes with the real type wherever
// a toolkit header brings <cuda_bf16.h> on its own (CUDA 13's
// <cooperative_groups.h> does, 12.4's does not): the toolkit has the
// header, so the macro is defined, in the parse and in slice.flags.
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#ifdef HAVE_BF16
#include <cuda_bf16.h>
#endif

#ifndef HAVE_BF16
using __nv_bfloat162 = __half2;
#endif

#ifdef HAVE_BF16
__device__ float2 pair_to_float2(__nv_bfloat162 v)
{
	return __bfloat1622float2(v);
}
#else
__device__ float2 pair_to_float2(__nv_bfloat162 v)
{
	return __half22float2(v);
}
#endif

__global__ void
pair_sum(const __nv_bfloat162 *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		float2 f = pair_to_float2(in[i]);
		out[i] = f.x + f.y;
	}
}
