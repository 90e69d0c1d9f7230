// test-gpu: a partition that places each element through an atomic
// counter, positive values from the front and the rest from the back;
// every slot is written once, but which element lands where changes
// between runs (an unordered output)
__global__ void split_sign(const float *x, float *out, int *count, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	if (x[i] > 0.0f)
		out[atomicAdd(&count[0], 1)] = x[i];
	else
		out[n - 1 - atomicAdd(&count[1], 1)] = x[i];
}
