// test-gpu: a reference that accumulates with float atomicAdd; the order
// of the additions, and so the last bits of the sums, change between runs
__global__ void bin_sum(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&out[i % 4], x[i] * (float)(1 + i % 7));
}
