// Branches that never run for a template instance (test/equiv.t): the
// statement of an "if constexpr" whose condition is 0, and the near
// miss where it holds.

// only one side of the if constexpr is compiled for an instance
template <int SPARSE>
__global__ void sparse_scale(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i];
	if constexpr (SPARSE) {
		v = v * 2.0f;
	} else {
		v = v + 1.0f;
	}
	y[i] = v;
}

void launch(const float *x, float *y, const int *q, int *w, int n,
    int mode)
{
	sparse_scale<0><<<(n + 255) / 256, 256>>>(x, y, n);
	sparse_scale<1><<<(n + 255) / 256, 256>>>(x, y, n);
}
