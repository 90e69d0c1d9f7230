// Kernels on cuRAND's device API, the parts of it a hand-written stand-in
// would not carry: the MTGP32 generator clang's CUDA wrapper itself
// includes, discrete distributions, and Philox with its four-wide draws.
#include <curand_kernel.h>
#include <curand_mtgp32_host.h>
#include <curand_mtgp32dc_p_11213.h>

__global__ void mtgp_kernel(curandStateMtgp32 *state, float *out, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  float v = curand_uniform(&state[blockIdx.x]);
  if (i < n)
    out[i] = v;
}

__global__ void philox_kernel(unsigned long long seed, float4 *out,
                              unsigned *pick,
                              curandDiscreteDistribution_t table, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t s;
  curand_init(seed, i, 0, &s);
  if (i < n) {
    out[i] = curand_uniform4(&s);
    pick[i] = curand_discrete(&s, table);
  }
}
