// A PyTorch extension written for ROCm: torch's headers (answered by
// kforge's stand-in when PyTorch is not installed), half atomics.
#include <hip/hip_runtime.h>
#include <torch/extension.h>

__global__ void scatter_half_kernel(const __half *src, const int *slot,
    __half *acc, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&acc[slot[i]], src[i]);
}

torch::Tensor scatter_half(torch::Tensor src, torch::Tensor slot,
    torch::Tensor acc)
{
	int n = src.numel();
	hipLaunchKernelGGL(scatter_half_kernel, dim3((n + 255) / 256),
	    dim3(256), 0, 0, (const __half *)src.data_ptr(),
	    slot.data_ptr<int>(), (__half *)acc.data_ptr(), n);
	return acc;
}
