// kslice: a macro guarding the include of a header the toolkit does not
// have (a library the project's build may or may not find) is no feature
// of the toolkit: it stays undefined, and the slice takes the code a
// build without the library compiles (defined, the slice would include a
// header that nothing provides).
#ifdef HAVE_FASTMATHLIB
#include <fastmathlib/scale.h>
#endif

#ifdef HAVE_FASTMATHLIB
#define ROW_SCALE(v) fastmathlib_scale(v)
#else
#define ROW_SCALE(v) ((v) * 2.0f)
#endif

__global__ void
row_scale(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		x[i] = ROW_SCALE(x[i]);
}
