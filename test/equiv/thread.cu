// A block's result stored by one thread (test/equiv.t): after a barrier,
// the body of "if (threadIdx.x == 0)" does the same in whichever thread
// runs it, so another writer thread, or several, is an equivalent
// mutant; and near misses: a body that reads the thread's own sum, an
// atomic, no barrier before a read of shared memory, a return before, a
// store that adds to memory, a block of one thread.

__device__ void tree(float *s)
{
	for (int k = blockDim.x / 2; k > 0; k /= 2) {
		if (threadIdx.x < k)
			s[threadIdx.x] += s[threadIdx.x + k];
		__syncthreads();
	}
	__syncthreads();
}

// the block's sum, stored by thread 0 after the helper's barrier
__global__ void block_sum(const float *x, float *out, int n)
{
	__shared__ float s[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? x[i] : 0.0f;
	__syncthreads();
	tree(s);
	if (threadIdx.x == 0) {
		float total = s[0];
		out[blockIdx.x] = total * 0.5f;
	}
}

// a scale broadcast through shared memory, a barrier after it
__global__ void broadcast(const float *x, const float *scale, float *out,
    int n)
{
	__shared__ float f[1];
	if (threadIdx.x == 0)
		f[0] = scale[blockIdx.x] * 2.0f;
	__syncthreads();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = x[i] * f[0];
}

// near miss: the body stores the thread's own sum
__global__ void own_sum(const float *x, float *out, int n)
{
	float v = 0.0f;
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		v += x[i];
	__syncthreads();
	if (threadIdx.x == 0)
		out[blockIdx.x] = v;
}

// near miss: an atomic in the body counts the threads that run it
__global__ void counted(const float *x, float *out, int n)
{
	__syncthreads();
	if (threadIdx.x == 0)
		atomicAdd(&out[0], x[blockIdx.x % n]);
}

// near miss: shared memory read with no barrier before
__global__ void no_barrier(const float *x, float *out, int n)
{
	__shared__ float s[256];
	s[threadIdx.x] = x[threadIdx.x % n];
	if (threadIdx.x == 0)
		out[blockIdx.x] = s[0];
}

// near miss: a thread may have returned before
__global__ void returned(const float *x, float *out, int n)
{
	if (threadIdx.x >= n)
		return;
	__syncthreads();
	if (threadIdx.x == 0)
		out[blockIdx.x] = x[0];
}

// near miss: the store adds to memory
__global__ void added(const float *x, float *out, int n)
{
	__syncthreads();
	if (threadIdx.x == 0)
		out[blockIdx.x] += x[0] + n;
}

// near miss: a block of one thread has no thread 1
__global__ void lone(const float *x, float *out, int n)
{
	__syncthreads();
	if (threadIdx.x == 0)
		out[blockIdx.x] = x[blockIdx.x % n];
}

void launch(const float *x, const float *scale, float *out, int n)
{
	block_sum<<<(n + 255) / 256, 256>>>(x, out, n);
	broadcast<<<(n + 127) / 128, 128>>>(x, scale, out, n);
	own_sum<<<4, 64>>>(x, out, n);
	counted<<<4, 64>>>(x, out, n);
	no_barrier<<<4, 64>>>(x, out, n);
	returned<<<4, 64>>>(x, out, n);
	added<<<4, 64>>>(x, out, n);
	lone<<<4, 1>>>(x, out, n);
}
