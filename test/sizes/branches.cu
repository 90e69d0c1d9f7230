// Pointers set in branches, namesakes in sibling scopes, loads picked
// by a class specialization and grids split by a product
// (test/kwrap-sizes.t): each buffer's count comes from its accesses.

// a load as a class's constructor, one specialization per width
template <int W>
struct load_of;

template <>
struct load_of<1> {
	__device__ __forceinline__ load_of(float &v, const float *p)
	{
		v = p[0];
	}
};

template <>
struct load_of<4> {
	__device__ __forceinline__ load_of(float &v, const float *p)
	{
		v = p[0] + p[1] + p[2] + p[3];
	}
};

// if constexpr on a template value: only the instance's branch runs
template <bool PADDED>
__global__ void checked_rows(const float *src, float *dst, int rows, int cols,
    int pitch)
{
	int r = blockIdx.x, c = threadIdx.x;
	const float *row;

	if (r >= rows || c >= cols)
		return;
	if constexpr (PADDED)
		row = src + r * pitch;
	else
		row = src + r * cols;
	dst[r * cols + c] = 2.f * row[c] + 1.f;
}

// a pointer set in either branch of a runtime if: the larger reach
__global__ void either_rows(const float *src, float *dst, int n, int wide)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	const float *p;

	if (i >= n)
		return;
	if (wide > 0)
		p = src + 2 * i;
	else
		p = src + i;
	dst[i] = p[0] * p[0];
}

// two loops, each with its own q: the first unguarded up to the last
// full tile, the second (from tiles - 1) guarded
__global__ void two_loops(const float *x, float *out, int n, int split)
{
	int tiles = ((n + 63) / 64 + split - 1) / split;
	int z = blockIdx.x;
	float acc = 0.f;

	for (int t = 0; t < tiles - 1; ++t) {
		int k = z + split * t;
		const float *q = x + k * 64;
		acc += q[threadIdx.x];
	}
	for (int t = tiles - 1; t < tiles; ++t) {
		int k = z + split * t;
		const float *q = x + k * 64;
		if (k * 64 + (int)threadIdx.x < n)
			acc += q[threadIdx.x];
	}
	out[z * 64 + threadIdx.x] = acc;
}

// the load the instance's template value names, not every width
template <int W>
__global__ void picked_load(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v;

	if (i >= n)
		return;
	load_of<W>(v, x + i);
	out[i] = v - 0.5f;
}

// a flat grid of batch * rows * cols blocks, split by a product
__global__ void flat_split(const float *x, float *out, int batch, int rows,
    int cols)
{
	int b = blockIdx.x / (rows * cols);
	int rc = blockIdx.x % (rows * cols);

	if (threadIdx.x == 0)
		out[b * rows * cols + rc] = x[b];
}

// a grid of ((m + 127) / 128) * (n / 16 / 4) blocks, 64 columns a
// block: each factor is at least 1 in every case, so blockIdx.x / (n /
// 16 / 4) has a bound
__global__ void tiled_grid(const float *x, float *out, int m, int n)
{
	int jf = n / 16 / 4;
	int row = blockIdx.x / jf * 128 + threadIdx.x;
	int col = (blockIdx.x % jf) * 64;

	if (row < m)
		for (int c = 0; c < 64; ++c)
			out[row * n + col + c] = x[row * n + col + c] * 0.5f;
}

// a local set once from the instance's types picks the branch: the
// else never runs for float
template <typename T>
__global__ void typed_split(const T *x, T *out, int n, int c)
{
	int index = blockIdx.x * blockDim.x + threadIdx.x;
	int i, j;
	bool wide = sizeof(T) == 4;

	if (wide) {
		i = index / c;
		j = index % c;
	} else {
		i = index / (c >> 1);
		j = index % (c >> 1);
	}
	if (i >= n)
		return;
	out[i * c + j] = x[i * c + j] * (T)2;
}

void launch(const float *src, float *dst, const float *x, float *out, int rows,
    int cols, int pitch, int n, int wide, int split, int batch)
{
	checked_rows<false><<<rows, cols>>>(src, dst, rows, cols, pitch);
	checked_rows<true><<<rows, cols>>>(src, dst, rows, cols, pitch);
	either_rows<<<(n + 127) / 128, 128>>>(src, dst, n, wide);
	two_loops<<<split, 64>>>(x, out, n, split);
	picked_load<1><<<(n + 127) / 128, 128>>>(x, out, n);
	flat_split<<<batch * rows * cols, 32>>>(x, out, batch, rows, cols);
	typed_split<float><<<(n * cols + 255) / 256, 256>>>(x, out, n, cols);
	if (cols % 64 == 0)
		tiled_grid<<<((n + 127) / 128) * (cols / 16 / 4), 128>>>(x, out,
		    n, cols);
}
