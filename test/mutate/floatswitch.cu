// A float scalar compared with a constant (test/mutate.t): the default
// cases hold it at one value beside plain data (the zeros case gives it
// 0 only beside all-zero inputs), so "clip > 0.0f" made ">=" survives;
// kwrap adds a case with clip at 0.  Near misses: a float scalar only
// multiplied, one tested for truth alone.

__global__ void clipped(const float *x, float *y, float clip, float scale,
    int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i] * scale;
	if (clip > 0.0f)
		v = fminf(v, clip);
	y[i] = v;
}

__global__ void truthy(const float *x, float *y, float alpha, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = alpha ? x[i] * alpha : x[i];
}

void launch(const float *x, float *y, float clip, float scale, int n)
{
	clipped<<<(n + 255) / 256, 256>>>(x, y, clip, scale, n);
	truthy<<<(n + 255) / 256, 256>>>(x, y, scale, n);
}
