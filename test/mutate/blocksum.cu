// kwrap --mutants: a shared-memory reduction (__syncthreads, a loop bound)
__global__ void block_sum(const float *in, float *out, int n)
{
	__shared__ float buf[256];
	int t = threadIdx.x;
	int i = blockIdx.x * 256 + t;
	buf[t] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (int s = 128; s > 0; s >>= 1) {
		if (t < s)
			buf[t] += buf[t + s];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = buf[0];
}
