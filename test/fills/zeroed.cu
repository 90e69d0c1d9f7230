// Outputs that start zeroed (man kwrap, "Outputs that start zeroed"):
// kernels that by design leave elements of an output alone, each beside a
// twin that writes every element.  Test data for test/kwrap-sizes.t.

// A value read from a buffer skips the store (continue): y starts zeroed.
__global__ void skip_on_data_kernel(int n, const float *box, float *y)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x) {
		float w = box[2 * i + 1] - box[2 * i];
		if (w <= 0.0f)
			continue;
		y[i] = w * 0.5f;
	}
}

// The same guard on the thread's index only: y stays a pure output.
__global__ void bounds_only_kernel(int n, const float *box, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	y[i] = box[2 * i + 1] - box[2 * i];
}

// A count incremented under a condition on data decides the store.
__global__ void counted_flag_kernel(int n, int m, const int *mask, int *flag)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int cnt = 0;
	for (int k = 0; k < m; k++)
		if (mask[i * m + k] > 0)
			cnt++;
	if (cnt == 0)
		flag[i] = 1;
}

// A bool scalar selects how much of out is written (aligned: n, else n * n).
__global__ void mode_kernel(int n, bool aligned, const float *a, float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (aligned) {
		if (i < n)
			out[i] = a[i] * a[i];
	} else {
		if (i < n * n)
			out[i] = a[i / n] * a[i % n];
	}
}

// An integer scalar that only selects a mode: its cases take a value the
// kernel compares it with (0), not an arbitrary one that runs no branch.
__global__ void pool_mode_kernel(int n, int pool_mode, const float *x,
    float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	if (pool_mode == 0)
		out[i] = fmaxf(x[2 * i], x[2 * i + 1]);
	else if (pool_mode == 1)
		out[i] = 0.5f * (x[2 * i] + x[2 * i + 1]);
}

// Sums accumulated by atomicAdd: grad starts zeroed.
__global__ void scatter_add_kernel(int n, const int *idx, const float *g,
    float *grad)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&grad[idx[i] & 3], g[i]);
}

// atomicMin keeps the caller's start: best keeps its fill.
__global__ void scatter_min_kernel(int n, const int *idx, int *best)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicMin(&best[idx[i] & 3], i);
}

// A flag set through *flag right after an if's condition, only where the
// data is not finite, and cleared first where an int scalar says so: the
// * after "if (...)" is a dereference, the int tested for truth a mode,
// so flag starts zeroed (one element).
__global__ void finite_flag_kernel(int *flag, const float *x, int n,
    int clear_first)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (clear_first) {
		if (i == 0)
			*flag = 0;
		__syncthreads();
	}
	for (int j = i; j < n; j += blockDim.x * gridDim.x)
		if (!isfinite(x[j]))
			*flag = 1;
}

// The near miss: *flag under a bounds guard only is a pure output.
__global__ void first_flag_kernel(int *flag, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i == 0 && n > 0)
		*flag = x[0] > 0.f;
}

// A value a helper call of its own statement sets through a reference
// from data (decode(p[i], v)): v is data, so the flag set where v > 0.5
// starts zeroed.
__device__ void decode(unsigned char b, float &v)
{
	v = b * (1.0f / 255.0f);
}

__global__ void decoded_flag_kernel(int *flag, const unsigned char *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v;
		decode(p[i], v);
		if (v > 0.5f)
			*flag = 1;
	}
}

// A flag the kernel returns on at once (an overflow or no-op flag that
// its caller passes clear): filled with 0, so that the kernel runs.
__global__ void noop_scale_kernel(volatile int *noop, const float *x,
    float *y, int n)
{
	if (noop && *noop != 0)
		return;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 2.0f * x[i];
}

// Near miss: a kernel that runs only where the flag is set keeps its fill.
__global__ void armed_scale_kernel(const int *armed, const float *x,
    float *y, int n)
{
	if (armed[0] == 0)
		return;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 2.0f * x[i];
}
