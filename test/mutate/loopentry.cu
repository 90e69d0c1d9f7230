// kwrap: loop-entry cases (test/mutate.t).  A loop whose trip count the
// sizes decide, and that no case runs, gets a case that runs it (one
// from the thread's index in strides: twice, for thread 0); near misses
// that must not: a loop some case runs, a strided loop whose second trip
// is past every buffer's budget, a bound through a local assigned again.

// a pipelined main loop: every tile but the last, then the last; small
// sizes give one tile per split and the main loop never runs.  Its body
// holds a barrier, which orders one trip's reads before the next trip's
// writes: the case runs the loop twice (m = 129 and split = 1: three
// tiles), where one trip (split = 2) would leave the barrier untested
__global__ void pipelined(int m, int split, const float *a, float *out)
{
	int tiles = ((m + 63) / 64 + split - 1) / split;
	float acc = 0.0f;
	for (int k = 0; k < tiles - 1; ++k) {
		acc += a[(k * split + blockIdx.x) * 64 + threadIdx.x];
		__syncthreads();
	}
	for (int k = tiles - 1; k < tiles; ++k) {
		int t = k * split + blockIdx.x;
		if (t * 64 + (int)threadIdx.x < m)
			acc += a[t * 64 + threadIdx.x];
	}
	out[blockIdx.x * 64 + threadIdx.x] = acc;
}

// one size moved: a row in segments of 2048, each but the last summed in
// the main loop; the cases' rows are one segment or less
__global__ void segments(int rows, int cols, const float *x, float *y)
{
	const int segs = (cols + 2047) / 2048;
	const float *r = x + (size_t)blockIdx.x * cols;
	float s = 0.0f;
	for (int g = 0; g < segs - 1; g++)
		s += r[g * 2048 + threadIdx.x];
	int last = (segs - 1) * 2048 + threadIdx.x;
	if (last < cols)
		s += r[last];
	y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// near miss: a loop with a barrier that the cases already run twice
__global__ void staged(int n, const float *x, float *y)
{
	__shared__ float t[64];
	int tiles = n / 64;
	float s = 0.0f;
	for (int k = 0; k < tiles; k++) {
		t[threadIdx.x] = x[k * 64 + threadIdx.x];
		__syncthreads();
		s += t[63 - threadIdx.x];
		__syncthreads();
	}
	y[threadIdx.x] = s;
}

// the pipelined loop with a step kwrap cannot read (k = next_tile(k)):
// a second trip cannot be told, and the case runs its first one
__device__ int next_tile(int k) { return k + 1; }
__global__ void stepped(int m, int split, const float *a, float *out)
{
	int tiles = ((m + 63) / 64 + split - 1) / split;
	float acc = 0.0f;
	for (int k = 0; k < tiles - 1; k = next_tile(k)) {
		acc += a[(k * split + blockIdx.x) * 64 + threadIdx.x];
		__syncthreads();
	}
	out[blockIdx.x * 64 + threadIdx.x] = acc;
}

// near miss: every case runs the loop
__global__ void always(int n, const float *x, float *y)
{
	int steps = n / 2 + 1;
	float s = 0.0f;
	for (int j = 0; j < steps; j++)
		s += x[j % n];
	y[threadIdx.x] = s;
}

// near miss: from the thread's index in strides of 256 over segs - 1:
// thread 0's second trip needs cols past 256 segments of 2048, more
// than a case's buffer may hold
__global__ void strided(int rows, int cols, const float *x, float *y)
{
	const int segs = (cols + 2047) / 2048;
	for (int g = threadIdx.x; g < segs - 1; g += blockDim.x)
		y[blockIdx.x * segs + g] = x[g];
}

// near miss: the bound is a local assigned again, under a condition
__global__ void reassigned(int rows, int cols, const float *x, float *y)
{
	int segs = (cols + 2047) / 2048;
	if (x[0] > 0.0f)
		segs = 1;
	float s = 0.0f;
	for (int g = 0; g < segs - 1; g++)
		s += x[g * 2048 + threadIdx.x];
	y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// a loop from the thread's index in strides of the block, read for
// thread 0 of block 0 under each case's launch: each thread sums every
// 128th element of its row; with the cases' rows of 128 or fewer no
// thread makes a second trip, and the sum (and the stride) go untested:
// the case gives cols one stride and one past it
__global__ void rowsum(int rows, int cols, const float *x, float *y)
{
	float s = 0.0f;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		s += x[blockIdx.x * cols + c];
	y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

void launch(int m, int split, int n, const float *a, float *out, float *y)
{
	pipelined<<<split, 64>>>(m, split, a, out);
	segments<<<m, 256>>>(m, n, a, y);
	always<<<1, 32>>>(n, a, y);
	staged<<<1, 64>>>(n, a, y);
	stepped<<<split, 64>>>(m, split, a, out);
	strided<<<m, 256>>>(m, n, a, y);
	reassigned<<<m, 256>>>(m, n, a, y);
	rowsum<<<m, 512>>>(m, n, a, y);
}
