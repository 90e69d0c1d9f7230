// Dynamic shared memory that the kernel reaches only through a class and
// a device function of the slice (the extern __shared__ array is the
// class's), sized by a launcher whose bytes are a constant expression
// with sizeof of a template parameter and a ternary.
#include <cuda_runtime.h>

template <typename T> struct SharedBuf;
template <> struct SharedBuf<float> {
	__device__ float *get()
	{
		extern __shared__ float s_buf[];
		return s_buf;
	}
};

template <typename U>
__device__ void row_sum(const U *x, int n, int row, U *buf, U *out)
{
	U s = 0;
	for (int c = threadIdx.x; c < n; c += blockDim.x)
		s += x[row * n + c];
	buf[threadIdx.x] = s;
	__syncthreads();
	if (threadIdx.x == 0) {
		U t = 0;
		for (int k = 0; k < blockDim.x; k++)
			t += buf[k];
		out[row] = t;
	}
	__syncthreads();
}

template <typename U>
__global__ void far_shared_kernel(const U *x, U *out, int rows, int n)
{
	for (int r = blockIdx.x; r < rows; r += gridDim.x) {
		SharedBuf<U> shared;
		U *buf = shared.get();
		row_sum(x, n, r, buf, out);
	}
}

template <typename U>
void far_shared(const U *x, U *out, int rows, int n)
{
	const dim3 threads(64, 1, 1);
	int nshared = threads.x > 1 ? threads.x * sizeof(U) : 0;
	far_shared_kernel<U><<<rows, threads, nshared>>>(x, out, rows, n);
}

template void far_shared<float>(const float *, float *, int, int);
