// kslice: device code that returns std::tuple and reads it with
// std::get, in a source that has <tuple> only through a PyTorch header
// (the real <torch/extension.h> includes it; the slice keeps a stub in
// its place).  The parse must see std::tuple complete (else the helper
// is an invalid declaration the slice loses) and the slice must include
// <tuple>.
#include <torch/extension.h>

__device__ std::tuple<float, int>
max_and_index(const float *v, int n)
{
	float best = v[0];
	int at = 0;
	for (int i = 1; i < n; i++)
		if (v[i] > best) {
			best = v[i];
			at = i;
		}
	return std::make_tuple(best, at);
}

__global__ void
row_argmax_kernel(const float *x, int *idx, float *val, int rows, int cols)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	std::tuple<float, int> m = max_and_index(x + r * cols, cols);
	val[r] = std::get<0>(m);
	idx[r] = std::get<1>(m);
}
