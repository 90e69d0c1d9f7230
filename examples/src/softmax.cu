// softmax.cu - host launchers for the row-wise softmax kernels.
#include "kernels/softmax_kernels.cuh"

/* Block size for softmax_rows_kernel: a power of two in [32, 256]. */
static int softmax_threads(int cols) {
  int threads = cols >= KF_BLOCK_THREADS ? KF_BLOCK_THREADS : floor_pow2(cols);
  return threads < KF_WARP_SIZE ? KF_WARP_SIZE : threads;
}

/* in, out: rows x cols row-major device buffers (float). */
cudaError_t softmax_forward(const float *in, float *out, int rows, int cols,
                            cudaStream_t stream) {
  if (rows <= 0 || cols <= 0)
    return cudaSuccess;
  const int threads = softmax_threads(cols);
  softmax_rows_kernel<float><<<rows, threads, threads * sizeof(float), stream>>>(in, out, rows,
                                                                               cols);
  return cudaGetLastError();
}

/* Same as softmax_forward for double buffers (accumulates in acc_t). */
cudaError_t softmax_forward_f64(const double *in, double *out, int rows, int cols,
                                cudaStream_t stream) {
  if (rows <= 0 || cols <= 0)
    return cudaSuccess;
  const int threads = softmax_threads(cols);
  const size_t shmem = threads * sizeof(float);
  softmax_rows_kernel<double><<<rows, threads, shmem, stream>>>(in, out, rows, cols);
  return cudaGetLastError();
}

cudaError_t log_softmax_forward(const float *in, float *out, int rows, int cols,
                                cudaStream_t stream) {
  if (rows <= 0)
    return cudaSuccess;
  const int threads = 128;
  const int blocks = ceil_div(rows, threads);
  log_softmax_rows_kernel<float><<<blocks, threads, 0, stream>>>(in, out, rows, cols);
  return cudaGetLastError();
}
