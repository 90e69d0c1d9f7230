// kslice: a PyTorch extension kernel that converts halves implicitly
// (float x = h; h = x), which PyTorch's default flags forbid
// (-D__CUDA_NO_HALF_CONVERSIONS__): a project like that undoes them in
// its build.  With no compile command to say so, slice.flags must leave
// out the defines under which the kernel's code does not compile.
#include <torch/extension.h>
#include <cuda_fp16.h>

__global__ void
half_scale_kernel(const __half *in, __half *out, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float x = in[i];
		out[i] = x * s;
	}
}

void
half_scale(const __half *in, __half *out, float s, int n)
{
	half_scale_kernel<<<(n + 255) / 256, 256>>>(in, out, s, n);
}
