// kwrap --switch-cases: a guard on a local loaded from the data
__global__ void relu_local(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i];
		if (v > 0.25f)
			y[i] = v;
		else
			y[i] = 0.0f;
	}
}
