// Segment offsets (man kwrap, "Segment offsets"): a buffer read at [b] and
// [b + 1] whose two values bound a segment.  Test data for
// test/kwrap-sizes.t.

// Rows of a packed array copied into a padded one: first[b] .. first[b + 1]
// is row b; an offset below its predecessor would make num negative, and
// f < num compares unsigned.
__global__ void packed_rows_kernel(const float *packed, const long *first,
    float *padded, unsigned long batch, unsigned long width,
    unsigned long total)
{
	unsigned long b = blockIdx.x;
	long start = first[b];
	long end = b + 1 < batch ? first[b + 1] : (long)total;
	int num = end - start;
	for (unsigned long f = threadIdx.x; f < num; f += blockDim.x)
		padded[b * width + f] = packed[start + f];
}

// A loop from one offset to the next: the same kind.
__global__ void segment_sum_kernel(int n, const int *row, const float *v,
    float *sum)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= n)
		return;
	int lo = row[r];
	int hi = row[r + 1];
	float s = 0.0f;
	for (int j = lo; j < hi; j++)
		s += v[j];
	sum[r] = s;
}

// A pair read the same way but used apart (a height and a width): no
// offsets.
__global__ void shape_pairs_kernel(int n, const int *shapes, int *area)
{
	int l = blockIdx.x * blockDim.x + threadIdx.x;
	if (l >= n)
		return;
	int h = shapes[2 * l];
	int w = shapes[2 * l + 1];
	area[l] = h * w;
}

// A row pointer read in a loop's header, neither end kept in a local of
// its own: the same kind.
__global__ void csr_rows_kernel(int n, const int *rowptr, const int *col,
    const float *val, const float *x, float *y)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= n)
		return;
	float s = 0.0f;
	for (int j = rowptr[r]; j < rowptr[r + 1]; j++)
		s += val[j] * x[col[j]];
	y[r] = s;
}

// A position taken from one offset and compared with the next: sequence
// b's tokens are first[b] .. first[b + 1] (batches packed without
// padding).
__global__ void packed_tokens_kernel(int h, const int *first,
    const float *in, float *out)
{
	int s = blockIdx.x, b = blockIdx.y;
	int t = s + first[b];
	if (t >= first[b + 1])
		return;
	for (int i = threadIdx.x; i < h; i += blockDim.x)
		out[t * h + i] = 2.0f * in[t * h + i];
}

// A table a helper bisects: the segment each element falls in.
__device__ int find_segment(const int *starts, int v, int lo, int hi)
{
	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (starts[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

__global__ void segment_of_kernel(int n, const int *starts, const float *w,
    float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int seg = find_segment(starts, i, 0, n);
	out[i] = seg < 0 ? 0.0f : w[seg];
}

// A pair compared with a value that did not come from its first element
// (a width bounds a column): no offsets.
__global__ void pair_bound_kernel(int n, const int *dims, float *out)
{
	int l = blockIdx.y;
	if (l >= n)
		return;
	int h = dims[2 * l];
	int x = threadIdx.x;
	if (x >= dims[2 * l + 1])
		return;
	out[l * 64 + x] = (float)h;
}
