// Multi-block cases (test/mutate.t): a grid that grows with a scalar
// which every default case holds small runs one block in every case, so
// a mutant of what the kernel does with blockIdx.x survives; kwrap adds
// a case of two blocks.  Near misses: a grid of constants, a kernel that
// names no blockIdx, a grid some case already makes two blocks.

struct Planes {
	const float *x;
	float *y;
	int n;
	int rows;
	int c;
};

// channels by blocks, rows by a loop, images by blockIdx.z: the
// buffers' three sizes multiply, and the default cases keep c small
__global__ void plane_scale(Planes p)
{
	int ni = blockIdx.z;
	int ci = blockIdx.x * 256 + threadIdx.x;
	if (ci >= p.c)
		return;
	for (int r = 0; r < p.rows; r++)
		p.y[(ni * p.rows + r) * p.c + ci] =
		    p.x[(ni * p.rows + r) * p.c + ci] * 2.0f;
}

// near miss: one block whatever the sizes
__global__ void fixed_grid(const float *x, float *y, int groups)
{
	int i = blockIdx.x * 64 + threadIdx.x;
	if (i < groups)
		y[i] = x[i] + 1.0f;
}

// near miss: no blockIdx to vary
__global__ void no_block(const float *x, float *y, int groups)
{
	if ((int)threadIdx.x < groups)
		y[threadIdx.x] = x[threadIdx.x] + 1.0f;
}

// near miss: the default sizes already give many blocks
__global__ void sized(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] + 1.0f;
}

void launch(Planes p, const float *x, float *y, int groups, int n)
{
	plane_scale<<<dim3((p.c + 255) / 256, 1, p.n), 256>>>(p);
	fixed_grid<<<1, 64>>>(x, y, groups);
	no_block<<<(groups + 63) / 64, 64>>>(x, y, groups);
	sized<<<(n + 255) / 256, 256>>>(x, y, n);
}
