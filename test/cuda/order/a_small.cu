// The smaller unit: it comes first in the walk, and is parsed last.
__global__ void small_kernel(float *p) { p[threadIdx.x] = 0.0f; }
