// A candidate that faults: thread 0 writes far outside every allocation
// (an illegal address), the rest is a correct relu.  It must fail alone:
// the records verified before and after it keep their verdicts.
__global__ void relu_kernel(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i == 0)
		*(volatile float *)((char *)out + (1ULL << 46)) = 1.0f;
	if (i < n)
		out[i] = in[i] > 0.0f ? in[i] : 0.0f;
}
