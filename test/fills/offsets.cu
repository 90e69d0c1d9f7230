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
