// Written for 64-wide AMD wavefronts: right there, wrong on a 32-wide warp.
#include <hip/hip_runtime.h>

__global__ void wave_sum64(const float *x, float *out, unsigned long long *votes, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int offset = 32; offset > 0; offset >>= 1)
    v += __shfl_down(v, offset);
  const unsigned long long mask = __ballot(v > 0.0f);
  if (threadIdx.x % 64 == 0) {
    out[i / 64] = v;
    votes[i / 64] = __popcll(mask);
  }
  if (__lane_id() == 0 && i >= n)
    out[0] = 0.0f;
}
