// Dropped barriers that order nothing (test/equiv.t), and near misses
// where one does: a shared array written before and read after, a
// shared scalar, a global buffer, an alias, a helper that writes its
// argument, a loop whose next iteration reads what this one wrote.

// thread 0 notes the first pick before a loop of block reductions: the
// first barrier orders only that store, which nothing reads after it
template <unsigned int B>
__global__ void pick_far(int n, int m, const float *pts, float *best,
    int *picks)
{
	__shared__ float d[B];
	__shared__ int di[B];
	int t = threadIdx.x;
	pts += blockIdx.x * n;
	picks += blockIdx.x * m;
	if (t == 0)
		picks[0] = 0;
	__syncthreads();
	for (int j = 1; j < m; j++) {
		float v = -1;
		int vi = 0;
		for (int k = t; k < n; k += B) {
			float x = fminf(pts[k], best[k]);
			best[k] = x;
			if (x > v) {
				v = x;
				vi = k;
			}
		}
		d[t] = v;
		di[t] = vi;
		__syncthreads();
		for (int s = B / 2; s > 0; s >>= 1) {
			if (t < s && d[t + s] > d[t]) {
				d[t] = d[t + s];
				di[t] = di[t + s];
			}
			__syncthreads();
		}
		if (t == 0)
			picks[j] = di[0];
	}
}

// a barrier at the end of the kernel orders nothing
__global__ void tail_sync(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 2.0f * x[i];
	__syncthreads();
}

// with launch bounds between the parameters and the body: y, written
// before the barrier, is a parameter all the same, and nothing follows
__global__ void __launch_bounds__(256) bounded_tail(const float *x, float *y,
    int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] + 1.0f;
	__syncthreads();
}

// a macro that only computes a value hides no access
#define TWICE(v) (2.0f * (v))
__global__ void macro_tail(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = TWICE(x[i]);
	__syncthreads();
}

// near miss: the store into tile is inside a macro, out of the tokens
#define CLEAR_TILE() tile[threadIdx.x] = 0.0f
__global__ void macro_store(const float *x, float *y, int n)
{
	__shared__ float tile[256];
	int t = threadIdx.x;
	int i = blockIdx.x * blockDim.x + t;
	CLEAR_TILE();
	__syncthreads();
	if (i < n)
		y[i] = x[i] + tile[t ^ 1];
}

// near miss: s is written before the barrier and read after it
__global__ void stage_read(const float *x, float *y, int n)
{
	__shared__ float s[256];
	int t = threadIdx.x;
	int i = blockIdx.x * blockDim.x + t;
	s[t] = i < n ? x[i] : 0.0f;
	__syncthreads();
	if (i < n)
		y[i] = s[t ^ 1];
}

// near miss: a shared scalar set by thread 0, read by all after
__global__ void shared_count(const int *x, int *y, int n)
{
	__shared__ int c;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x == 0)
		c = x[blockIdx.x];
	__syncthreads();
	if (i < n)
		y[i] = c;
}

// near miss: y is written before the barrier and read after it by
// another thread of the block
__global__ void global_pass(const float *x, float *y, int n)
{
	int t = threadIdx.x;
	int i = blockIdx.x * blockDim.x + t;
	if (i < n)
		y[i] = x[i];
	__syncthreads();
	if (i < n && t > 0)
		y[i] += y[i - 1];
}

// near miss: the read goes through p, an alias of s
__global__ void alias_read(const float *x, float *y, int n)
{
	__shared__ float s[256];
	float *p = s + 1;
	int t = threadIdx.x;
	int i = blockIdx.x * blockDim.x + t;
	s[t] = i < n ? x[i] : 0.0f;
	__syncthreads();
	if (i < n && t < 255)
		y[i] = p[t];
}

__device__ void put(float &slot, float v)
{
	slot = v;
}

// near miss: the write is a helper's, through a reference to s[t]
__global__ void helper_write(const float *x, float *y, int n)
{
	__shared__ float s[256];
	int t = threadIdx.x;
	int i = blockIdx.x * blockDim.x + t;
	put(s[t], i < n ? x[i] : 0.0f);
	__syncthreads();
	if (i < n)
		y[i] = s[t ^ 1];
}

// near miss: the second barrier orders this iteration's write of s
// before the next iteration's read
__global__ void ring_shift(const float *x, float *y, int n, int rounds)
{
	__shared__ float s[256];
	int t = threadIdx.x;
	int i = blockIdx.x * blockDim.x + t;
	float v = i < n ? x[i] : 0.0f;
	s[t] = v;
	__syncthreads();
	for (int r = 0; r < rounds; r++) {
		v = s[(t + 1) % blockDim.x];
		__syncthreads();
		s[t] = v + 1.0f;
		__syncthreads();
	}
	if (i < n)
		y[i] = v;
}

// one pass per block: the loop runs from blockIdx.x * T to gridDim.x *
// T in steps of gridDim.x * T, so the first barrier has nothing of an
// earlier pass before it; the second orders the stores of buf before
// the reads of a neighbour's element
template <int T>
__global__ void one_pass(const float *x, float *y, int n)
{
	__shared__ float buf[T];
	const int n_load = gridDim.x * T;
	const int base = blockIdx.x * T;
	for (int i = base; i < n_load; i += gridDim.x * T) {
		__syncthreads();
		buf[threadIdx.x] = i + threadIdx.x < n ?
		    __ldg(&x[i + threadIdx.x]) : 0.0f;
		__syncthreads();
		if (i + threadIdx.x < n)
			y[i + threadIdx.x] = buf[(threadIdx.x + 1) % T];
	}
}

// near miss: up to n, a block may run more passes than one
template <int T>
__global__ void many_pass(const float *x, float *y, int n)
{
	__shared__ float buf[T];
	for (int i = blockIdx.x * T; i < n; i += gridDim.x * T) {
		__syncthreads();
		buf[threadIdx.x] = i + threadIdx.x < n ?
		    __ldg(&x[i + threadIdx.x]) : 0.0f;
		__syncthreads();
		if (i + threadIdx.x < n)
			y[i + threadIdx.x] = buf[(threadIdx.x + 1) % T];
	}
}

void run_one_pass(const float *x, float *y, int n)
{
	one_pass<64><<<(n + 63) / 64, 64>>>(x, y, n);
	many_pass<64><<<8, 64>>>(x, y, n);
}

void run_pick_far(int b, int n, int m, const float *pts, float *best,
    int *picks)
{
	pick_far<64><<<b, 64>>>(n, m, pts, best, picks);
}
