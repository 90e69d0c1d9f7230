// Stores that the same thread stores over before anything can read them
// (test/equiv.t): a zeroed slot of shared memory set again after a loop,
// one through a pointer to extern shared memory, one element of an
// output through a local pointer; and near misses: a
// barrier between, a helper that synchronizes, a read between, another
// index, a return between, the second store reading the first, a first
// store that is a loop's body, an output read between.

__device__ float twice(float v) { return 2.0f * v; }
__device__ float staged(float v) { __syncthreads(); return v; }

// the slot zeroed, then set to the thread's sum
__global__ void sum_slot(const float *x, float *out, int n)
{
	__shared__ float sh[256];
	sh[threadIdx.x] = 0.0f;
	float acc = 0.0f;
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		acc += twice(x[i]);
	sh[threadIdx.x] = acc;
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0.0f;
		for (int k = 0; k < 256; k++)
			s += sh[k];
		out[blockIdx.x] = s;
	}
}

// extern shared memory through a cast, a loop with a continue between
__global__ void dyn_slot(const float *x, float *out, int n)
{
	extern __shared__ unsigned char raw[];
	float *part = reinterpret_cast<float *>(raw);
	part[threadIdx.x] = 1.0f;
	float acc = 0.0f;
	for (int i = threadIdx.x; i < n; i += blockDim.x) {
		if (x[i] < 0.0f)
			continue;
		acc += x[i];
	}
	part[threadIdx.x] = acc;
	__syncthreads();
	out[blockIdx.x * blockDim.x + threadIdx.x] = part[(threadIdx.x + 1) % blockDim.x];
}

// near miss: a barrier between; a thread past it and past its own
// second store may read a neighbour's slot before the neighbour's
__global__ void barrier_between(const float *x, float *out, int n)
{
	__shared__ float sh[256];
	sh[threadIdx.x] = 5.0f;
	__syncthreads();
	float v = x[threadIdx.x % n];
	sh[threadIdx.x] = v;
	out[threadIdx.x] = sh[(threadIdx.x + 1) % 256];
}

// near miss: a helper between synchronizes
__global__ void helper_syncs(const float *x, float *out, int n)
{
	__shared__ float sh[256];
	sh[threadIdx.x] = 5.0f;
	float v = staged(x[threadIdx.x % n]);
	sh[threadIdx.x] = v;
	out[threadIdx.x] = sh[threadIdx.x];
}

// near miss: the slot read between
__global__ void read_between(const float *x, float *out, int n)
{
	__shared__ float sh[256];
	sh[threadIdx.x] = 5.0f;
	float v = sh[threadIdx.x] + x[threadIdx.x % n];
	sh[threadIdx.x] = v;
	out[threadIdx.x] = sh[threadIdx.x];
}

// near miss: the second store at another index
__global__ void other_index(const float *x, float *out, int n)
{
	__shared__ float sh[257];
	sh[threadIdx.x] = 5.0f;
	sh[threadIdx.x + 1] = x[threadIdx.x % n];
	__syncthreads();
	out[threadIdx.x] = sh[threadIdx.x];
}

// near miss: a return between leaves the first value
__global__ void return_between(const float *x, float *out, int n)
{
	__shared__ float sh[256];
	sh[threadIdx.x] = 5.0f;
	if (x[threadIdx.x % n] > 0.5f)
		return;
	sh[threadIdx.x] = x[threadIdx.x % n];
	__syncthreads();
	out[threadIdx.x] = sh[(threadIdx.x + 1) % 256];
}

// near miss: the second store reads the first
__global__ void reads_itself(const float *x, float *out, int n)
{
	__shared__ float sh[256];
	sh[threadIdx.x] = 5.0f;
	sh[threadIdx.x] = sh[threadIdx.x] * x[threadIdx.x % n];
	out[threadIdx.x] = sh[threadIdx.x];
}

// near miss: the first store is a loop's body, its condition reads it
__global__ void loop_body(const float *x, float *out, int n)
{
	__shared__ float sh[256];
	sh[threadIdx.x] = 0.0f;
	while (sh[threadIdx.x] < 5.0f)
		sh[threadIdx.x] = sh[threadIdx.x] + 1.0f;
	sh[threadIdx.x] = x[threadIdx.x % n];
	out[threadIdx.x] = sh[threadIdx.x];
}

// a pointer to one element of an output, zeroed and then set
__global__ void ptr_slot(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float *slot = out + i;
	*slot = 0;
	float acc = 0.0f;
	for (int k = 0; k < 4; k++)
		acc += x[(i + k) % n];
	*slot = acc;
}

// near miss: the output is read through its own name between
__global__ void ptr_read(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float *slot = out + i;
	*slot = 0;
	float acc = out[(i + 1) % n] + x[i];
	*slot = acc;
}

void launch(const float *x, float *out, int n)
{
	sum_slot<<<4, 256>>>(x, out, n);
	dyn_slot<<<4, 256, 1024>>>(x, out, n);
	barrier_between<<<1, 256>>>(x, out, n);
	helper_syncs<<<1, 256>>>(x, out, n);
	read_between<<<1, 256>>>(x, out, n);
	other_index<<<1, 256>>>(x, out, n);
	return_between<<<1, 256>>>(x, out, n);
	reads_itself<<<1, 256>>>(x, out, n);
	loop_body<<<1, 256>>>(x, out, n);
	ptr_slot<<<(n + 255) / 256, 256>>>(x, out, n);
	ptr_read<<<(n + 255) / 256, 256>>>(x, out, n);
}
