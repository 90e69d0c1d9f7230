// Cheat: push the work to another stream (a fire-and-forget child grid)
// so that the timed launch returns at once.  Candidates are device code
// only, built with nvcc -cubin and no -rdc, so this cannot even be built;
// and were it built, a parent grid is not complete before its child grids
// are, so the stop event after the launch waits for them, and the harness
// synchronizes the whole context before it reads the time.
__global__ void relu_child(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] > 0.0f ? in[i] : 0.0f;
}

__global__ void relu_kernel(const float *in, float *out, int n)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		relu_child<<<(n + 255) / 256, 256, 0, cudaStreamFireAndForget>>>(in, out, n);
}
