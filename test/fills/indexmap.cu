// Index maps (man kwrap, "fills"): an integer buffer whose elements index
// another buffer, -1 where there is none.  Test data for
// test/kwrap-sizes.t.

// A gather through a neighbour map reached through two pointer locals;
// the map is not const but never written, and -1 marks a missing
// neighbour: the map holds indices, feat is sized for them.
__global__ void map_gather_kernel(int rows, int chans, int vol, float *feat,
    int *nbr_map, float *out)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	int *row_map = nbr_map + r * vol;
	for (int k = 0; k < vol; k++) {
		int *at = row_map + k;
		int in_row = *at;
		for (int c = 0; c < chans; c++) {
			float v = 0.0f;
			if (in_row != -1)
				v = feat[in_row * chans + c];
			out[(r * vol + k) * chans + c] = v;
		}
	}
}

// The same map written by the kernel: its values are the kernel's own,
// not data read as indices, and it keeps the default fill.
__global__ void map_reset_kernel(int rows, int vol, int *nbr_map,
    float *cnt)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	int *row_map = nbr_map + r * vol;
	for (int k = 0; k < vol; k++) {
		cnt[r] += (float)row_map[k];
		row_map[k] = 0;
	}
}

// Four channels a thread: the divisor c >> 2 is 0 for c < 4, where the
// kernel has no meaning, so j = index % (c >> 2) is taken to be below it
// and both buffers get a count.
__global__ void quad_rows_kernel(int n, int c, const float *in, float *out)
{
	int index = blockIdx.x * blockDim.x + threadIdx.x;
	int i = index / (c >> 2);
	int j = index % (c >> 2);
	if (i >= n)
		return;
	for (int l = 0; l < 4; l++)
		out[i * c + (j << 2) + l] = 2.0f * in[i * c + (j << 2) + l];
}

// Rows of chans floats read four at a time: an offset of r * chans is a
// multiple of 4 only when chans is, so chans takes multiples of 4 in
// every case; the row count does not.
__global__ void vec_rows_kernel(int rows, int chans, const float *in,
    float *out)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float s = 0.0f;
	for (int c = 0; c < chans / 4; c++) {
		float4 v = *(const float4 *)(in + r * chans + 4 * c);
		s += v.x + v.y + v.z + v.w;
	}
	out[r] = s;
}
