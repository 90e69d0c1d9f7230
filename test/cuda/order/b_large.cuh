// A header with more text than a_small.cu and b_large.cu together, so
// that the unit including it is the larger one.  kscan parses the units
// with the most project text first: with two workers, the last unit one
// of them takes is then a small one, and the other does not sit idle
// while a large one finishes.  The text below only makes it longer.
//
// Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod
// tempor incididunt ut labore et dolore magna aliqua.  Ut enim ad minim
// veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea
// commodo consequat.
#pragma once

template <typename T>
__global__ void large_kernel(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * p[i];
}
