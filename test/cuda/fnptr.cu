// Launches that name their kernel through a variable set from it, also
// inside a macro, and through cudaLaunchKernelEx (test/kscan.t); one
// macro invocation that defines launchers of two kernels, whose launches
// share the invocation's place in the file.
#include <cuda_runtime.h>

template <typename T, int B>
__global__ void tile_add(const T *x, T *y, int n)
{
	int i = blockIdx.x * B + threadIdx.x;
	if (i < n)
		y[i] += x[i];
}

__global__ void plain_copy(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i];
}

template <int B>
__global__ void ex_scale(const float *x, float *y, float a, int n)
{
	int i = blockIdx.x * B + threadIdx.x;
	if (i < n)
		y[i] = a * x[i];
}

// a launch written in a macro: the file holds only the invocation
#define LAUNCH_TILE(B) do { \
	auto kk = tile_add<float, B>; \
	cudaLaunchKernel((const void *)kk, dim3(1), dim3(B), args, 0, s); \
} while (0)

void run_all(const float *x, float *y, int n, cudaStream_t s)
{
	auto k = tile_add<float, 128>;
	void *args[] = { &x, &y, &n };
	cudaLaunchKernel((const void *)k, dim3((n + 127) / 128), dim3(128),
	    args, 0, s);
	void (*p)(const float *, float *, int) = plain_copy;
	cudaLaunchKernel((const void *)p, dim3(1), dim3(32), args, 0, s);
	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = dim3((n + 255) / 256);
	cfg.blockDim = dim3(256);
	cfg.stream = s;
	cudaLaunchKernelEx(&cfg, ex_scale<256>, x, y, 2.0f, n);
	LAUNCH_TILE(64);
}

// launchers written by a macro, one invocation for both kernels
#define DEFINE_RUNNERS(B) \
void run_tile_##B(const float *x, float *y, int n, cudaStream_t s) { \
	auto k = tile_add<float, B>; \
	void *args[] = { &x, &y, &n }; \
	cudaLaunchKernel((const void *)k, dim3(1), dim3(B), args, 0, s); \
} \
void run_scale_##B(const float *x, float *y, float a, int n, cudaStream_t s) { \
	auto k = ex_scale<B>; \
	void *args[] = { &x, &y, &a, &n }; \
	cudaLaunchCooperativeKernel((const void *)k, dim3(1), dim3(B), args, 0, s); \
}

DEFINE_RUNNERS(32)
