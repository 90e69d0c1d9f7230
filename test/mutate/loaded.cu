// kwrap's boundary cases, data reached through a load into a local
// array (test/mutate.t): load4 fills d from g as cub's BlockLoad or a
// project's load_global does, and d[j] != 0.0f beside a switch is a
// comparison of g's data, which gets whole steps around 0 (a third of
// them exactly 0: the skip runs); st is read and written (inout) and
// compared with 0.5f; store4 writes d to out, which is no input
__device__ void load4(float *dst, const float *src)
{
	for (int j = 0; j < 4; j++)
		dst[j] = src[j];
}

__device__ void store4(float *dst, const float *src)
{
	for (int j = 0; j < 4; j++)
		dst[j] = src[j];
}

__global__ void loaded_kernel(const float *g, float *st, float *out, int n,
    bool skip)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float d[4];
		load4(d, &g[4 * i]);
		for (int j = 0; j < 4; j++) {
			if (!skip || d[j] != 0.0f)
				d[j] = d[j] * 2.0f + 1.0f;
			if (st[4 * i + j] > 0.5f)
				st[4 * i + j] = 0.0f;
		}
		store4(out + 4 * i, d);
	}
}

void launch(const float *g, float *st, float *out, int n, bool skip)
{
	loaded_kernel<<<(n + 127) / 128, 128>>>(g, st, out, n, skip);
}
