// Initial values that no path reads (test/equiv.t): a grid-stride loop
// that assigns its count on both arms before it reads it, an early
// return, a do/while; and near misses: an if without an else, a
// compound assignment, a read in a loop's condition, a break out of a
// do/while, a value read after a loop that may not run.

// the count assigned on both arms of an if at the top of each pass
__global__ void tail_count(const float *x, float *y, int n, int half)
{
	int valid = 0;
	for (int i = blockIdx.x * blockDim.x; i < n; i += gridDim.x * blockDim.x) {
		if (half > 0)
			valid = min(256, n - i) / 2;
		else
			valid = min(256, n - i);
		if ((int)threadIdx.x < valid)
			y[i + threadIdx.x] = x[i + threadIdx.x] * 2.0f;
	}
}

// assigned on one path; the other returns
__global__ void early_out(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int scale = 1;
	if (i >= n)
		return;
	scale = x[i] > 0.0f ? 2 : 3;
	y[i] = x[i] * scale;
}

// a do/while body runs once
__global__ void once_more(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int k = 7;
	do {
		k = i % 4;
	} while (0);
	if (i < n)
		y[i] = x[i] + k;
}

// near miss: assigned only where i < n, read everywhere
__global__ void maybe_set(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = 0;
	if (i < n)
		v = (int)x[i];
	y[i % n] = v;
}

// near miss: += reads the initial value
__global__ void running(const float *x, float *y, int n)
{
	int acc = 0;
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		acc += (int)x[i];
	y[threadIdx.x] = acc;
}

// near miss: the loop's condition reads it before the body assigns it
__global__ void cond_read(const float *x, float *y, int n)
{
	int left = 1;
	int i = threadIdx.x;
	while (left > 0 && i < n) {
		left = n - i - 1;
		y[i] = x[i];
		i += blockDim.x;
	}
}

// near miss: a break leaves the do/while before the assignment
__global__ void break_first(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int k = 5;
	do {
		if (i >= n)
			break;
		k = i % 3;
	} while (0);
	if (i < n)
		y[i] = x[i] + k;
}

// near miss: a loop that may run no time, then a read
__global__ void after_loop(const float *x, float *y, int n)
{
	int last = 3;
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		last = i;
	if (threadIdx.x == 0)
		y[0] = x[0] + last;
}

#define TWICE(a) ((a) * 2)
#define PLUS_VV (vv + 1)

// a macro that does not name the local: its initial value is still dead
__global__ void macro_other(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int w = 4;
	w = TWICE(i);
	if (i < n)
		y[i] = x[i] + w;
}

// near miss: the local is read inside a macro, out of the tokens
__global__ void macro_names(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int vv = 2;
	if (i < n)
		y[i] = x[i] + PLUS_VV;
}
