// kslice: a device member function of a class template defined outside
// the class without __host__ __device__ (the in-class declaration gives
// it), reached through a dependent call: its definition must come with
// the class, or ptxas finds an unresolved extern function; clang's check
// parse, which calls such a definition a host overload, must not call the
// slice unparsable.
#include "member_space.cuh"

__global__ void
conjugate_kernel(const float *q, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		quadf a(q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3]);
		quadf c = conjugate(a);
		out[4 * i] = scale::twice(c.w);
		out[4 * i + 1] = c.x;
		out[4 * i + 2] = c.y;
		out[4 * i + 3] = c.z;
	}
}

void
conjugate_all(const float *q, float *out, int n)
{
	conjugate_kernel<<<(n + 255) / 256, 256>>>(q, out, n);
}
