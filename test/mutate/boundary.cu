// kwrap's boundary cases: data compared with a float scalar through a
// local loaded with __ldg (v >= thresh), integer data compared with a
// constant (lab[i] == 2), two inputs compared with each other
// (x[i] < y[i]), a scalar switch beside a data comparison
// (mode == 1 && v > 0.0f) and two scalar comparisons joined (k < lim ||
// flip != 0); n sizes the work
__global__ void boundary_kernel(const float *x, const int *lab,
    const float *y, float *out, int n, float thresh, int mode, int k,
    int lim, int flip)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = __ldg(&x[i]);
		float r = 0.0f;
		if (v >= thresh)
			r = v;
		if (lab[i] == 2)
			r += 1.0f;
		if (x[i] < y[i])
			r *= 2.0f;
		if (mode == 1 && v > 0.0f)
			r -= 1.0f;
		if (k < lim || flip != 0)
			r += 3.0f;
		out[i] = r;
	}
}
