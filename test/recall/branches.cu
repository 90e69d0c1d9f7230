// Kernels behind preprocessor branches that a plain parse does not take:
// kscan parses again with the macros each branch tests defined.
#include "branches.cuh"

__global__ void always_kernel(float *x) { x[0] = 0; }

#ifdef KF_DEBUG
__global__ void debug_kernel(float *x) { x[0] = 1; }

void debug_launch(float *x) { debug_kernel<<<1, 1>>>(x); }
#endif

#if defined(KF_GPU) && KF_LEVEL > 0
__global__ void gpu_kernel(float *x) { x[0] = 2; }
#endif

#if defined(KF_A)
__global__ void a_kernel(float *x) { x[0] = 3; }
#elif defined(KF_B) // the second of a chain
__global__ void b_kernel(float *x) { x[0] = 4; }
#else
__global__ void c_kernel(float *x) { x[0] = 5; }
#endif

#ifdef KF_OUTER
#ifdef KF_INNER
__global__ void nested_kernel(float *x) { x[0] = 6; }
#endif
#endif

#if !defined(KF_OFF)
__global__ void on_kernel(float *x) { x[0] = 7; }
#else
__global__ void off_kernel(float *x) { x[0] = 8; }
#endif

#if 0
__global__ void dead_kernel(float *x) { x[0] = 9; }
#endif
