// A header's skipped branch is found through the unit that includes it.
#ifndef BRANCHES_CUH
#define BRANCHES_CUH
#ifdef KF_HEADER_KERNELS
__global__ void header_kernel(float *x) { x[0] = 10; }
#endif
#endif
