// a header the unit includes, with the same order
__device__ __managed__ alignas(8) int counter;
__device__ inline float banked(const float *p) {
  __shared__ alignas(8) float b[32];
  b[threadIdx.x % 32] = p[0];
  return b[0] + counter;
}
