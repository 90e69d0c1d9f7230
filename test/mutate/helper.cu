// kwrap --switch-cases: a scalar the kernel passes to a helper that
// compares it under the same name (pool == 1)
__device__ float pooled(float a, float b, int pool)
{
	if (pool == 1)
		return a > b ? a : b;
	return 0.5f * (a + b);
}

__global__ void pool_pairs(const float *x, float *y, int n, int pool)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = pooled(x[2 * i], x[2 * i + 1], pool);
}
