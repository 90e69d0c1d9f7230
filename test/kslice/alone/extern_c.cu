// kslice: a variable declared in a header with a one-line linkage
// specification (extern "C" T name;) and defined in the kernel's file,
// its name also the name of a kernel parameter (which brings both
// declarations).  The declaration's extent starts after extern "C":
// copied without it, it is a second definition.
#include "extern_c.cuh"

unsigned long long gain_handle;

__global__ void apply_gain(const float *in, float *out, int n,
    unsigned long long gain_handle)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] * (float)(gain_handle & 3);
}

void launch_apply_gain(const float *in, float *out, int n)
{
	apply_gain<<<(n + 255) / 256, 256>>>(in, out, n, gain_handle);
}
