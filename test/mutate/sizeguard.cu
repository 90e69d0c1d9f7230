// kwrap: size-guard cases (test/mutate.t).  A kernel that exits early on
// an empty size gets a case with that size at the guard's constant, and
// near misses that must not: an output the guard leaves unwritten, a
// store before the guard, a grid that the size makes empty.

// one block per row; m picks per row, the first stored before the loop:
// m = 0 returns before any store (a guard made "m < 0" stores picks[0]
// into a buffer of 0 elements)
__global__ void pick_rows(int b, int n, int m, const float *pts, int *picks)
{
	if (m <= 0)
		return;
	const int row = blockIdx.x;
	if (threadIdx.x == 0)
		picks[row * m] = (int)pts[row * n];
	for (int j = 1 + threadIdx.x; j < m; j += blockDim.x)
		picks[row * m + j] = (int)pts[row * n + j % n];
}

// two sizes joined by ||: each gets its own case
__global__ void pair_rows(int b, int n, int m, const float *u, float *v)
{
	if (n <= 0 || m <= 0)
		return;
	const int row = blockIdx.x;
	for (int j = threadIdx.x; j < n * m; j += blockDim.x)
		v[row * n * m + j] = u[row * n * m + j] * 2.0f;
}

// near miss: y has n elements whatever m is; m = 0 would leave it unwritten
__global__ void keeps_y(int n, int m, const float *x, const float *w,
    float *y)
{
	if (m <= 0)
		return;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] * w[i % m];
}

// near miss: a store runs before the guard
__global__ void store_first(int b, int m, float *acc)
{
	acc[blockIdx.x] = 0.0f;
	if (m <= 0)
		return;
	for (int j = threadIdx.x; j < m; j += blockDim.x)
		atomicAdd(&acc[blockIdx.x], 1.0f);
}

// near miss: the grid is sized by n, empty at n = 0
__global__ void grid_of(int n, const float *x, float *y)
{
	if (n <= 0)
		return;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] + 1.0f;
}

void launch(int b, int n, int m, const float *pts, int *picks, float *v,
    float *y, float *acc)
{
	pick_rows<<<b, 256>>>(b, n, m, pts, picks);
	pair_rows<<<b, 256>>>(b, n, m, pts, v);
	keeps_y<<<(n + 255) / 256, 256>>>(n, m, pts, v, y);
	store_first<<<b, 256>>>(b, m, acc);
	grid_of<<<(n + 255) / 256, 256>>>(n, pts, y);
}
