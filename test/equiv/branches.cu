// Branches that never run for a template instance (test/equiv.t): the
// two sides of an "if constexpr", the else of an if whose condition
// holds; near misses where they run: the instance that takes them.

enum DataType { General8bit, FP4, NF4 };

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

// an else-if chain on a data type: the else of the first if, and the
// nested if it holds, never run for General8bit
template <int D>
__global__ void dequant(const int *q, int *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = q[i];
	if (D == General8bit) {
		v = v * 3;
	} else if (D == FP4) {
		v = v - 8;
		if (v < 0)
			v = -v;
	} else
		v = v + 1;
	y[i] = v;
}

void launch(const float *x, float *y, const int *q, int *w, int n,
    int mode)
{
	sparse_scale<0><<<(n + 255) / 256, 256>>>(x, y, n);
	sparse_scale<1><<<(n + 255) / 256, 256>>>(x, y, n);
	dequant<General8bit><<<(n + 255) / 256, 256>>>(q, w, n);
	dequant<NF4><<<(n + 255) / 256, 256>>>(q, w, n);
}
