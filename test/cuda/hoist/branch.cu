// A toolkit header in a branch the preprocessor does not take is not
// parsed before the unit: cub stays undeclared, an error with the cache
// as without.
#ifdef KF_WITH_CUB
#include <cub/block/block_reduce.cuh>
#endif

__global__ void branch_kernel(float *x) {
  typedef cub::BlockReduce<float, 32> Reduce;
  x[0] = 0;
}
