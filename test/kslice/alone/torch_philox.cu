// kslice: a PyTorch extension's dropout kernel, which takes its random
// generator's seed and offset as an at::PhiloxCudaState by value and
// unpacks them with at::cuda::philox::unpack: the stub must define both,
// and answer the headers that declare them.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <ATen/cuda/CUDAGraphsUtils.cuh>
#include <ATen/cuda/PhiloxUtils.cuh>
#include <curand_kernel.h>

__global__ void
dropout_kernel(const float *x, float *y, float p, int n,
    at::PhiloxCudaState philox)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	auto seeds = at::cuda::philox::unpack(philox);
	curandStatePhilox4_32_10_t state;

	curand_init(std::get<0>(seeds), i, std::get<1>(seeds), &state);
	if (i < n)
		y[i] = curand_uniform(&state) < p ? 0.0f : x[i] / (1.0f - p);
}

void
dropout(const float *x, float *y, float p, int n, at::PhiloxCudaState s)
{
	dropout_kernel<<<(n + 127) / 128, 128>>>(x, y, p, n, s);
}
