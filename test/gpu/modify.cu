// Cheat: correct output, but it clobbers its input (scratch space the
// caller did not give it).
__global__ void relu_kernel(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = in[i];
		out[i] = v > 0.0f ? v : 0.0f;
		const_cast<float *>(in)[i] = 0.0f;
	}
}
