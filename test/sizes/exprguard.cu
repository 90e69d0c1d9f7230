// Guards on an index expression that the subscript spells again
// (test/kwrap-sizes.t): "if (base + k < n) y[base + k] = ...", a ternary
// guard, an offset made of comma-declared ints; and a near miss where a
// name of the expression changes between the guard and the store.  Also
// dynamic shared memory sized from what a template instance runs.
#define TILE 1024

__global__ void tile_flip(const float *x, float *y, int n)
{
	__shared__ float tile[TILE];
	int base = blockIdx.x * TILE;
	for (int k = threadIdx.x; k < TILE; k += blockDim.x)
		tile[k] = base + k < n ? x[base + k] : 0.0f;
	__syncthreads();
	for (int k = threadIdx.x; k < TILE; k += blockDim.x)
		if (base + k < n)
			y[base + k] = tile[TILE - 1 - k] + tile[k];
}

__global__ void row_scale(const float *x, float *y, int rows, int cols)
{
	int r = blockIdx.y, c = threadIdx.x + blockIdx.x * blockDim.x;
	if (r * cols + c < rows * cols)
		y[r * cols + c] = 2.0f * x[r * cols + c];
}

// near miss: base moves after the guard, the store is not bounded by it
__global__ void moved_base(const float *x, float *y, int n)
{
	int base = blockIdx.x * blockDim.x, k = threadIdx.x;
	if (base + k < n) {
		base += 1;
		y[base + k] = x[k];
	}
}

// a guard on the index's last terms only: in row * cols + k * blockDim.x
// + t under "if (k * blockDim.x + t < cols)", the part after the row's
// start is below cols, which neither k's nor t's own range says
__global__ void row_tail(const float *x, float *y, int rows, int cols,
    int iters)
{
	int row = blockIdx.x, t = threadIdx.x;
	if (row >= rows)
		return;
	for (int k = 0; k < iters; k++)
		if (k * blockDim.x + t < cols)
			y[row * cols + k * blockDim.x + t] =
			    x[row * cols + k * blockDim.x + t] + 1.0f;
}

// a grid-stride loop over rows whose index is declared auto: its type
// is blockIdx.y's, an integer, so i1 < n1 bounds it by n1 - 1
__global__ void rows_auto(float *y, float *first, const float *x, int n1,
    int n2)
{
	for (auto i1 = blockIdx.y; i1 < n1; i1 += gridDim.y) {
		const float *v = x + i1 * n2;
		for (int i = threadIdx.x; i < n2; i += blockDim.x)
			y[i1 * n2 + i] = 2.0f * v[i];
		if (threadIdx.x == 0)
			first[i1] = v[0];
	}
}

// a flat index split by one of the sizes it ranges over: i = index / m
// is at most n - 1 for index < n * m, so out holds n * m (not n * m + m
// - 1) and x holds n
__global__ void outer_split(const float *x, const float *w, float *out,
    int n, int m)
{
	for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n * m;
	    index += gridDim.x * blockDim.x) {
		int i = index / m;
		int j = index % m;
		out[i * m + j] = x[i] * w[j];
	}
}

// a block covers 4 rows, a warp each: the grid the guard asks for is
// rows / 4 blocks, not rows / 128 (the block's threads)
int blocks_for(int rows);

__global__ void rows_of_warps(const float *x, float *y, int rows)
{
	int base = blockIdx.x * 4;
	int row = base + threadIdx.x / 32;
	if (row < rows && threadIdx.x % 32 == 0)
		y[row] = 2.0f * x[row];
}

// the block index read only in a helper: one block, and the guess says
// where the index is, not that there is none
__device__ void row_double(const float *x, float *y, int cols)
{
	int r = blockIdx.x;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		y[r * cols + c] = 2.0f * x[r * cols + c];
}

__global__ void rows_in_helper(const float *x, float *y, int cols)
{
	row_double(x, y, cols);
}

void run(const float *x, float *y, int n, int rows, int cols)
{
	rows_in_helper<<<blocks_for(rows), 128>>>(x, y, cols);
	rows_of_warps<<<blocks_for(rows), 128>>>(x, y, rows);
	outer_split<<<(rows * cols + 255) / 256, 256>>>(x, x, y, rows, cols);
	rows_auto<<<dim3(1, 64), 128>>>(y, y + rows * cols, x, rows, cols);
	row_tail<<<rows, 256>>>(x, y, rows, cols, (cols + 255) / 256);
	tile_flip<<<(n + TILE - 1) / TILE, 256>>>(x, y, n);
	row_scale<<<dim3((cols + 255) / 256, rows), 256>>>(x, y, rows, cols);
	moved_base<<<(n + 255) / 256, 256>>>(x, y, n);
}

// dynamic shared memory sized from the code that runs for the instance:
// in tree_sum<32>, "if (B >= 64 && t < 32)" never runs, and s holds 32
// floats, not 64 (a mutant that runs it then reads past s)
template <unsigned int B>
__global__ void tree_sum(const float *x, float *y, int n)
{
	extern __shared__ float s[];
	unsigned int t = threadIdx.x, i = blockIdx.x * B + t;
	s[t] = i < n ? x[i] : 0.0f;
	__syncthreads();
	if (B >= 64 && t < 32)
		s[t] += s[t + 32];
	__syncthreads();
	if (t == 0) {
		float v = 0.0f;
		for (int k = 0; k < (B < 32 ? B : 32); k++)
			v += s[k];
		y[blockIdx.x] = v;
	}
}

void run_tree(const float *x, float *y, int n)
{
	tree_sum<32><<<(n + 31) / 32, 32>>>(x, y, n);
	tree_sum<64><<<(n + 63) / 64, 64>>>(x, y, n);
}
