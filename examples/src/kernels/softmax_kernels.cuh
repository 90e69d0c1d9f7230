// softmax_kernels.cuh - row-wise softmax kernels.  Only ever #included (by
// softmax.cu and attention.cu): the kernel templates live here, the host
// launchers live in the .cu files.
#ifndef KF_EXAMPLES_SOFTMAX_KERNELS_CUH
#define KF_EXAMPLES_SOFTMAX_KERNELS_CUH

#include "common/math_utils.cuh"

/* out[r][c] = exp(in[r][c] - max_r) / sum_c exp(in[r][c] - max_r) for a
 * rows x cols row-major matrix.  One block per row (gridDim.x >= rows);
 * blockDim.x must be a power of two <= KF_BLOCK_THREADS, and the launch must
 * provide blockDim.x * sizeof(float) bytes of dynamic shared memory. */
template <typename T>
__global__ void __launch_bounds__(KF_BLOCK_THREADS)
softmax_rows_kernel(const T *__restrict__ in, T *__restrict__ out, int rows, int cols) {
  extern __shared__ float smem[];
  const int row = blockIdx.x;
  if (row >= rows)
    return;
  const T *x = in + (size_t)row * cols;
  T *y = out + (size_t)row * cols;
  const int tid = threadIdx.x;

  acc_t m = -INFINITY;
  for (int c = tid; c < cols; c += blockDim.x)
    m = max_value(m, (acc_t)x[c]);
  smem[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      smem[tid] = max_value(smem[tid], smem[tid + s]);
    __syncthreads();
  }
  const acc_t row_max = smem[0];
  __syncthreads();

  acc_t sum = 0.0f;
  for (int c = tid; c < cols; c += blockDim.x)
    sum += kf_exp((acc_t)x[c] - row_max);
  smem[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      smem[tid] += smem[tid + s];
    __syncthreads();
  }
  const acc_t inv_sum = 1.0f / smem[0];
  for (int c = tid; c < cols; c += blockDim.x)
    y[c] = T(kf_exp((acc_t)x[c] - row_max) * inv_sum);
}

/* out[r][c] = in[r][c] - logsumexp(in[r][:]).  One thread per row. */
template <typename T>
__global__ void log_softmax_rows_kernel(const T *__restrict__ in, T *__restrict__ out, int rows,
                                        int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows && cols > 0) {
    const T *x = in + (size_t)row * cols;
    T *y = out + (size_t)row * cols;
    T m = x[0];
    for (int c = 1; c < cols; ++c)
      m = max_value(m, x[c]);
    T sum = T(0);
    for (int c = 0; c < cols; ++c)
      sum += kf_exp(x[c] - m);
    const T lse = m + kf_log(sum);
    for (int c = 0; c < cols; ++c)
      y[c] = x[c] - lse;
  }
}

#endif /* KF_EXAMPLES_SOFTMAX_KERNELS_CUH */
