// The larger unit: its project header makes it the one parsed first.
#include "b_large.cuh"

template __global__ void large_kernel<float>(float *, int);
