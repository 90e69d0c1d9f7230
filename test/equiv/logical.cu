// Logical swaps proven equivalent by the operator's own node
// (test/equiv.t): one grid row and one grid layer, so blockIdx.y and
// blockIdx.z are 0 in every case; and the near miss where the mutant,
// parsed with the other operator's precedence, groups other operands.

// "y > 0 || z > 0 || i >= n": the first || made && leaves its node 0
// and the rest as it was; the second made && does not
__global__ void chain_guard(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (blockIdx.y > 0 || blockIdx.z > 0 || i >= n)
		return;
	y[i] = 2.0f * x[i];
}

// near miss: "y == 0 && z == 0 && i < n" with the first && made ||
// reads "y == 0 || (z == 0 && i < n)": 1 for every i, though its first
// node (1 && 1, 1 || 1) is 1 either way
__global__ void chain_all(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (blockIdx.y == 0 && blockIdx.z == 0 && i < n)
		y[i] = 2.0f * x[i];
}

void run_chains(const float *x, float *y, int n)
{
	dim3 grid((n + 255) / 256, 1, 1);
	chain_guard<<<grid, 256>>>(x, y, n);
	chain_all<<<grid, 256>>>(x, y, n);
}
