// A kernel whose vector type comes from a header library the tree does
// not hold (test/kbuild.t): kscan's parse does not find it, the slice
// names the type undefined, and kbuild's reference says which include
// was missing.
#include <vecmath/vec3.hpp>

__global__ void scale_points(vecmath::vec3 *p, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = p[i] * s;
}
