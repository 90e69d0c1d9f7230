/* Kernels whose behaviour does or does not depend on whether their data
 * is finite (test/kwrap-nonfinite.t): kwrap gives a "nonfinite" case to
 * the float inputs whose elements reach a test for NaN or Inf, and to no
 * other. */
#include <cuda_fp16.h>

__device__ inline bool is_bad(float a) { return isinf(a) || a != a; }

/* count[0] += the non-finite elements of x (the test on the element) */
__global__ void count_bad_kernel(const float *x, int *count, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n && !isfinite(x[i]))
		atomicAdd(count, 1);
}

/* y = 2 x, NaN replaced by 0 (the test on a local loaded from x) */
__global__ void nan_to_zero_kernel(const float *x, const float *w, float *y,
    int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i] * w[i % 4];
	if (std::isnan(v))
		v = 0.0f;
	y[i] = 2.0f * v;
}

/* y = x where finite, else 0 (a helper tests its parameter) */
__global__ void helper_guard_kernel(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = is_bad(x[i]) ? 0.0f : x[i];
}

/* y = x where x is a number (a value compared with itself) */
__global__ void self_compare_kernel(const double *x, double *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] != x[i] ? -1.0 : x[i];
}

/* flags[i] = 1 where h[i] is NaN (half data, __hisnan) */
__global__ void half_nan_kernel(const __half *h, int *flags, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		flags[i] = __hisnan(h[i]) ? 1 : 0;
}

/* x = 0 where x is not finite, in place: an inout's data is tested */
__global__ void nan_to_num_kernel(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n && !::isfinite(x[i]))
		x[i] = 0.0f;
}

/* y = a x: no test of finiteness at all */
__global__ void scale_kernel(const float *x, float *y, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i];
}

/* y = a x where the scalar a is finite: a test of a scalar, not of data */
__global__ void scalar_test_kernel(const float *x, float *y, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = isfinite(a) ? a * x[i] : x[i];
}

/* y = x, or 0 where a value computed from the index and a scalar is not
 * finite: the test takes no input's data */
__global__ void computed_test_kernel(const float *x, float *y, float s,
    int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float r = s / (float)(i + 1);
	y[i] = isinf(r) ? 0.0f : x[i];
}
