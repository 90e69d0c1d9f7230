// conv1d.cu - 9-tap 1-D convolution with the filter in constant memory.
#include "common/math_utils.cuh"

#define CONV_TAPS 9
#define CONV_RADIUS (CONV_TAPS / 2)
#define CONV_THREADS 256

__constant__ float c_taps[CONV_TAPS];

/* out[i] = sum_k c_taps[k] * in[i + k - CONV_RADIUS] for i < n, with zero
 * padding outside [0, n). */
__global__ void conv1d_kernel(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    acc_t acc = 0.0f;
#pragma unroll
    for (int k = 0; k < CONV_TAPS; ++k) {
      const int j = i + k - CONV_RADIUS;
      if (j >= 0 && j < n)
        acc += c_taps[k] * in[j];
    }
    out[i] = acc;
  }
}

/* Copies CONV_TAPS host floats into the constant filter. */
cudaError_t set_conv_taps(const float *taps) {
  return cudaMemcpyToSymbol(c_taps, taps, CONV_TAPS * sizeof(float));
}

cudaError_t conv1d(const float *in, float *out, int n, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  dim3 grid((n + CONV_THREADS - 1) / CONV_THREADS);
  dim3 block(CONV_THREADS);
  void *args[] = {(void *)&in, (void *)&out, (void *)&n};
  return cudaLaunchKernel((const void *)conv1d_kernel, grid, block, args, 0, stream);
}
