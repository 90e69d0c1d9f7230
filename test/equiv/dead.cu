// Mutants in code that never runs for a template instance, and stores
// into on-chip arrays that nothing live reads (test/equiv.t), with near
// misses: the instance where the read runs, an array reached by a second
// name, dynamic shared memory handed out twice.

// the dynamic shared memory of the block, handed out by conversion
struct DynShared {
	__device__ operator float *()
	{
		extern __shared__ float dyn[];
		return dyn;
	}
};

// a block of B threads sums 2 * B values; the second half of the tree
// only runs where B is 64 or more
template <unsigned int B>
__global__ void tile_sum(const float *x, float *y, int n)
{
	__shared__ float part[256];
	unsigned int t = threadIdx.x;
	unsigned int i = blockIdx.x * 2 * B + t;
	float v = i < n ? x[i] : 0.0f;
	if (i + B < n)
		v += x[i + B];
	part[t] = v;
	__syncthreads();
	if (B >= 64) {
		if (t < 32)
			v += part[t + 32];
	}
	for (int o = 16; o > 0; o /= 2)
		v += __shfl_down_sync(0xffffffffu, v, o);
	if (t == 0)
		y[blockIdx.x] = v;
}

// near miss: part is read through q, a second name, where it runs
template <unsigned int B>
__global__ void alias_sum(const float *x, float *y, int n)
{
	__shared__ float part[256];
	float *q = part;
	unsigned int t = threadIdx.x;
	unsigned int i = blockIdx.x * B + t;
	part[t] = i < n ? x[i] : 0.0f;
	__syncthreads();
	if (B >= 64)
		y[i] = part[t];
	if (t == 0)
		y[blockIdx.x * B] = q[B - 1];
}

// dynamic shared memory from DynShared, once: its stores are read only
// where B is 64 or more
template <unsigned int B>
__global__ void dyn_sum(const float *x, float *y, int n)
{
	float *s = DynShared();
	unsigned int t = threadIdx.x;
	unsigned int i = blockIdx.x * B + t;
	float v = i < n ? x[i] : 0.0f;
	s[t] = v;
	__syncthreads();
	if (B >= 64)
		v += s[t ^ 32];
	if (i < n)
		y[i] = 2.0f * v;
}

// near miss: DynShared handed out twice, r reads what s stored
template <unsigned int B>
__global__ void dyn_twice(const float *x, float *y, int n)
{
	float *s = DynShared();
	float *r = DynShared();
	unsigned int t = threadIdx.x;
	unsigned int i = blockIdx.x * B + t;
	float v = i < n ? x[i] : 0.0f;
	s[t] = v;
	__syncthreads();
	if (B >= 64)
		v += s[t ^ 32];
	if (i < n)
		y[i] = v + r[(t + 1) % B];
}

void launch(const float *x, float *y, int n)
{
	tile_sum<32><<<(n + 63) / 64, 32>>>(x, y, n);
	tile_sum<64><<<(n + 127) / 128, 64>>>(x, y, n);
	alias_sum<32><<<(n + 31) / 32, 32>>>(x, y, n);
	dyn_sum<32><<<(n + 31) / 32, 32, 32 * sizeof(float)>>>(x, y, n);
	dyn_twice<32><<<(n + 31) / 32, 32, 32 * sizeof(float)>>>(x, y, n);
}

// near miss: part is read inside a macro, out of kwrap's tokens
#define PEEK(t) part[(t) ^ 1]
template <unsigned int B>
__global__ void macro_sum(const float *x, float *y, int n)
{
	__shared__ float part[256];
	unsigned int t = threadIdx.x;
	unsigned int i = blockIdx.x * B + t;
	float v = i < n ? x[i] : 0.0f;
	part[t] = v;
	__syncthreads();
	if (i < n)
		y[i] = v + PEEK(t);
}

template __global__ void macro_sum<32>(const float *, float *, int);
