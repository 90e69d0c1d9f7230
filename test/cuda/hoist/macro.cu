// A macro the toolkit's header tests, defined before it is included: the
// header cannot be parsed before the unit.  __half's operators are gone,
// so the multiplication below is an error, with the cache as without.
#define __CUDA_NO_HALF_OPERATORS__
#include <cuda_fp16.h>

__global__ void macro_kernel(__half *h) { h[0] = h[1] * h[2]; }
