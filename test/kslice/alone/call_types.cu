// kslice: a kernel written for half precision only (__habs and __hmax on
// its element type, which float makes ambiguous), launched from a
// launcher template whose callers name the types (launch_abs_max<__half,
// 2>(...)): the instance that --types' float gives does not parse, and
// kslice takes the type the launcher's calls give it instead (kscan's
// launches[].call_types).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

template <typename T, int unroll>
__global__ void
abs_max_kernel(const T *in, T *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	T m = __habs(in[0]);

	for (int u = 0; u < unroll; u++)
		if (i * unroll + u < n)
			m = __hmax(m, __habs(in[i * unroll + u]));
	if (i < n)
		out[i] = m;
}

template <typename T, int unroll>
void
launch_abs_max(const T *in, T *out, int n)
{
	abs_max_kernel<T, unroll><<<(n + 127) / 128, 128>>>(in, out, n);
}

void
abs_max_half(const __half *in, __half *out, int n)
{
	launch_abs_max<__half, 2>(in, out, n);
}
