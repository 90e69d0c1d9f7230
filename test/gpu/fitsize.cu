// kverify --fit on the GPU: out[i] = in[2i] + in[2i+1] for i < n.  The
// user spec the GPU test lays over kwrap's (fitsize.spec.ndjson) says in
// holds n elements (too few: the reference reads 2n) and out n + 7 (too
// many: 7 are never written); the GPU fit must find 2 * n and n.
__global__ void pairsum_kernel(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[2 * i] + in[2 * i + 1];
}
