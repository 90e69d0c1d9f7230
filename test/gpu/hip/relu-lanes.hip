// A correct HIP translation of relu_kernel that spells the index as warp
// and lane of a 32-lane warp: it passes on NVIDIA, and kforge marks the
// verdict as not transferable to 64-lane wavefronts (lane-arithmetic).
#include <hip/hip_runtime.h>

__global__ void relu_kernel(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  const int i = blockIdx.x * blockDim.x + warp * 32 + lane;
  if (i < n) {
    const float x = in[i];
    out[i] = x > 0.0f ? x : 0.0f;
  }
}
