// kwrap --switch-cases: a store guarded by the data (x[i] > 0.5f)
__global__ void clamp_low(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		if (x[i] > 0.5f)
			y[i] = x[i];
		else
			y[i] = 0.5f;
	}
}
