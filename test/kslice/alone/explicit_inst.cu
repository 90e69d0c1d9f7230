// kslice: a kernel template that no launch in the unit binds, instantiated
// explicitly for the types and sizes it serves (often through a macro).
// The slice's instance must take an explicit instantiation's arguments,
// not a guess: a block size of 1 fails the kernel's static_assert.
// slices: 3
template <typename T, int BLOCK, int ITEMS>
__global__ void blocked_sum(T *out, const T *in, int n)
{
	static_assert(BLOCK % 32 == 0, "BLOCK is a whole number of warps");
	static_assert(ITEMS >= 2, "two items a thread at least");
	__shared__ T part[BLOCK];
	T acc = 0;
	for (int k = 0; k < ITEMS; k++) {
		int i = (blockIdx.x * BLOCK + threadIdx.x) * ITEMS + k;
		if (i < n)
			acc += in[i];
	}
	part[threadIdx.x] = acc;
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int t = 1; t < BLOCK; t++)
			acc += part[t];
		out[blockIdx.x] = acc;
	}
}

#define MAKE_BLOCKED_SUM(T, B, I) \
	template __global__ void blocked_sum<T, B, I>(T *, const T *, int);
MAKE_BLOCKED_SUM(float, 256, 4)
MAKE_BLOCKED_SUM(double, 128, 2)

// the same, written out, with an enumerator for a value parameter
enum class Op { add, mul };

template <Op OP, int N>
__global__ void apply_op(float *y, float v)
{
	static_assert(N > 1, "N elements a thread");
	for (int k = 0; k < N; k++) {
		float *p = y + (blockIdx.x * blockDim.x + threadIdx.x) * N + k;
		*p = OP == Op::mul ? *p * v : *p + v;
	}
}

template __global__ void apply_op<Op::mul, 8>(float *, float);

// an argument that is a macro of the project: its value, not its name
#define ON_GPU true
template <bool DEV>
__global__ void flag_kernel(int *out)
{
	static_assert(DEV, "the device build");
	out[threadIdx.x] = DEV;
}
template __global__ void flag_kernel<ON_GPU>(int *);
