// Launches under the launcher's conditions (kscan's launches[].conditions
// in test/kscan.t; the cases kwrap gives, test/kwrap-sizes.t).  A
// launcher that dispatches on its sizes runs a kernel only where they
// hold: tile_rows divides by cols / 32, which is 0 for cols below 32.
// A size kept a multiple of 32 divides by 32 exactly (tap_gather); a
// parameter held equal to a constant takes it (one_group).
// Near misses: the kernel the else branch launches, a condition on no
// parameter, and tap_gather launched under no condition.
#include <torch/extension.h>

// one block a tile of 32 columns of a row
__global__ void tile_rows(const float *x, float *y, int rows, int cols)
{
	int tiles = cols / 32;
	int r = blockIdx.x / tiles, t = blockIdx.x % tiles;
	int c = t * 32 + threadIdx.x;
	if (r < rows)
		y[r * cols + c] = 2.0f * x[r * cols + c];
}

// one thread an element
__global__ void each_elem(const float *x, float *y, int rows, int cols)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < rows * cols)
		y[i] = 2.0f * x[i];
}

// one thread an element, unless told to do nothing
__global__ void each_scaled(const float *x, float *y, int n, float alpha)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = alpha * x[i];
}

// a row's sum over taps of a gather by a map, 32 channels a trip: the
// tap k0 / (chans / 32) stays below taps because chans is a multiple of
// 32 (the launcher's condition), so (chans * taps - 1) / 32 + 1 trips are
// (chans / 32) * taps
__global__ void tap_gather(const float *x, const int *map, float *y,
    int rows, int chans, int taps)
{
	int loops = (chans * taps - 1) / 32 + 1;
	int r = blockIdx.x, t = threadIdx.x;
	float s = 0.0f;
	for (int k0 = 0; k0 < loops; k0++) {
		int tap = k0 / (chans / 32);
		int c = k0 % (chans / 32) * 32 + t;
		s += x[map[r * taps + tap] * chans + c];
	}
	y[r * 32 + t] = s;
}

// the same without a condition: chans / 32 may be 0, the tap has no bound
__global__ void tap_gather_any(const float *x, const int *map, float *y,
    int rows, int chans, int taps)
{
	int loops = (chans * taps - 1) / 32 + 1;
	int r = blockIdx.x, t = threadIdx.x;
	float s = 0.0f;
	for (int k0 = 0; k0 < loops; k0++) {
		int tap = k0 / (chans / 32);
		int c = k0 % (chans / 32) * 32 + t;
		s += x[map[r * taps + tap] * chans + c];
	}
	y[r * 32 + t] = s;
}

void gather_taps(const float *x, const int *map, float *y, int rows,
    int chans, int taps)
{
	if (chans % 32 == 0)
		tap_gather<<<rows, 32>>>(x, map, y, rows, chans, taps);
	tap_gather_any<<<rows, 32>>>(x, map, y, rows, chans, taps);
}

// launched for one group and no offset only (the launcher's condition,
// spelled with "and")
__global__ void one_group(const float *x, float *y, int n, int groups,
    float eps)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] * x[i] * groups + eps;
}

void run_groups(const float *x, float *y, int n, int groups, float eps)
{
	if (groups == 1 and eps == 0.0f)
		one_group<<<(n + 255) / 256, 256>>>(x, y, n, groups, eps);
}

// a mode the kernel switches on, launched in one mode only
__global__ void mode_square(const float *x, float *y, int n, int mode)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		if (mode == 0)
			y[i] = x[i] * x[i];
		else if (mode == 2)
			y[i] = -x[i] * x[i];
		else
			y[i] = 2.0f * x[i] * x[i];
	}
}

void run_mode(const float *x, float *y, int n, int mode)
{
	if (mode == 2)
		mode_square<<<(n + 255) / 256, 256>>>(x, y, n, mode);
}

// one block a row; launched with the new tensor's size as the grid (a
// dim3 local) and as the argument, both as the scan resolves them
__global__ void row_sums(const float *x, float *s, int rows, int cols)
{
	int r = blockIdx.x;
	if (threadIdx.x == 0) {
		float t = 0.0f;
		for (int c = 0; c < cols; c++)
			t += x[r * cols + c];
		s[r] = t;
	}
}

torch::Tensor double_rows(torch::Tensor x, bool quiet)
{
	TORCH_CHECK(x.dim() == 2, "x must be a matrix");
	int rows = x.size(0), cols = x.size(1);
	auto y = torch::empty({rows, cols}, x.options());
	if (cols % 32 == 0 && rows >= 4) {
		// the grid in rows, the argument the new tensor's size
		tile_rows<<<rows * (cols / 32), 32>>>(x.data_ptr<float>(),
		    y.data_ptr<float>(), y.size(0), cols);
	} else {
		each_elem<<<(rows * cols + 255) / 256, 256>>>(
		    x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
	}
	auto s = torch::empty({rows}, x.options());
	dim3 per_row(s.size(0));
	row_sums<<<per_row, 32>>>(x.data_ptr<float>(), s.data_ptr<float>(),
	    s.size(0), cols);
	if (!quiet)
		each_scaled<<<(rows * cols + 255) / 256, 256>>>(
		    x.data_ptr<float>(), y.data_ptr<float>(), rows * cols, 2.0f);
	return y;
}

// a row kept in shared memory, launched only for rows that fit it
// (cols <= 1024): no case is wider than the buffer
__global__ void row_cached(const float *x, float *y, int cols)
{
	__shared__ float row[1024];
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		row[c] = x[blockIdx.x * cols + c];
	__syncthreads();
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		y[blockIdx.x * cols + c] = row[cols - 1 - c];
}

// pairs merged in shared memory up to len, launched only where len
// divides the tile (1024 % len == 0): len is a power of two up to 1024
__global__ void tile_pairs(const int *x, int *y, int len)
{
	__shared__ int s[1024];
	s[threadIdx.x] = x[blockIdx.x * 1024 + threadIdx.x];
	s[threadIdx.x + 512] = x[blockIdx.x * 1024 + threadIdx.x + 512];
	for (int w = 1; w < len; w <<= 1) {
		__syncthreads();
		int l = threadIdx.x & (w - 1), b = 2 * (threadIdx.x - l);
		int lo = s[b + l], hi = s[b + l + w];
		__syncthreads();
		s[b + l] = lo < hi ? lo : hi;
		s[b + l + w] = lo < hi ? hi : lo;
	}
	__syncthreads();
	y[blockIdx.x * 1024 + threadIdx.x] = s[threadIdx.x];
	y[blockIdx.x * 1024 + threadIdx.x + 512] = s[threadIdx.x + 512];
}

void run_tiles(const float *x, float *y, const int *a, int *b, int rows,
    int cols, int len)
{
	if (cols <= 1024)
		row_cached<<<rows, 256>>>(x, y, cols);
	if (1024 % len == 0)
		tile_pairs<<<rows, 512>>>(a, b, len);
}

// whole tiles of 16 columns, no guard: the launcher's grid divides cols
// down (cols / 16), so cols is a multiple of 16 wherever it launches
__global__ void col_tiles(const float *x, float *y, int cols)
{
	int c = blockIdx.x * 16 + threadIdx.x;
	y[blockIdx.y * cols + c] = 2.0f * x[blockIdx.y * cols + c];
}

// near miss: a grid of n / 256 + 1 blocks covers the remainder, so n
// need be no multiple of 256
__global__ void tail_block(const float *x, float *y, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x;
	if (i < n)
		y[i] = x[i] + 1.0f;
}

void run_col_tiles(const float *x, float *y, int rows, int cols)
{
	dim3 grid(cols / 16, rows);
	col_tiles<<<grid, 16>>>(x, y, cols);
	tail_block<<<cols / 256 + 1, 256>>>(x, y, cols);
}

// a warp a row by 4 or 8 rows, as h asks: the launcher's block is the
// warp size PyTorch names by the larger of the two row counts
__global__ void head_rows(const float *x, float *y, int h, int d)
{
	for (int i = threadIdx.y; i < h; i += blockDim.y)
		for (int j = threadIdx.x; j < d; j += blockDim.x)
			y[(blockIdx.x * h + i) * d + j] =
			    0.5f * x[(blockIdx.x * h + i) * d + j];
}

void run_heads(const float *x, float *y, int s, int h, int d)
{
	head_rows<<<s, dim3(C10_WARP_SIZE, h < 16 ? 4 : 8)>>>(x, y, h, d);
}
