// Mutants that are equivalent under the spec's cases and launch, and
// near misses that are not (test/equiv.t).
#include <assert.h>

#define GRID_LOOP(i, n) \
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
	    i += blockDim.x * gridDim.x)

// idx holds indices into pts (0..n0-1 under the spec's fill): the guard
// and the assert never fire
__global__ void gather_guard(int n, int n0, const int *idx, const float *pts,
    float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const int kn = idx[i];
	if (kn >= n0 || kn < 0)
		return;
	assert(kn < n0);
	out[i] = pts[kn];
}

// one block row per batch: grid.y is b, so blockIdx.y < b
__global__ void batch_guard(int b, int m, const float *x, float *y)
{
	int bs = blockIdx.y;
	int pt = blockIdx.x * blockDim.x + threadIdx.x;
	if (bs >= b || pt >= m)
		return;
	y[bs * m + pt] = 2.0f * x[bs * m + pt];
}

// a stride over gridDim.y, launched with a grid of one row
__global__ void row_stride(int b, int n, const float *x, float *y)
{
	for (int i = blockIdx.x; i < b; i += gridDim.x)
		for (int j = threadIdx.x; j < n; j += blockDim.x * gridDim.y)
			y[i * n + j] = x[i * n + j] + 1.0f;
}

// a grid-stride macro's index: b = i / n stays below B
__global__ void loop_assert(int B, int n, const float *x, float *y)
{
	GRID_LOOP(i, B * n) {
		const int b = i / n;
		assert(b < B);
		y[i] = x[i] * 3.0f;
	}
}

// near miss: the loop runs one past B * n, so b reaches B
__global__ void loop_assert_over(int B, int n, const float *x, float *y)
{
	GRID_LOOP(i, B * n + 1) {
		const int b = i / n;
		assert(b < B);
		y[i] = x[i] * 3.0f;
	}
}

// near misses: bs reached through a reference that changes it, b passed
// bare to a macro that may change it, idx written through an alias:
// nothing is proven from them
#define BUMP(v) ((v) += 0)

__global__ void batch_ref(int b, int m, const float *x, float *y)
{
	int bs = blockIdx.y;
	int &r = bs;
	r += 0;
	if (bs >= b)
		return;
	y[bs * m + threadIdx.x % m] = x[bs * m];
}

__global__ void batch_macro(int b, int m, const float *x, float *y)
{
	int bs = blockIdx.y;
	BUMP(b);
	if (bs >= b)
		return;
	y[bs * m + threadIdx.x % m] = x[bs * m];
}

__global__ void gather_alias(int n, int n0, int *idx, const float *pts,
    float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int *w = idx;
	if (i >= n)
		return;
	if (n0 < 0)
		w[i] = n0;
	const int kn = idx[i];
	if (kn >= n0)
		return;
	out[i] = pts[kn];
}

void launch(int n, int n0, int b, int m, const int *idx, const float *pts,
    float *out, const float *x, float *y)
{
	gather_guard<<<(n + 255) / 256, 256>>>(n, n0, idx, pts, out);
	batch_guard<<<dim3((m + 255) / 256, b), 256>>>(b, m, x, y);
	row_stride<<<b, 256>>>(b, n, x, y);
	loop_assert<<<(b * n + 255) / 256, 256>>>(b, n, x, y);
	loop_assert_over<<<(b * n + 256) / 256, 256>>>(b, n, x, y);
	batch_ref<<<dim3(1, b), 256>>>(b, m, x, y);
	batch_macro<<<dim3(1, b), 256>>>(b, m, x, y);
	gather_alias<<<(n + 255) / 256, 256>>>(n, n0, (int *)idx, pts, out);
}
