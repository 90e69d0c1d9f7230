// A deliberately wrong translation of relu_kernel: the comparison is
// turned around (a slip a translator can make), so negative inputs leak
// through and positive ones become 0.  It must fail with a mismatch.
#include <hip/hip_runtime.h>

__global__ void relu_kernel(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) {
    const float x = in[i];
    out[i] = x < 0.0f ? x : 0.0f;
  }
}
