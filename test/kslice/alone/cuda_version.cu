// A macro the slice takes from a block that tests CUDA_VERSION: the
// parse's CUDA wrapper includes <cuda.h>, which defines it, so the
// header's own include of it is skipped there; nvcc includes it for no
// one, and the slice must.
#include "cuda_version.cuh"

__global__ void lanes_scale(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] * LANES;
}
