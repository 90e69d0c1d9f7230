// kwrap --mutants and --switch-cases: a kernel whose scalars select modes
__global__ void axpy_mode(const float *x, float *y, int n, int mode,
    bool accumulate, float a)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i] * a;
		if (mode == 2)
			v = v + 1.0f;
		switch (mode) {
		case 0: v = -v; break;
		case 3: v = v * 2.0f; break;
		}
		if (accumulate)
			y[i] += v;
		else
			y[i] = v;
	}
}
