// relu_kernel translated to HIP by hand, the HIP index names included: a
// correct candidate for the CUDA reference examples/src/elementwise.cu.
#include <hip/hip_runtime.h>

__global__ void relu_kernel(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) {
    const float x = in[i];
    out[i] = x > 0.0f ? x : 0.0f;
  }
}
