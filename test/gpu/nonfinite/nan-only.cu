// A wrong count_nonfinite_kernel: it counts NaN and forgets the
// infinities.  On finite data it agrees with the reference (0 in every
// case); only the "nonfinite" case tells them apart.
__global__ void count_nonfinite_kernel(const float *__restrict__ in, int *__restrict__ count,
                                       int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && isnan(in[i]))
    atomicAdd(count, 1);
}
