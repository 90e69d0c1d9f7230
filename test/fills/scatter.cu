// Index buffers whose values pick where a store without an atomic lands
// (man kwrap, "distinct"): filled with distinct values, so no two
// threads store to one element.  Test data for test/kwrap-sizes.t.

// rows accumulated into through an output map, as a sparse
// convolution's scatter does: out[c * omap[k] + j] += v
__global__ void scatter_rows_kernel(int n, int c, const float *x,
    const int *omap, float *out)
{
	int k = blockIdx.x;
	int j = threadIdx.x;

	if (k >= n || j >= c)
		return;
	out[c * omap[k] + j] += 2.f * x[k * c + j];
}

// through a local that a read of the map sets, -1 where there is none
__global__ void scatter_local_kernel(int n, const float *x, const int *idx,
    float *out)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;
	int o = k < n ? idx[k] : -1;

	if (o > -1)
		out[o] = x[k] * x[k] + 1.f;
}

// near miss: the map picks what is read, not where the store lands
__global__ void gather_rows_kernel(int n, int c, const float *x,
    const int *imap, float *out)
{
	int k = blockIdx.x;
	int j = threadIdx.x;

	if (k >= n || j >= c)
		return;
	out[k * c + j] = x[c * imap[k] + j] - 1.f;
}

// near miss: an atomic is no race, whatever the map repeats
__global__ void scatter_atomic_kernel(int n, const float *x, const int *idx,
    float *out)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;

	if (k < n)
		atomicAdd(&out[idx[k]], x[k]);
}

void launch(int n, int c, const float *x, const int *map, float *out)
{
	scatter_rows_kernel<<<n, c>>>(n, c, x, map, out);
	scatter_local_kernel<<<(n + 127) / 128, 128>>>(n, x, map, out);
	gather_rows_kernel<<<n, c>>>(n, c, x, map, out);
	scatter_atomic_kernel<<<(n + 127) / 128, 128>>>(n, x, map, out);
}
