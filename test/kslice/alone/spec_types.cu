// kslice: a kernel template whose element type only the specializations
// of a helper decide: copy_vec's primary is declared, defined for
// __half and unsigned char alone.  An instance for float (--types) would
// call an undefined device function; the element type must be one the
// helper is specialized for, the accumulator type stays float.
#include <cuda_fp16.h>

template <typename T, int N>
__device__ __inline__ void copy_vec(T *dst, const T *src);

template <>
__device__ __inline__ void copy_vec<__half, 1>(__half *dst, const __half *src)
{
	*dst = *src;
}

template <>
__device__ __inline__ void copy_vec<__half, 4>(__half *dst, const __half *src)
{
	*(float2 *)dst = *(const float2 *)src;
}

template <>
__device__ __inline__ void copy_vec<unsigned char, 4>(unsigned char *dst,
    const unsigned char *src)
{
	*(unsigned *)dst = *(const unsigned *)src;
}

template <typename in_t, typename acc_t, int LOG2>
__global__ void vec_scale(in_t *dst, const in_t *src, acc_t s)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
	in_t tmp[4];
	copy_vec<in_t, 4>(tmp, src + i);
	for (int k = 0; k < 4; k++)
		tmp[k] = (in_t)((acc_t)tmp[k] * s * (acc_t)(1 << LOG2));
	copy_vec<in_t, 4>(dst + i, tmp);
}

template <typename in_t>
void launch_vec_scale(in_t *dst, const in_t *src, float s, int n)
{
	vec_scale<in_t, float, 0><<<n / 512, 128>>>(dst, src, s);
}
