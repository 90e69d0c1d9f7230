// kwrap --switch-cases: a scalar ordered against a constant (k < 5) and a
// store guarded by the data against a whole constant (x[i] >= 0.0f);
// --survivor-cases: sizes n and m, equal in every case
__global__ void order_guard(const float *x, float *y, int n, int m, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = 0.0f;
		for (int j = 0; j < m; j++)
			v += x[(i + j) % n];
		if (k < 5)
			v = -v;
		if (x[i] >= 0.0f)
			y[i] = v;
		else
			y[i] = 1.0f;
	}
}
