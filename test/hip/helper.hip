// A slice that carries a helper header whole: a framework's warp width
// and a warp reduction its kernel never calls.  The kernel itself is
// plain element-wise code, so nothing here depends on the width.
#include <hip/hip_runtime.h>
#define C10_WARP_SIZE 32
namespace helpers {
constexpr int kWarpSize = 32;
template <typename T>
__device__ T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}
__device__ int lane_of(int tid) { return tid & 31; }
}  // namespace helpers

__device__ float twice(float x) { return 2.0f * x; }

__global__ void scale_kernel(const float *x, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = twice(x[i]);
}
