// nvcc accepts alignas after CUDA's memory-space keywords; clang wants it
// first.  Every declaration below parses with nvcc, and with kscan.
#include "alignas.cuh"

static __device__ alignas(8) double scale;
__constant__
    alignas(16) float coeffs[4];
struct alignas(16) Pair { float a, b; };

template <int N>
__global__ void staged(const float *in, float *out) {
  __shared__ alignas(alignof(float4)) float tile[2][N];
  static __shared__ alignas(16) float row[N];
  tile[0][threadIdx.x] = in[threadIdx.x] * scale;  // alignas(4) in a comment
  row[threadIdx.x] = coeffs[threadIdx.x % 4];
  out[threadIdx.x] = tile[0][threadIdx.x] + row[threadIdx.x] + banked(out);
}

__global__ void dynamic_tile(float *out) {
  extern __shared__ alignas(16) float dyn[];
  out[threadIdx.x] = dyn[threadIdx.x];
}

void run(const float *in, float *out) {
  staged<128><<<1, 128>>>(in, out);
  dynamic_tile<<<1, 64, 64 * sizeof(float)>>>(out);
}
