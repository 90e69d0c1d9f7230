// kslice: a PyTorch extension whose device code uses C++20 (a member
// with a requires clause), which PyTorch's default -std=c++17 does not
// parse: a project like that builds with a newer standard.  With no
// compile command to say so, slice.flags must ask for the standard the
// slice parses under.
#include <torch/extension.h>
#include <type_traits>

template <typename T>
struct Scaled {
	T v;
	__device__ T twice() const
		requires std::is_floating_point_v<T>
	{
		return v + v;
	}
};

__global__ void
twice_kernel(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		Scaled<float> s = { x[i] };
		x[i] = s.twice();
	}
}

void
launch_twice(float *x, int n)
{
	twice_kernel<<<(n + 255) / 256, 256>>>(x, n);
}
