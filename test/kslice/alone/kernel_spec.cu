// kslice: a kernel template that is only declared, every type it serves
// an explicit specialization (template <> __global__ void k<float>(...)),
// each a kernel of its own, one whose body the parse skips (#ifdef): its
// slice must declare the primary template before the specialization even
// where nothing in the parsed body leads to it.
// slices: 2
#include <cuda_fp16.h>

template <typename T>
__global__ void scale_rows(T *out, const T *in, int n, float s);

template <>
__global__ void
scale_rows<float>(float *out, const float *in, int n, float s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] * s;
}

template <>
__global__ void
scale_rows<__half>(__half *out, const __half *in, int n, float s)
{
#ifdef HALF_AVAILABLE
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = __float2half(__half2float(in[i]) * s);
#endif
}

void
launch_scale_rows(float *out, const float *in, int n, float s)
{
	scale_rows<float><<<(n + 255) / 256, 256>>>(out, in, n, s);
}
