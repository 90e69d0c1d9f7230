// saxpy.hip - HIP kernels launched through hipLaunchKernelGGL.
#include <hip/hip_runtime.h>

#define SAXPY_THREADS 256

/* out[i] = a * x[i] + y[i] for i < n. */
__global__ void saxpy_kernel(int n, float a, const float *__restrict__ x,
                             const float *__restrict__ y, float *__restrict__ out) {
  const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n)
    out[i] = a * x[i] + y[i];
}

/* out[i] = alpha * x[i] + b[i] for i < n. */
template <typename T>
__global__ void scale_add_kernel(const T *__restrict__ x, const T *__restrict__ b,
                                 T *__restrict__ out, T alpha, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = alpha * x[i] + b[i];
}

hipError_t saxpy(int n, float a, const float *x, const float *y, float *out,
                 hipStream_t stream) {
  if (n <= 0)
    return hipSuccess;
  const int blocks = (n + SAXPY_THREADS - 1) / SAXPY_THREADS;
  hipLaunchKernelGGL(saxpy_kernel, dim3(blocks), dim3(SAXPY_THREADS), 0, stream, n, a, x, y, out);
  return hipGetLastError();
}

hipError_t scale_add_f32(const float *x, const float *b, float *out, float alpha, int n,
                         hipStream_t stream) {
  if (n <= 0)
    return hipSuccess;
  const int threads = 128;
  const int blocks = (n + threads - 1) / threads;
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale_add_kernel<float>), dim3(blocks), dim3(threads), 0,
                     stream, x, b, out, alpha, n);
  return hipGetLastError();
}
