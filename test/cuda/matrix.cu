// A kernel that a macro matrix launches in 64 instances (8 values of A
// times 8 of B), each row's eight launches written by one invocation:
// kslice keeps 32 that cover every value of each parameter (test/kslice.t).
#include <cuda_runtime.h>

template <int A, int B>
__global__ void mat_kernel(float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = (float)(A * i + B);
}

#define RUN(A, B) \
void run_##A##_##B(float *y, int n, cudaStream_t s) { \
	auto k = mat_kernel<A, B>; \
	void *args[] = { &y, &n }; \
	cudaLaunchKernel((const void *)k, dim3((n + 127) / 128), dim3(128), \
	    args, 0, s); \
}
#define ROW(A) RUN(A, 1) RUN(A, 2) RUN(A, 3) RUN(A, 4) \
	RUN(A, 5) RUN(A, 6) RUN(A, 7) RUN(A, 8)

ROW(1)
ROW(2)
ROW(3)
ROW(4)
ROW(5)
ROW(6)
ROW(7)
ROW(8)
