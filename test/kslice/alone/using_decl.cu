// kslice: names brought into scope by namespace-scope using-declarations
// (using lib::Clamp;) and spelled unqualified in the kernel, here as a
// template argument: the slice needs the using-declarations of the names
// it spells, not only the declarations they name.
#include "using_decl.cuh"

using lib::Clamp;
using lib::View;

__global__ void clamp_copy(View<float, Clamp> in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in.get(i);
}

void launch_clamp_copy(View<float, Clamp> in, float *out, int n)
{
	clamp_copy<<<(n + 255) / 256, 256>>>(in, out, n);
}
