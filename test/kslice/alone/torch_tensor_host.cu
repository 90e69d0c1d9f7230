// kslice: a PyTorch extension whose kernel takes a struct by value that a
// host constructor fills from a tensor copied to the CPU (Tensor::cpu,
// checked with TORCH_CHECK_VALUE and TORCH_CHECK_INDEX): the constructor
// comes into the slice with the struct, and the stub must declare what it
// calls.
#include <torch/extension.h>

inline float
coefficient(const at::Tensor &t, int64_t i)
{
	at::Tensor host = t.contiguous().cpu();
	TORCH_CHECK_VALUE(host.dim() == 1, "coefficients: one dimension");
	TORCH_CHECK_INDEX(i < host.numel(), "coefficient ", i, " past the end");
	return host.data_ptr<float>()[i];
}

struct Quadratic {
	Quadratic(const at::Tensor &c)
	    : a(coefficient(c, 0)), b(coefficient(c, 1)), c(coefficient(c, 2))
	{
	}
	__device__ float of(float x) const { return (a * x + b) * x + c; }
	float a, b, c;
};

__global__ void
quadratic_kernel(Quadratic q, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = q.of(x[i]);
}

void
quadratic(const at::Tensor &coeffs, const float *x, float *y, int n)
{
	quadratic_kernel<<<(n + 255) / 256, 256>>>(Quadratic(coeffs), x, y, n);
}
