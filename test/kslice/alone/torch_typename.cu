// kslice: a PyTorch extension whose device code names a dependent type
// without typename (C++20), which clang takes in C++17 as an extension
// and nvcc does not: PyTorch's default -std=c++17 must become C++20 in
// slice.flags although the slice parses as C++17.
#include <torch/extension.h>

struct Linear {
	struct Params {
		float a, b;
	};
};

template <typename Model>
struct Mapped {
	Model::Params p;
	__device__ float at(float x) const { return p.a * x + p.b; }
};

__global__ void
map_kernel(Mapped<Linear> m, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = m.at(x[i]);
}

void
map_values(Mapped<Linear> m, const float *x, float *y, int n)
{
	map_kernel<<<(n + 255) / 256, 256>>>(m, x, y, n);
}
