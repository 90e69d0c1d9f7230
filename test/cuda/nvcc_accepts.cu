// Code nvcc compiles and clang 19's CUDA refuses: a __shared__ object
// whose type has a non-empty destructor (libcu++'s barrier; nvcc warns,
// static_var_with_dynamic_init), a kernel template launching itself
// (dynamic parallelism, nvcc -rdc=true).
#include <cuda/barrier>

struct counted {
	int n;
	__device__ ~counted() { n = 0; }
};

template <int N>
__global__ void staged(float *out)
{
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	__shared__ counted c;
	if (threadIdx.x == 0)
		init(&bar, blockDim.x);
	__syncthreads();
	bar.arrive_and_wait();
	out[threadIdx.x] = N + c.n;
}

// a stale declaration with other parameters: not viable to nvcc either
template <int N>
__global__ void split(int *d);

template <int N>
__global__ void split(int *d, int depth)
{
	if (depth > 0)
		split<N><<<1, 2>>>(d, depth - 1);
	d[threadIdx.x] = N;
}

void run(float *f, int *d)
{
	staged<4><<<1, 32>>>(f);
	split<2><<<1, 2>>>(d, 3);
}
