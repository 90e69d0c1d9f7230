// A HIP source whose kernels are launched with <<<...>>> (hipcc accepts the
// CUDA syntax), once plainly and once from a function template.
#include <hip/hip_runtime.h>

__global__ void negate_kernel(float *x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = -x[i];
}

template <typename T>
__global__ void shift_kernel(T *x, T by, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += by;
}

void negate(float *x, int n, hipStream_t stream) {
  negate_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x, n);
}

template <typename T>
void shift(T *x, T by, int n) {
  shift_kernel<T><<<dim3((n + 127) / 128), dim3(128)>>>(x, by, n);
}

template void shift<int>(int *, int, int);
