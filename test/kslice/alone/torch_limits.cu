// kslice: a PyTorch extension kernel that starts a maximum at
// at::numeric_limits<T>::lowest() (ATen/NumericUtils.h, callable in
// device code): the stub must define it, for float and the half types.
#include <torch/extension.h>

template <typename scalar_t>
__global__ void
row_max_kernel(const scalar_t *x, scalar_t *out, int cols)
{
	scalar_t m = at::numeric_limits<scalar_t>::lowest();

	for (int c = 0; c < cols; c++)
		m = x[blockIdx.x * cols + c] > m ? x[blockIdx.x * cols + c] : m;
	out[blockIdx.x] = m;
}

void
row_max(const float *x, float *out, int rows, int cols)
{
	row_max_kernel<float><<<rows, 1>>>(x, out, cols);
}
