// A CUDA kernel put through a CUDA-to-HIP renamer: it still assumes 32
// lanes, right on NVIDIA and wrong on a 64-wide wavefront.
#include <hip/hip_runtime.h>
#define WARP_SIZE 32

__global__ void warp_sum32(const float *x, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  const int lane = threadIdx.x & 31;
  if (lane == 0)
    out[i / WARP_SIZE] = v;
}
