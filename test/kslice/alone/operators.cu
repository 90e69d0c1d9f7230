// kslice: a free operator declared for a project type and reached only
// through a template helper's dependent expression (a < b on a T that is
// the type): no reference in the kernel names it, the instantiation finds
// it by argument-dependent lookup.  The slice must carry the operators
// declared for the types it holds.
#include "operators.cuh"

namespace {
struct Hit {
	float z;
	int idx;
};

__device__ inline bool operator<(const Hit &a, const Hit &b)
{
	return a.z < b.z;
}
} // namespace

__global__ void nearest_hits(const float *z, int *out, int n)
{
	Hit h[4];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	for (int k = 0; k < 4; k++) {
		h[k].z = z[(i + k) % n];
		h[k].idx = (i + k) % n;
	}
	sort_small(h, 4);
	out[i] = h[0].idx;
}

void launch_nearest(const float *z, int *out, int n)
{
	nearest_hits<<<(n + 127) / 128, 128>>>(z, out, n);
}
