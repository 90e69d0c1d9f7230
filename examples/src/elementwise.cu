// elementwise.cu - element-wise kernels and their host launchers.
#include "common/math_utils.cuh"

#define ELEMENTWISE_THREADS 256
#define MAX_GRID_BLOCKS 1024

/* y[i] = alpha * x[i] for every i < n; grid-stride loop, so any grid works. */
template <typename T>
__global__ void scale_kernel(const T *__restrict__ x, T *__restrict__ y, T alpha, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = alpha * x[i];
}

/* Defines name##_kernel computing out[i] = expr(in[i]) for i < n. */
#define DEFINE_UNARY_KERNEL(name, expr)                                                        \
  __global__ void name##_kernel(const float *__restrict__ in, float *__restrict__ out, int n) { \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                                       \
    if (i < n) {                                                                               \
      const float x = in[i];                                                                   \
      out[i] = (expr);                                                                         \
    }                                                                                          \
  }

DEFINE_UNARY_KERNEL(relu, x > 0.0f ? x : 0.0f)
DEFINE_UNARY_KERNEL(square, x * x)

/* out[i] = p.alpha * x[i] + p.beta * y[i] for i < p.n. */
__global__ void axpby_kernel(AxpbyParams p, const float *__restrict__ x,
                             const float *__restrict__ y, float *__restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    out[i] = p.alpha * x[i] + p.beta * y[i];
}

/* p[i] = v for i < n. */
template <typename T>
__global__ void fill_kernel(T *__restrict__ p, T v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}

/* int specialization: 16-byte stores for the first n / 4 * 4 elements (p must
 * be 16-byte aligned), scalar stores for the tail.  Thread i writes int4 i and
 * tail element i, so max(n / 4, 3) threads are enough. */
template <>
__global__ void fill_kernel<int>(int *__restrict__ p, int v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int n4 = n / 4;
  if (i < n4)
    reinterpret_cast<int4 *>(p)[i] = make_int4(v, v, v, v);
  if (i < n - n4 * 4)
    p[n4 * 4 + i] = v;
}

/* out[r][c] = act(in[r][c] + bias[c]) for a rows x cols row-major matrix. */
template <typename T>
__global__ void bias_act_kernel(const T *__restrict__ in, const T *__restrict__ bias,
                                T *__restrict__ out, int rows, int cols, ActivationKind act) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < rows * cols)
    out[idx] = apply_activation(in[idx] + bias[idx % cols], act);
}

/* ---- host launchers --------------------------------------------------- */

template <typename T>
static cudaError_t launch_scale(const T *x, T *y, T alpha, int n, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  const int threads = ELEMENTWISE_THREADS;
  int blocks = (n + threads - 1) / threads;
  if (blocks > MAX_GRID_BLOCKS)
    blocks = MAX_GRID_BLOCKS; /* the grid-stride loop covers the rest */
  scale_kernel<T><<<blocks, threads, 0, stream>>>(x, y, alpha, n);
  return cudaGetLastError();
}

cudaError_t scale_f32(const float *x, float *y, float alpha, int n, cudaStream_t stream) {
  return launch_scale<float>(x, y, alpha, n, stream);
}

cudaError_t scale_f64(const double *x, double *y, double alpha, int n, cudaStream_t stream) {
  return launch_scale<double>(x, y, alpha, n, stream);
}

cudaError_t relu(const float *in, float *out, int n, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  const int threads = ELEMENTWISE_THREADS;
  relu_kernel<<<ceil_div(n, threads), threads, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}

cudaError_t square(const float *in, float *out, int n, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  const int threads = 128;
  const int blocks = (n + threads - 1) / threads;
  square_kernel<<<blocks, threads, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}

cudaError_t axpby(float alpha, const float *x, float beta, const float *y, float *out, int n,
                  cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  AxpbyParams p;
  p.alpha = alpha;
  p.beta = beta;
  p.n = n;
  axpby_kernel<<<ceil_div(n, ELEMENTWISE_THREADS), ELEMENTWISE_THREADS, 0, stream>>>(p, x, y, out);
  return cudaGetLastError();
}

cudaError_t fill_f32(float *p, float v, int n, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  fill_kernel<float><<<ceil_div(n, ELEMENTWISE_THREADS), ELEMENTWISE_THREADS, 0, stream>>>(p, v, n);
  return cudaGetLastError();
}

cudaError_t fill_i32(int *p, int v, int n, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  const int work = n / 4 > 3 ? n / 4 : 3;
  fill_kernel<int><<<ceil_div(work, ELEMENTWISE_THREADS), ELEMENTWISE_THREADS, 0, stream>>>(p, v, n);
  return cudaGetLastError();
}

cudaError_t bias_activation(const float *in, const float *bias, float *out, int rows, int cols,
                            ActivationKind act, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0)
    return cudaSuccess;
  const int threads = ELEMENTWISE_THREADS;
  const int blocks = ceil_div(rows * cols, threads);
  bias_act_kernel<float><<<blocks, threads, 0, stream>>>(in, bias, out, rows, cols, act);
  return cudaGetLastError();
}
