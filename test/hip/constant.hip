// warpSize where a compile-time constant is needed, and a block that is
// exactly one 64-lane wavefront.
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(64) per_wave(const float *x, float *out) {
  __shared__ float part[warpSize];
  part[threadIdx.x % warpSize] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x] = __shfl(part[0], 0, 64);
}
