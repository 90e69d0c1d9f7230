#ifndef LOCAL_CUH
#define LOCAL_CUH
#include <cuda_fp16.h>

__device__ inline float scaled(float v) { return 2.0f * v; }
#endif
