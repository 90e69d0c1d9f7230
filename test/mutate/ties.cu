// kwrap's boundary cases: two computed values compared (d < best), the
// locals declared in a list: every float input on the grid -2 ... 2,
// where such values tie and "<" and "<=" pick different indices
__global__ void nearest(const float *p, const float *q, int *idx, int n,
    int m)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float d, best = 1e30f;
	int bi = 0;
	for (int j = 0; j < m; j++) {
		d = fabsf(p[i] - q[j]);
		if (d < best) {
			best = d;
			bi = j;
		}
	}
	idx[i] = bi;
}
