// Output without end: every thread prints in a loop that never ends.  The
// device's printf buffer is only flushed at a synchronization that never
// comes, so the harness must be killed at kverify's --timeout, and what it
// wrote must not grow kverify's memory or the disk.
#include <cstdio>

__global__ void relu_kernel(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	for (long long k = 0;; k++)
		printf("relu_kernel: thread %d, line %lld\n", i, k);
	if (i < n)
		out[i] = in[i] > 0.0f ? in[i] : 0.0f;
}
