// A seed and an offset passed as a std::pair, as dropout kernels take
// their random state: kwrap lays it out as its members first and second
// (test/kwrap-byvalue.t).
#include <cstdint>
#include <utility>

__global__ void pair_seed_kernel(float *out, int n,
    std::pair<uint64_t, uint64_t> seed)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = (float)((seed.first + (uint64_t)i * seed.second) % 1000u);
}

// a pair of two different scalars: the second member after padding
__global__ void pair_mixed_kernel(float *out, int n, std::pair<int, double> p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n && i < p.first)
		out[i] = (float)(p.second * i);
}
