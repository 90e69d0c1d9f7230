// A correct relu_kernel, written differently from the reference.
__global__ void relu_kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		out[i] = in[i] > 0.0f ? in[i] : 0.0f;
}
