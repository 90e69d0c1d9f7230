// Strides passed as integers (man kwrap, "Strides passed as integers"):
// a tensor's layout handed to the kernel as scalars, which the cases set
// from the sizes so that no two elements meet.  Test data for
// test/kwrap-sizes.t.

// Heads and channels of each row, the source's strides and the
// destination's apart (a rotary embedding's shape); the launcher passes
// strides it read from its tensors.
__global__ void rotate_rows(const int rows, const int h, const int d,
    const int stride_r, const int stride_h, const int stride_d,
    const int o_stride_r, const int o_stride_h, const int o_stride_d,
    const float *src, float *dst)
{
	int r = blockIdx.x;
	if (r >= rows)
		return;
	int off = r * stride_r;
	int o_off = r * o_stride_r;
	for (int hi = threadIdx.y; hi < h; hi += blockDim.y)
		for (int di = threadIdx.x; di < d; di += blockDim.x) {
			float v = src[off + hi * stride_h + di * stride_d];
			dst[o_off + hi * o_stride_h + di * o_stride_d] =
			    2.0f * v + (float)hi;
		}
}

void launch_rotate(int rows, int h, int d, const int *st, const int *ost,
    const float *src, float *dst)
{
	dim3 block(32, 8);
	rotate_rows<<<rows, block>>>(rows, h, d, st[0], st[1], st[2], ost[0],
	    ost[1], ost[2], src, dst);
}

// A step that multiplies an index whose product is then compared (a
// convolution's stride): no layout, the cases keep their own values.
__global__ void strided_pick(int n, int width, int step, const float *in,
    float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int x = i * step - 1;
	out[i] = (x >= 0 && x < width) ? in[x] : 0.0f;
}

// The same rows done in two halves by one helper, the offsets stepped
// on between the calls (off += d / 2 * stride_d): the second call's
// offset is the first's plus the step, so the accesses are bounded and
// the strides a layout again.
__device__ void rotate_half(const float *src, float *dst, int off, int o_off,
    int h, int d2, int stride_h, int stride_d, int o_stride_h,
    int o_stride_d)
{
	for (int hi = threadIdx.y; hi < h; hi += blockDim.y)
		for (int di = threadIdx.x; di < d2; di += blockDim.x)
			dst[o_off + hi * o_stride_h + di * o_stride_d] =
			    2.0f * src[off + hi * stride_h + di * stride_d];
}

__global__ void rotate_halves(const int rows, const int h, const int d,
    const int stride_r, const int stride_h, const int stride_d,
    const int o_stride_r, const int o_stride_h, const int o_stride_d,
    const float *src, float *dst)
{
	int r = blockIdx.x;
	int off = r * stride_r;
	int o_off = r * o_stride_r;
	rotate_half(src, dst, off, o_off, h, d / 2, stride_h, stride_d,
	    o_stride_h, o_stride_d);
	off += d / 2 * stride_d;
	o_off += d / 2 * o_stride_d;
	rotate_half(src, dst, off, o_off, h, d / 2, stride_h, stride_d,
	    o_stride_h, o_stride_d);
}

void launch_halves(int rows, int h, int d, const int *st, const int *ost,
    const float *src, float *dst)
{
	rotate_halves<<<rows, dim3(32, 8)>>>(rows, h, d, st[0], st[1], st[2],
	    ost[0], ost[1], ost[2], src, dst);
}
