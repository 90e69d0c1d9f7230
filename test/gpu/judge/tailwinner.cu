// test-gpu: every element but the last doubled, and the last written by
// thread 0 of every block: it holds the index of whichever block stored
// last, which can change between runs while the other elements do not.
// Where it changes, the output is masked: judged on every other element.
__global__ void tail_winner(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n - 1)
		out[i] = 2.0f * x[i];
	if (threadIdx.x == 0 && n > 0)
		out[n - 1] = (float)blockIdx.x;
}

void run_tail_winner(const float *x, float *out, int n)
{
	tail_winner<<<(n + 255) / 256, 256>>>(x, out, n);
}
