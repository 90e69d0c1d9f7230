// reduce.cu - block reductions and a histogram.
#include "common/math_utils.cuh"

#define REDUCE_THREADS 256
#define REDUCE_MAX_BLOCKS 1024

/* partial[blockIdx.x] = sum of the in[i] (i < n) visited by that block's
 * grid-stride loop, summed in a fixed tree order (deterministic for a given
 * grid).  blockDim.x must be REDUCE_THREADS; partial has gridDim.x entries. */
__global__ void block_sum_kernel(const float *__restrict__ in, float *__restrict__ partial, int n) {
  __shared__ float tile[256];
  const int tid = threadIdx.x;
  acc_t v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
    v += in[i];
  tile[tid] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      tile[tid] += tile[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = tile[0];
}

/* out[blockIdx.x] = max of in[i] over the block's elements (-inf where none).
 * blockDim.x must be a multiple of 32 and at most REDUCE_THREADS. */
__global__ void block_max_kernel(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : -INFINITY;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __shared__ float warp_max[REDUCE_THREADS / KF_WARP_SIZE];
  const int lane = threadIdx.x % KF_WARP_SIZE;
  const int warp = threadIdx.x / KF_WARP_SIZE;
  for (int off = KF_WARP_SIZE / 2; off > 0; off >>= 1)
    v = max_value(v, __shfl_xor_sync(0xffffffffu, v, off));
  if (lane == 0)
    warp_max[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x / KF_WARP_SIZE) ? warp_max[lane] : -INFINITY;
    for (int off = KF_WARP_SIZE / 2; off > 0; off >>= 1)
      v = max_value(v, __shfl_xor_sync(0xffffffffu, v, off));
    if (lane == 0)
      out[blockIdx.x] = v;
  }
#else
  __shared__ float buf[REDUCE_THREADS];
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] = max_value(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0];
#endif
}

/* bins[b] += number of in[i] (i < n) in bin b of nbins equal bins over
 * [lo, hi); values outside are counted in the edge bins.  bins must be
 * zeroed first; int atomics keep the result deterministic. */
__global__ void histogram_kernel(const float *__restrict__ in, int *__restrict__ bins, int n,
                                 int nbins, float lo, float hi) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && nbins > 0) {
    const float t = (in[i] - lo) / (hi - lo);
    const int b = clamp_value((int)(t * nbins), 0, nbins - 1);
    atomicAdd(&bins[b], 1);
  }
}

/* A debugging kernel that tools load from the fatbin by name
 * (cuModuleGetFunction); host code never launches it, so its definition is
 * compiled in the device pass only.  nvcc still emits a host stub for every
 * kernel it sees, so both passes need the declaration.
 * *count += number of non-finite in[i], i < n. */
__global__ void count_nonfinite_kernel(const float *__restrict__ in, int *__restrict__ count,
                                       int n);

#ifdef __CUDA_ARCH__
__global__ void count_nonfinite_kernel(const float *__restrict__ in, int *__restrict__ count,
                                       int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && !isfinite(in[i]))
    atomicAdd(count, 1);
}
#endif

/* *result = sum(in[0..n)); scratch holds at least REDUCE_MAX_BLOCKS floats. */
cudaError_t reduce_sum(const float *in, float *scratch, float *result, int n,
                       cudaStream_t stream) {
  int blocks = ceil_div(n > 0 ? n : 1, REDUCE_THREADS);
  if (blocks > REDUCE_MAX_BLOCKS)
    blocks = REDUCE_MAX_BLOCKS;
  block_sum_kernel<<<blocks, REDUCE_THREADS, 0, stream>>>(in, scratch, n);
  block_sum_kernel<<<1, REDUCE_THREADS, 0, stream>>>(scratch, result, blocks);
  return cudaGetLastError();
}

/* maxima[b] = max over in[b * 256 .. b * 256 + 255]; ceil(n / 256) entries. */
cudaError_t block_max(const float *in, float *maxima, int n, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  const int blocks = (n + REDUCE_THREADS - 1) / REDUCE_THREADS;
  block_max_kernel<<<blocks, REDUCE_THREADS, 0, stream>>>(in, maxima, n);
  return cudaGetLastError();
}

cudaError_t histogram(const float *in, int *bins, int n, int nbins, float lo, float hi,
                      cudaStream_t stream) {
  if (nbins <= 0)
    return cudaErrorInvalidValue;
  cudaError_t err = cudaMemsetAsync(bins, 0, nbins * sizeof(int), stream);
  if (err != cudaSuccess || n <= 0)
    return err;
  const int threads = 256;
  histogram_kernel<<<ceil_div(n, threads), threads, 0, stream>>>(in, bins, n, nbins, lo, hi);
  return cudaGetLastError();
}
