// Width-agnostic: every width comes from warpSize at run time, so the
// same code is right on 32 and 64 lanes.  Nothing to report.
#include <hip/hip_runtime.h>

__global__ void warp_sum_any(const float *x, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;  /* 64 lanes on AMD, 32 on NVIDIA */
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    v += __shfl_down(v, offset);
  if (n < 0)
    printf("threadIdx.x %% 64 == 0\n");
  if (threadIdx.x % warpSize == 0)
    atomicAdd(out, v);
}
